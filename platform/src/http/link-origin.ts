import type { FastifyRequest } from 'fastify';

// Which address a link the product builds starts with (issue 21 item 3):
//
// - A link handed back, in the answer, to the signed-in user whose request asked for it (the billing
//   portal's way back, `payment_method_update_url`): PUBLIC_URL when it is set, else the origin that
//   request was made to. The user then comes back to the address their session lives at (a session is
//   kept per origin: coming back from the portal to `localhost` after signing in at `127.0.0.1` signed
//   the user out). A forged Host header there only misleads the one who forged it.
// - A link sent by e-mail (password reset and invitation, the failed-renewal notice): PUBLIC_URL when it
//   is set, else the server's own address. Never a request's Host header: anyone may ask for a reset of
//   someone else's password, and a reset link built from the Host they sent would carry the victim's
//   token to their server (host-header poisoning).

/** A Host header as browsers send it: a name or IPv4 address, or a bracketed IPv6 one, and a port. */
const HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * The origin a link answered to the requester starts with: PUBLIC_URL (without a trailing slash) when
 * set, else `{protocol}://{Host}` of the request; null when neither is usable (no or a malformed Host).
 */
export function requestOrigin(request: FastifyRequest, publicUrl: string | undefined): string | null {
  if (publicUrl) return publicUrl.replace(/\/+$/, '');
  const host = request.headers.host;
  if (typeof host !== 'string' || host.length > 260 || !HOST.test(host)) return null;
  const protocol = request.protocol === 'https' ? 'https' : 'http';
  try {
    return new URL(`${protocol}://${host}`).origin;
  } catch {
    return null;
  }
}

/** Binds that mean "this machine": every interface, or loopback. */
const LOCAL_BINDS = new Set(['', '0.0.0.0', '::', '127.0.0.1', '::1', 'localhost']);

/**
 * The address to open a server listening on `host` at `port`, as `npm start` prints it:
 * `http://localhost:{port}` when it listens on loopback or on every interface, else the address it was
 * given (an IPv6 one in brackets). Made from the configured host and the bound port, not from the
 * addresses Fastify lists for a wildcard bind, whose first may be the machine's network address.
 */
export function listenOrigin(host: string, port: number): string {
  const bind = host.trim().replace(/^\[(.*)\]$/, '$1');
  const name = LOCAL_BINDS.has(bind) ? 'localhost' : bind.includes(':') ? `[${bind}]` : bind;
  return `http://${name}:${port}`;
}
