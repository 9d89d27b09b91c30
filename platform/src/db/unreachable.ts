/**
 * Whether an error means "the database cannot serve us now" rather than "this request is wrong" or "our
 * code is wrong": one classification for every way node-postgres reports it, so a stopped or restarting
 * database answers 503 with Retry-After everywhere, never 500.
 *
 * - The connection could not be made or was lost: a Node system error of a socket call (`connect`,
 *   `read`, `write`, `getaddrinfo`), whatever the transport: TCP (ECONNREFUSED, ECONNRESET…) or the unix
 *   socket embedded PostgreSQL listens on (ENOENT while its socket file is gone during a restart).
 *   Node also reports a refused connection to a name with several addresses as an AggregateError.
 * - The server refused or ended the session: SQLSTATE class 08 (connection exception), 57P01–57P03
 *   (admin or crash shutdown, starting up), 53300 (too many clients).
 * - node-postgres's own words for a connection it lost, timed out or was closed under it (no code).
 * Errors wrapped by a library (`cause`) are looked through.
 */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENETDOWN',
]);
const SOCKET_CALLS = new Set(['connect', 'read', 'write', 'getaddrinfo']);
const SERVER_CODES = /^(08...|57P0[1-3]|53300)$/;
const DRIVER_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Client was closed and is not queryable',
  'Cannot use a pool after calling end on the pool',
  'Connection is closed',
];

export function isDatabaseUnreachable(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 4) return false;
  const { code, syscall, cause } = error as { code?: unknown; syscall?: unknown; cause?: unknown };
  if (typeof code === 'string') {
    if (SERVER_CODES.test(code)) return true;
    if (SOCKET_CODES.has(code)) return true;
    // A unix socket that is not there (yet, or any more): the server is down or restarting.
    if (code === 'ENOENT' && syscall === 'connect') return true;
  }
  if (typeof syscall === 'string' && SOCKET_CALLS.has(syscall) && typeof code === 'string') return true;
  if (DRIVER_MESSAGES.some((m) => error.message.includes(m))) return true;
  if (error instanceof AggregateError && error.errors.some((e) => isDatabaseUnreachable(e, depth + 1)))
    return true;
  return cause !== undefined && isDatabaseUnreachable(cause, depth + 1);
}
