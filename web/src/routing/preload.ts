import { matchPath } from 'react-router-dom';

interface Preloadable {
  preload(): Promise<void>;
}

// Filled by AppRoutes, which owns the page modules; pages ask for a route by path without importing
// the routes (which import them).
const registry: [string, Preloadable][] = [];

export function registerPreloadedRoutes(routes: [string, Preloadable][]): void {
  registry.push(...routes);
}

/** Starts fetching the page of `pathname` when it is one of the preloaded pages; never fails. */
export function preloadRoute(pathname: string): void {
  const found = registry.find(([path]) => matchPath(path, pathname));
  found?.[1].preload().catch(() => undefined);
}
