import type { Pool } from '@mrn/platform';
import { DomainError } from '@mrn/platform';

export interface ThrottleRule {
  failures: number;
  windowSeconds: number;
}

/**
 * Counts failures per key (e.g. `login-email:a@b.c`, `login-ip:1.2.3.4`) in a fixed window kept in
 * Postgres, so every process of the product shares it. A key at its limit is refused with 429 and
 * Retry-After until its window ends.
 */
export class Throttle {
  constructor(
    private readonly pool: Pool,
    private readonly message: string,
  ) {}

  async check(keys: [string, ThrottleRule][]): Promise<void> {
    const { rows } = await this.pool.query<{ key: string; failures: number; retry: number }>(
      `select key, failures, ceil(extract(epoch from (window_started_at + make_interval(secs => window_seconds)) - now()))::int as retry
         from auth_throttle where key = any($1) and window_started_at + make_interval(secs => window_seconds) > now()`,
      [keys.map(([k]) => k)],
    );
    for (const [key, rule] of keys) {
      const row = rows.find((r) => r.key === key);
      if (row && row.failures >= rule.failures) {
        throw new DomainError(429, this.message, { retryAfterSeconds: Math.max(1, row.retry) });
      }
    }
  }

  async recordFailure(keys: [string, ThrottleRule][]): Promise<void> {
    for (const [key, rule] of keys) {
      await this.pool.query(
        `insert into auth_throttle (key, failures, window_started_at, window_seconds) values ($1, 1, now(), $2)
         on conflict (key) do update set
           failures = case when auth_throttle.window_started_at + make_interval(secs => auth_throttle.window_seconds) > now()
                           then auth_throttle.failures + 1 else 1 end,
           window_started_at = case when auth_throttle.window_started_at + make_interval(secs => auth_throttle.window_seconds) > now()
                           then auth_throttle.window_started_at else now() end,
           window_seconds = excluded.window_seconds`,
        [key, rule.windowSeconds],
      );
    }
  }

  async reset(keys: string[]): Promise<void> {
    await this.pool.query('delete from auth_throttle where key = any($1)', [keys]);
  }
}
