import type { Clock, Pool } from '@mrn/platform';
import { rateLimited } from '@mrn/platform';

export interface ThrottleRule {
  /** Attempts allowed in one window; the next one is refused until the window ends. */
  failures: number;
  windowSeconds: number;
}

export type ThrottleKeys = [key: string, rule: ThrottleRule][];

/** What a caller does with an attempt it was allowed to make, once it knows the outcome. */
export interface Attempt {
  /** The guess was right: the attempt is given back on every key, and `forget` keys start afresh. */
  succeeded(forget?: string[]): Promise<void>;
}

/**
 * Counts attempts per key (`login-email-ip:a@b.c|1.2.3.4`, `otp-user:…`) in a fixed window kept in
 * Postgres, so every process of the product shares it.
 *
 * Take first, judge after: one statement counts the attempt on every key and returns the counts, and
 * only then is the password or code verified. Checking first and recording the failure afterwards let
 * 60 guesses sent at once all be judged (each saw the count before any was recorded); with the
 * count-then-judge statement, row locks order concurrent attempts on a key and exactly `failures` of
 * them are judged. A right guess gives its attempt back, so only failures use up the window.
 */
export class Throttle {
  constructor(
    private readonly pool: Pool,
    private readonly message: string,
    private readonly clock: Clock,
  ) {}

  async take(keys: ThrottleKeys): Promise<Attempt> {
    // Keys in one order in every statement: two requests locking the same rows never deadlock.
    const sorted = [...keys].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const now = this.clock.now();
    const { rows } = await this.pool.query<{ key: string; failures: number; retry: number }>(
      `with input as (
         select * from unnest($1::text[], $2::int[]) as i(key, window_seconds)
       ),
       taken as (
         insert into auth_throttle as t (key, failures, window_started_at, window_seconds)
         select key, 1, $3::timestamptz, window_seconds from input order by key
         on conflict (key) do update set
           failures = case when t.window_started_at + make_interval(secs => t.window_seconds) > $3::timestamptz
                           then t.failures + 1 else 1 end,
           window_started_at = case when t.window_started_at + make_interval(secs => t.window_seconds) > $3::timestamptz
                           then t.window_started_at else $3::timestamptz end,
           window_seconds = excluded.window_seconds
         returning key, failures, window_started_at, window_seconds
       )
       select key, failures,
              ceil(extract(epoch from (window_started_at + make_interval(secs => window_seconds)) - $3::timestamptz))::int as retry
         from taken`,
      [sorted.map(([k]) => k), sorted.map(([, r]) => r.windowSeconds), now],
    );
    const over = sorted
      .map(([key, rule]) => ({ rule, row: rows.find((r) => r.key === key) }))
      .filter(({ rule, row }) => row && row.failures > rule.failures);
    if (over.length > 0) {
      const retryAfterSeconds = Math.max(1, ...over.map(({ row }) => row?.retry ?? 1));
      throw rateLimited(this.message, retryAfterSeconds);
    }
    return {
      succeeded: async (forget = []) => {
        await this.pool.query(
          `with forgotten as (delete from auth_throttle where key = any($2) returning key)
           update auth_throttle set failures = greatest(failures - 1, 0)
            where key = any($1) and not (key = any($2))`,
          [sorted.map(([k]) => k), forget],
        );
      },
    };
  }
}
