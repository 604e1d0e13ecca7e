import { registerSW } from 'virtual:pwa-register';

/** Registers the service worker that precaches the app shell, so the app opens offline. */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator) || import.meta.env.DEV) return;
  registerSW({ immediate: true });
}
