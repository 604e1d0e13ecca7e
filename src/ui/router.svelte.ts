/** Hash router: `#/data`, `#/memory`, … Works from any static host and offline. */

export const ROUTES = ['data', 'label', 'memory', 'predict', 'evaluate', 'tools', 'settings'] as const;
export type Route = (typeof ROUTES)[number];

/** The route a location hash names (`#/memory` → memory); anything else is the Data page. */
export function parse(hash: string): Route {
  const name = hash.replace(/^#\/?/, '').split(/[/?]/)[0] ?? '';
  return (ROUTES as readonly string[]).includes(name) ? (name as Route) : 'data';
}

export class Router {
  #current = $state<Route>(parse(location.hash));
  // Read from outside through getters; changed only by this class's methods.
  get current() {
    return this.#current;
  }

  constructor() {
    window.addEventListener('hashchange', () => {
      this.#current = parse(location.hash);
    });
  }

  go(route: Route): void {
    location.hash = `#/${route}`;
  }
}
