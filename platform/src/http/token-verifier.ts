// Its types: every service signs with app.jwt, registered by the HTTP shell.
import '@fastify/jwt';
import { createVerifier } from 'fast-jwt';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TokenClaims } from './actor.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The claims of a bearer token whose signature, expiry (and issuer, for the sandbox) hold; throws if not. */
    verifyBearerToken?: (token: string) => TokenClaims;
  }
}

/** Distinct live tokens whose verification a process keeps (an entry is a few hundred bytes). */
const VERIFIED_TOKENS_KEPT = 10_000;

/**
 * Every authenticated request verifies its token (the partner API twice: its rate limit is per user).
 * `request.jwtVerify()` of @fastify/jwt decoded the token, merged its options and ran a callback
 * waterfall on every call, then computed the HMAC: about 13 µs a request on this machine. One fast-jwt
 * verifier made once, with its cache of verified tokens, costs about 2 µs (a hash of the token and a
 * look-up); a cached entry ends at the token's own expiry, and a failure is never cached. Signing stays
 * with @fastify/jwt (`app.jwt.sign`), with the same secret and issuer.
 */
export function installTokenVerifier(app: FastifyInstance, opts: { secret: string; issuer?: string }): void {
  const verify = createVerifier({
    key: opts.secret,
    algorithms: ['HS256'],
    cache: VERIFIED_TOKENS_KEPT,
    // With an issuer (the sandbox), a token must name it: one that names none is not the sandbox's.
    ...(opts.issuer ? { allowedIss: opts.issuer, requiredClaims: ['iss'] } : {}),
  });
  app.decorate('verifyBearerToken', (token: string) => verify(token) as TokenClaims);
}

/** The token of `Authorization: Bearer <token>`, or undefined for any other form. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const space = header.indexOf(' ');
  if (space < 0 || header.slice(0, space).toLowerCase() !== 'bearer') return undefined;
  const token = header.slice(space + 1);
  return token === '' || token.includes(' ') ? undefined : token;
}

/** The verified claims of the request's bearer token; throws if there is none or it does not hold. */
export function verifiedClaims(request: FastifyRequest): TokenClaims {
  const token = bearerToken(request);
  const verify = request.server.verifyBearerToken;
  if (token === undefined || !verify) throw new Error('no verifiable bearer token');
  return verify(token);
}
