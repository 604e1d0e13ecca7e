import { getContext, setContext } from 'svelte';
import type { AppState } from './app-state.svelte';
import type { Router } from './router.svelte';

const APP = Symbol('app');
const ROUTER = Symbol('router');

export function provideApp(app: AppState, router: Router): void {
  setContext(APP, app);
  setContext(ROUTER, router);
}
export function useApp(): AppState {
  return getContext<AppState>(APP);
}
export function useRouter(): Router {
  return getContext<Router>(ROUTER);
}
