import { type Pool, SESSIONS_CHANNEL, sessionCache } from '@mrn/platform';

/**
 * Ends sessions and, in the same statement, tells every other process (their session caches are
 * cleared when the change commits: a revoked token is refused everywhere at once).
 */
async function endSessions(pool: Pool, where: string, values: unknown[], reason?: string): Promise<void> {
  await pool.query(
    `with ended as (
       update auth_sessions set revoked_at = now()${reason ? `, revoked_reason = '${reason}'` : ''}
        where ${where} and revoked_at is null returning 1)
     select pg_notify('${SESSIONS_CHANNEL}', '')`,
    values,
  );
  sessionCache.clear();
}

export async function openSession(
  pool: Pool,
  s: {
    id: string;
    userId: string;
    accountId: string;
    ttlSeconds: number;
    ip: string;
    userAgent: string | null;
    /** `api`: an API token of the partner API (DESIGN §5); a dashboard sign-in otherwise. */
    kind?: 'web' | 'api';
  },
): Promise<void> {
  await pool.query(
    `insert into auth_sessions (id, user_id, account_id, expires_at, ip, user_agent, kind)
     values ($1, $2, $3, now() + make_interval(secs => $4), $5, $6, $7)`,
    [s.id, s.userId, s.accountId, s.ttlSeconds, s.ip, s.userAgent, s.kind ?? 'web'],
  );
}

export async function closeSession(pool: Pool, sessionId: string): Promise<void> {
  await endSessions(pool, 'id = $1', [sessionId]);
}

/** Ends every live session of a user except, optionally, the one making the change. */
export async function closeUserSessions(pool: Pool, userId: string, except?: string): Promise<void> {
  await endSessions(pool, 'user_id = $1 and id is distinct from $2', [userId, except ?? null]);
}

/**
 * Ends API tokens at once, without waiting for any read model: a user's (their API access revoked or
 * their key regenerated) or every member's of an account (its API access revoked).
 */
export async function closeApiSessions(
  pool: Pool,
  of: { userId: string } | { accountId: string },
): Promise<void> {
  if ('userId' in of)
    await endSessions(pool, "user_id = $1 and kind = 'api'", [of.userId], 'api_access_revoked');
  else await endSessions(pool, "account_id = $1 and kind = 'api'", [of.accountId], 'api_access_revoked');
}

/** Ends every session of an account's members (the funder is archived). */
export async function closeAccountSessions(pool: Pool, accountId: string): Promise<void> {
  await endSessions(pool, 'account_id = $1', [accountId]);
}
