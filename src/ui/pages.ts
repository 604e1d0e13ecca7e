/**
 * The pages, one chunk each but the Data page: the shell loads only the page it shows (and what that
 * page imports), so the first load does not parse chart.js, zod or the other pages' code.
 */
import type { Component } from 'svelte';
import type { Route } from './router.svelte';
// The Data page is where the app opens (and where a first visit lands): part of the first load, so
// its code and its imports come with the entry (preloaded by index.html) instead of a round trip later.
import DataPage from './pages/DataPage.svelte';

type PageModule = { default: Component };

const IMPORTS: Record<Route, () => Promise<PageModule>> = {
  data: () => Promise.resolve({ default: DataPage }),
  label: () => import('./pages/LabelPage.svelte'),
  memory: () => import('./pages/MemoryPage.svelte'),
  predict: () => import('./pages/PredictPage.svelte'),
  evaluate: () => import('./pages/EvaluatePage.svelte'),
  tools: () => import('./pages/ToolsPage.svelte'),
  settings: () => import('./pages/SettingsPage.svelte'),
};

const loaded = new Map<Route, Component>();

/** The page's component if its chunk is already loaded, else null. */
export function loadedPage(route: Route): Component | null {
  return loaded.get(route) ?? null;
}

/** Loads the page's chunk (once) and returns its component. */
export async function loadPage(route: Route): Promise<Component> {
  const hit = loaded.get(route);
  if (hit) return hit;
  const component = (await IMPORTS[route]()).default;
  loaded.set(route, component);
  return component;
}
