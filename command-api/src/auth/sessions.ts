import { type Pool, sessionCache } from '@mrn/platform';

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
  await pool.query('update auth_sessions set revoked_at = now() where id = $1 and revoked_at is null', [
    sessionId,
  ]);
  sessionCache.clear();
}

/** Ends every live session of a user except, optionally, the one making the change. */
export async function closeUserSessions(pool: Pool, userId: string, except?: string): Promise<void> {
  await pool.query(
    'update auth_sessions set revoked_at = now() where user_id = $1 and revoked_at is null and id is distinct from $2',
    [userId, except ?? null],
  );
  sessionCache.clear();
}

/**
 * Ends API tokens at once, without waiting for any read model: a user's (their API access revoked or
 * their key regenerated) or every member's of an account (its API access revoked).
 */
export async function closeApiSessions(
  pool: Pool,
  of: { userId: string } | { accountId: string },
): Promise<void> {
  if ('userId' in of) {
    await pool.query(
      `update auth_sessions set revoked_at = now(), revoked_reason = 'api_access_revoked'
        where user_id = $1 and kind = 'api' and revoked_at is null`,
      [of.userId],
    );
  } else {
    await pool.query(
      `update auth_sessions set revoked_at = now(), revoked_reason = 'api_access_revoked'
        where account_id = $1 and kind = 'api' and revoked_at is null`,
      [of.accountId],
    );
  }
  sessionCache.clear();
}

/** Ends every session of an account's members (the funder is archived). */
export async function closeAccountSessions(pool: Pool, accountId: string): Promise<void> {
  await pool.query(
    'update auth_sessions set revoked_at = now() where account_id = $1 and revoked_at is null',
    [accountId],
  );
  sessionCache.clear();
}
