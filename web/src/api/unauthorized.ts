/**
 * The API client is plain TypeScript; the auth provider registers here what a 401 means for the
 * app (clear the session, remember the route, go to /login).
 */
type UnauthorizedHandler = () => void;

let handler: UnauthorizedHandler | null = null;

export function setUnauthorizedHandler(next: UnauthorizedHandler | null): void {
  handler = next;
}

export function notifyUnauthorized(): void {
  handler?.();
}
