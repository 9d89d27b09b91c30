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
