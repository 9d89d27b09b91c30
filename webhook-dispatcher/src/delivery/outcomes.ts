import { type Logger, type Pool, withTransaction } from '@mrn/platform';
import {
  closeCircuits,
  type EndpointFailures,
  recordEndpointFailures,
} from '../endpoints/circuit-breaker.ts';
import { disableLongFailing } from '../endpoints/endpoint-health.ts';
import type { ClaimedDelivery } from './claim.ts';
import type { Outcome } from './http-post.ts';
import { afterFailure } from './retry-policy.ts';

/** A finished attempt waiting to be written, with the time it finished. */
export interface Finished {
  d: ClaimedDelivery;
  o: Outcome;
  at: Date;
}

// Every write below is made only while the row's lease is the one its worker claimed with: a worker
// that outlived its lease does not write over another's attempt. The attempt rows exist since the
// claim (claim.ts); the outcome is written onto them.

/**
 * Successes in one statement: the rows, their attempts and their endpoints' health. An answer also ends
 * its endpoint's run of failures (and its circuit, if it was the probe): rare, so a statement of its own.
 */
export async function writeSuccesses(pool: Pick<Pool, 'query'>, group: Finished[], now: Date): Promise<void> {
  const { rows: circuits } = await pool.query<{ account_id: string; url: string }>(
    `with o as (
       select * from unnest($1::uuid[], $2::timestamptz[], $3::timestamptz[], $4::int[], $5::int[], $6::text[])
         as o(id, claimed_until, at, http_status, duration_ms, body)),
     done as (
       update webhook_deliveries d
          set status = 'succeeded', next_attempt_at = null, claimed_until = null,
              last_error = null, finished_at = o.at
         from o where d.id = o.id and d.claimed_until = o.claimed_until
       returning d.id, d.attempts, d.kind, d.account_id, d.target),
     logged as (
       update webhook_attempts a
          set http_status = o.http_status, duration_ms = o.duration_ms, response_body = o.body,
              error = null, succeeded = true
         from done join o on o.id = done.id
        where a.delivery_id = done.id and a.attempt = done.attempts),
     healthy as (
       delete from webhook_endpoint_health h using done
        where done.kind = 'webhook' and h.account_id = done.account_id and h.url = done.target)
     select distinct c.account_id, c.url from webhook_endpoint_circuits c
       join done on done.kind = 'webhook' and c.account_id = done.account_id and c.url = done.target`,
    [
      group.map((g) => g.d.id),
      group.map((g) => g.d.claimed_until),
      group.map((g) => g.at),
      group.map((g) => g.o.httpStatus),
      group.map((g) => g.o.durationMs),
      group.map((g) => g.o.body),
    ],
  );
  if (circuits.length === 0) return;
  await retryDeadlock(() =>
    closeCircuits(
      pool,
      circuits.map((c) => ({ accountId: c.account_id, url: c.url })),
      now,
    ),
  );
}

/**
 * Failures in one transaction: each row moves to the next step of the retry schedule or is dead, its
 * attempt gets its error, and its endpoint's health and circuit count the failures. Endpoints failing
 * for 5 days are disabled. Returns how many were disabled (their admins' e-mails are due now).
 */
export async function writeFailures(
  pool: Pool,
  group: Finished[],
  ctx: { random: () => number; logger: Logger },
): Promise<number> {
  const steps = group.map((g) => afterFailure(g.d.attempts, g.at, ctx.random));
  return retryDeadlock(() => writeFailuresOnce(pool, group, steps, ctx.logger));
}

/**
 * Failure groups of two processes (or one's failures and another's successes) can lock the same
 * endpoints' circuits and rows in different orders; PostgreSQL then cancels one. It is written again.
 */
async function retryDeadlock<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (err) {
      if ((err as { code?: string }).code !== '40P01' || attempt >= 3) throw err;
    }
  }
}

async function writeFailuresOnce(
  pool: Pool,
  group: Finished[],
  steps: ReturnType<typeof afterFailure>[],
  logger: Logger,
): Promise<number> {
  return withTransaction(pool, async (tx) => {
    const { rows } = await tx.query<{ account_id: string; url: string; failures: number; probe: boolean }>(
      `with o as (
         select * from unnest($1::uuid[], $2::timestamptz[], $3::timestamptz[], $4::text[], $5::timestamptz[],
                              $6::text[], $7::int[], $8::int[], $9::text[], $10::bool[])
           as o(id, claimed_until, at, status, next_attempt_at, error, http_status, duration_ms, body, probe)),
       done as (
         update webhook_deliveries d
            set status = o.status, next_attempt_at = o.next_attempt_at, claimed_until = null,
                last_error = o.error, finished_at = case when o.status = 'dead' then o.at end
           from o where d.id = o.id and d.claimed_until = o.claimed_until
         returning d.id, d.attempts, d.kind, d.account_id, d.target),
       logged as (
         update webhook_attempts a
            set http_status = o.http_status, duration_ms = o.duration_ms, response_body = o.body,
                error = o.error, succeeded = false
           from done join o on o.id = done.id
          where a.delivery_id = done.id and a.attempt = done.attempts),
       endpoints as (
         select done.account_id, done.target as url, count(*)::int as failures, bool_or(o.probe) as probe,
                min(o.at) as at
           from done join o on o.id = done.id
          where done.kind = 'webhook'
          group by done.account_id, done.target),
       health as (
         insert into webhook_endpoint_health (account_id, url, failing_since)
         select account_id, url, at from endpoints
         on conflict (account_id, url) do nothing)
       select account_id, url, failures, probe from endpoints`,
      [
        group.map((g) => g.d.id),
        group.map((g) => g.d.claimed_until),
        group.map((g) => g.at),
        steps.map((s) => s.status),
        steps.map((s) => s.next),
        group.map((g) => g.o.error),
        group.map((g) => g.o.httpStatus),
        group.map((g) => g.o.durationMs),
        group.map((g) => g.o.body),
        group.map((g) => g.d.probe),
      ],
    );
    if (rows.length === 0) return 0;
    const now = new Date(Math.max(...group.map((g) => g.at.getTime())));
    const failing: EndpointFailures[] = rows.map((r) => ({
      accountId: r.account_id,
      url: r.url,
      failures: r.failures,
      probe: r.probe,
    }));
    await recordEndpointFailures(tx, failing, now);
    return disableLongFailing(tx, failing, now, logger);
  });
}
