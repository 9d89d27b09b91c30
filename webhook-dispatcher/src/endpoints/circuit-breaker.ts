import type { Pool } from '@mrn/platform';

type Queryable = Pick<Pool, 'query'>;

/**
 * The circuit breaker of an endpoint (account + URL), kept in `webhook_endpoint_circuits` so that every
 * dispatcher process respects it (migration 0005).
 *
 * Five failures in a row: one failure or two is a deploy or a blip that the retry schedule absorbs, five
 * back to back (a hanging endpoint reaches it within two header timeouts at 4 in flight) is an endpoint
 * that is down. Parked for 30 s first, short enough that a receiver restarting loses little, doubling on
 * each failed probe up to 5 minutes, the schedule's own third wait, so a recovered endpoint is found
 * within minutes and a dead one costs one request per 5 minutes instead of 4 in flight at all times.
 * The retry schedule and the 5-day disable rule are unchanged; the breaker only decides when rows go.
 */
export const FAILURES_TO_OPEN = 5;
export const FIRST_PAUSE_MS = 30_000;
export const MAX_PAUSE_MS = 300_000;

export interface Endpoint {
  accountId: string;
  url: string;
}

/** An endpoint's failures among a group of outcomes being recorded. */
export interface EndpointFailures extends Endpoint {
  failures: number;
  /** One of them was the endpoint's probe. */
  probe: boolean;
}

/**
 * Counts failed attempts (inside the transaction that records them) and parks each endpoint whose
 * circuit they open or whose probe failed. Returns the endpoints parked, with until when.
 */
export async function recordEndpointFailures(
  tx: Queryable,
  endpoints: EndpointFailures[],
  now: Date,
): Promise<(Endpoint & { until: Date })[]> {
  if (endpoints.length === 0) return [];
  const accounts = endpoints.map((e) => e.accountId);
  const urls = endpoints.map((e) => e.url);
  await tx.query(
    `insert into webhook_endpoint_circuits (account_id, url, consecutive_failures)
     select account_id, url, 0 from unnest($1::uuid[], $2::text[]) as e(account_id, url)
     on conflict (account_id, url) do nothing`,
    [accounts, urls],
  );
  // A failed probe doubles the pause; failures that complete the run open the circuit; any other (a
  // request already in flight when it opened) only counts.
  const { rows } = await tx.query<{ account_id: string; url: string; open_until: Date | null }>(
    `update webhook_endpoint_circuits c set
       consecutive_failures = c.consecutive_failures + e.failures,
       pause_ms = case
         when e.probe and c.probing then least(c.pause_ms * 2, $6::int)
         when c.open_until is null and c.consecutive_failures + e.failures >= $7::int then $8::int
         else c.pause_ms end,
       open_until = case
         when e.probe and c.probing then $5::timestamptz + least(c.pause_ms * 2, $6::int) * interval '1 millisecond'
         when c.open_until is null and c.consecutive_failures + e.failures >= $7::int
           then $5::timestamptz + $8::int * interval '1 millisecond'
         else c.open_until end,
       probing = c.probing and not e.probe
      from unnest($1::uuid[], $2::text[], $3::int[], $4::bool[]) as e(account_id, url, failures, probe)
     where c.account_id = e.account_id and c.url = e.url
     returning c.account_id, c.url, c.open_until`,
    [
      accounts,
      urls,
      endpoints.map((e) => e.failures),
      endpoints.map((e) => e.probe),
      now,
      MAX_PAUSE_MS,
      FAILURES_TO_OPEN,
      FIRST_PAUSE_MS,
    ],
  );
  const parked = rows
    .filter((r) => r.open_until !== null && r.open_until > now)
    .map((r) => ({ accountId: r.account_id, url: r.url, until: r.open_until! }));
  await parkRows(tx, parked, now);
  return parked;
}

/**
 * Parked endpoints' waiting rows are moved to the end of the pause: they spend no attempt meanwhile,
 * and the claim's scan of due rows does not walk past them on every round. Rows in flight finish.
 */
async function parkRows(tx: Queryable, parked: (Endpoint & { until: Date })[], now: Date): Promise<void> {
  if (parked.length === 0) return;
  await tx.query(
    `update webhook_deliveries d set next_attempt_at = p.until
       from unnest($1::uuid[], $2::text[], $3::timestamptz[]) as p(account_id, url, until)
      where d.account_id = p.account_id and d.target = p.url and d.kind = 'webhook'
        and d.status in ('pending', 'failed') and d.next_attempt_at < p.until
        and (d.claimed_until is null or d.claimed_until <= $4)`,
    [parked.map((p) => p.accountId), parked.map((p) => p.url), parked.map((p) => p.until), now],
  );
}

/**
 * Closes the circuits of endpoints that answered. Rows it had parked until a time still ahead go now:
 * they waited only for the breaker (a retry due later than the pause was not moved, and stays).
 */
export async function closeCircuits(tx: Queryable, endpoints: Endpoint[], now: Date): Promise<void> {
  if (endpoints.length === 0) return;
  await tx.query(
    `with closed as (
       delete from webhook_endpoint_circuits c
        using unnest($1::uuid[], $2::text[]) as e(account_id, url)
        where c.account_id = e.account_id and c.url = e.url
       returning c.account_id, c.url, c.open_until)
     update webhook_deliveries d set next_attempt_at = $3
       from closed
      where closed.open_until > $3 and d.account_id = closed.account_id and d.target = closed.url
        and d.kind = 'webhook' and d.status in ('pending', 'failed')
        and d.next_attempt_at > $3 and d.next_attempt_at <= closed.open_until`,
    [endpoints.map((e) => e.accountId), endpoints.map((e) => e.url), now],
  );
}
