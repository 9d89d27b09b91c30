import { isReturnableRoute } from '../routing/paths.ts';

// sessionStorage: the route survives the trip through /login and the MFA steps, and a reload, but
// not into another tab.
const ATTEMPTED_ROUTE_KEY = 'mrn.attempted_route';

export function rememberAttemptedRoute(route: string): void {
  if (!isReturnableRoute(route)) return;
  try {
    window.sessionStorage.setItem(ATTEMPTED_ROUTE_KEY, route);
  } catch {
    // Without storage the user lands on the dashboard instead.
  }
}

export function readAttemptedRoute(): string | null {
  try {
    return window.sessionStorage.getItem(ATTEMPTED_ROUTE_KEY);
  } catch {
    return null;
  }
}

export function forgetAttemptedRoute(): void {
  try {
    window.sessionStorage.removeItem(ATTEMPTED_ROUTE_KEY);
  } catch {
    // Nothing stored then.
  }
}
