import type { Access, PlanLevel } from '@mrn/contracts';
import { API_TEXTS, MESSAGES } from '@mrn/contracts';
import type { FastifyRequest } from 'fastify';
import type { Pool } from '../db.ts';
import { forbidden, unauthorized } from '../errors.ts';
import type { Actor, TokenClaims } from './actor.ts';
import { verifiedClaims } from './token-verifier.ts';

interface SessionRow {
  revoked_at: Date | null;
  revoked_reason: string | null;
  expires_at: Date;
  session_version: number | null;
  archived_at: Date | null;
  is_admin: boolean | null;
  is_dm_admin: boolean | null;
  plan_level: PlanLevel | null;
  account_archived_at: Date | null;
  kind: 'web' | 'api';
  /** The user's stream revision read.users has applied through (null: not known). */
  user_revision: string | null;
}

/** The session check of every authenticated request (exported for the bench). */
export const SESSION_QUERY = `select s.revoked_at, s.revoked_reason, s.expires_at, u.session_version, u.archived_at, u.is_admin, u.is_dm_admin,
            a.plan_level, a.archived_at as account_archived_at, s.kind, u.revision::text as user_revision
       from auth_sessions s
       left join read.users u on u.id = s.user_id
       left join read.accounts a on a.id = s.account_id
      where s.id = $1 and s.user_id = $2`;

const SESSION_CACHE_MS = 1000;
const SESSION_CACHE_MAX = 10_000;

/**
 * Session rows recently read, by session and user. Every authenticated request read its session, user and
 * account: on the search path that was a third of the round trips to Postgres. This process clears
 * the cache whenever it revokes a session or applies a change to users or accounts, so here a
 * logout, a role change or an archive applies to the very next request; a change made by another
 * process (the split topology) applies within a second.
 */
export const sessionCache = {
  rows: new Map<string, { row: SessionRow; at: number }>(),
  get(key: string): SessionRow | undefined {
    const hit = this.rows.get(key);
    if (!hit) return undefined;
    if (performance.now() - hit.at < SESSION_CACHE_MS) return hit.row;
    this.rows.delete(key);
    return undefined;
  },
  /** Bumped by every clear: a row read before a clear must not be kept after it. */
  generation: 0,
  set(key: string, row: SessionRow, readInGeneration: number): void {
    if (readInGeneration !== this.generation) return;
    if (this.rows.size >= SESSION_CACHE_MAX) this.rows.clear();
    this.rows.set(key, { row, at: performance.now() });
  },
  clear(): void {
    this.generation++;
    this.rows.clear();
  },
};

/**
 * The token's signature and expiry (JWT): no database, so it runs before anything that waits or reads
 * (an anonymous caller is refused at once, never held by X-Consistent-After).
 */
export async function verifyToken(request: FastifyRequest, forApi = false): Promise<TokenClaims> {
  if (!request.headers.authorization)
    throw unauthorized(forApi ? API_TEXTS.tokenMissing : MESSAGES.sessionEnded);
  try {
    return verifiedClaims(request);
  } catch {
    throw unauthorized(forApi ? API_TEXTS.tokenExpired : MESSAGES.sessionEnded);
  }
}

/**
 * Turns verified claims into an Actor: the server-side session (logout, revocation) and the user's
 * session version (a bump ends every older token). Roles come from the read model, so a change of
 * role applies to live tokens at once.
 */
export async function actorFor(pool: Pool, claims: TokenClaims): Promise<Actor> {
  const row = sessionCache.get(`${claims.sid}/${claims.sub}`) ?? (await readSession(pool, claims));
  const live =
    row &&
    row.revoked_at === null &&
    row.expires_at > new Date() &&
    // Older tokens than the user's session version are revoked; a newer one (signed by us just now)
    // only means the read model has not caught up with the bump yet.
    (row.session_version ?? 0) <= claims.sv &&
    row.archived_at === null &&
    row.account_archived_at === null;
  const viaApi = claims.knd === 'api';
  if (!live) {
    if (viaApi && row?.revoked_reason === 'api_access_revoked') throw unauthorized(API_TEXTS.accessRevoked);
    throw unauthorized(viaApi ? API_TEXTS.tokenExpired : MESSAGES.sessionEnded);
  }
  // An API token is as good as the grant behind it: revoking the user's or the account's API access, or
  // regenerating the key, revokes its session in the same request (command-api), so the session row says
  // it all; the read models' copy of the grant lags the grant itself and would refuse a fresh token.
  if (viaApi && row.kind !== 'api') throw unauthorized(API_TEXTS.accessRevoked);
  // Roles come from the read model, so a change applies to live tokens at once; but a token signed from
  // the user's stream at a revision the read model has not applied yet (a role given just before signing
  // in) knows better.
  const rolesFromToken =
    claims.urv !== undefined && (row.user_revision === null || Number(row.user_revision) < claims.urv);
  return {
    userId: claims.sub,
    accountId: claims.acc,
    sessionId: claims.sid,
    sessionVersion: claims.sv,
    isAdmin: rolesFromToken ? claims.adm : (row.is_admin ?? claims.adm),
    isDmAdmin: rolesFromToken ? claims.dm : (row.is_dm_admin ?? claims.dm),
    planLevel: row.plan_level ?? 'BASIC',
    mfaPending: claims.mfa === 'pending',
    viaApi,
  };
}

export async function authenticate(pool: Pool, request: FastifyRequest): Promise<Actor> {
  return actorFor(pool, await verifyToken(request));
}

/** The route table's `access` and `plan`, enforced in this one place. */
export function authorise(actor: Actor, access: Access, plan?: 'PRO'): void {
  // The two kinds of token never cross: a leaked API token cannot drive the dashboard, and a
  // dashboard session is not an integration's credential.
  if (access === 'api' && !actor.viaApi) throw unauthorized(API_TEXTS.needsApiToken);
  if (access !== 'api' && access !== 'anonymous' && actor.viaApi) throw unauthorized(API_TEXTS.dashboardOnly);
  if (access === 'anonymous' || access === 'session') return;
  if (actor.mfaPending) throw forbidden('Multi-factor authentication is required.');
  if (access === 'account_admin' && !actor.isAdmin && !actor.isDmAdmin) throw forbidden(MESSAGES.notAllowed);
  if (access === 'platform_admin' && !actor.isDmAdmin) throw forbidden(MESSAGES.notAllowed);
  if (plan === 'PRO' && actor.planLevel !== 'PRO' && !actor.isDmAdmin) {
    throw forbidden('This feature is only available to PRO members.');
  }
}

async function readSession(pool: Pool, claims: TokenClaims): Promise<SessionRow | undefined> {
  const generation = sessionCache.generation;
  // Named, so each connection plans it once.
  const { rows } = await pool.query<SessionRow>({
    name: 'mrn_authenticate',
    text: SESSION_QUERY,
    values: [claims.sid, claims.sub],
  });
  const row = rows[0];
  // Only live sessions are kept: a refused token is asked again, and is rare.
  if (row && row.revoked_at === null) sessionCache.set(`${claims.sid}/${claims.sub}`, row, generation);
  return row;
}
