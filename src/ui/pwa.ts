import { registerSW } from 'virtual:pwa-register';

/**
 * Registers the service worker that precaches the app shell, so the app opens offline. After the
 * page's `load` event (not at once): installing it downloads and caches every script of the app, a
 * few MB, which on a first visit would compete with the first paint for the network and the CPU.
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator) || import.meta.env.DEV) return;
  registerSW({ immediate: false });
}
