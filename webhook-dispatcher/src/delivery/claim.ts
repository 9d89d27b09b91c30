import type { Pool } from '@mrn/platform';

export interface ClaimedDelivery {
  id: string;
  webhook_id: string;
  account_id: string;
  kind: 'webhook' | 'email';
  target: string;
  payload: Record<string, unknown>;
  /** This attempt's number: the claim counted it. */
  attempts: number;
  claimed_until: Date;
  /** The one request that tests a parked endpoint (endpoints/circuit-breaker.ts). */
  probe: boolean;
}

/** An endpoint (account + target) with requests of this process in flight. */
export interface Busy {
  accountId: string;
  target: string;
  inFlight: number;
}

// The claim is the attempt (issue 20 item 14): the same statement counts it and logs it with no outcome
// yet, so a dispatcher killed mid-request leaves an attempt whose answer is unknown, and the next claim
// is the next attempt. The outcome is written onto that row (dispatcher.ts).
const CLAIMED = `claimed as (
  update webhook_deliveries d set claimed_until = $3, attempts = d.attempts + 1
    from chosen where d.id = chosen.id
  returning d.id, d.webhook_id, d.account_id, d.kind, d.target, d.payload, d.attempts, d.claimed_until),
logged as (
  insert into webhook_attempts (delivery_id, attempt, at) select id, attempts, $1 from claimed)`;

/**
 * Claims due rows under a lease (`FOR UPDATE SKIP LOCKED`: concurrent claimers never share one), at most
 * `perEndpoint` in flight per endpoint counting what this process already has (`busy`), and none of an
 * endpoint whose circuit is open or probing. Rows of endpoints already at their cap are passed over
 * unlocked.
 */
export async function claimDue(
  pool: Pick<Pool, 'query'>,
  opts: {
    now: Date;
    leaseMs: number;
    limit: number;
    perEndpoint: number;
    busy: Busy[];
    /** Only rows due after this (a recent claim); every due row when absent. */
    dueAfter?: Date;
  },
): Promise<ClaimedDelivery[]> {
  const { now, limit, perEndpoint, busy } = opts;
  // Ordered by next_attempt_at alone, so that the index gives the order and the scan stops at the limit
  // (rows due at the same moment come in the order they were written, one event's rows side by side).
  // Endpoints at their cap are left out with a hashed NOT IN: their rows are passed over at the cost
  // of reading them, which a recent claim bounds to the last moments (dispatcher.ts).
  const { rows } = await pool.query<ClaimedDelivery>(
    `with busy as (
       select * from unnest($4::uuid[], $5::text[], $6::int[]) as b(account_id, target, in_flight)),
     due as (
       select d.id, d.account_id, d.target, d.next_attempt_at
         from webhook_deliveries d
        where d.status in ('pending', 'failed') and d.next_attempt_at <= $1 and d.next_attempt_at > $8
          and (d.claimed_until is null or d.claimed_until <= $1)
          and not exists (select 1 from webhook_endpoint_circuits c
                           where c.account_id = d.account_id and c.url = d.target and c.open_until is not null)
          and (d.account_id, d.target) not in (select b.account_id, b.target from busy b where b.in_flight >= $7)
        order by d.next_attempt_at
        limit $2
        for update of d skip locked),
     -- Rows past an endpoint's cap stay for a later round (one with a backlog is then at its cap, and
     -- excluded above).
     ranked as (
       select due.id,
              row_number() over (partition by due.account_id, due.target order by due.next_attempt_at)
                + coalesce(b.in_flight, 0) as slot
         from due left join busy b on b.account_id = due.account_id and b.target = due.target),
     chosen as (select id from ranked where slot <= $7),
     ${CLAIMED}
     select claimed.*, false as probe from claimed`,
    [
      now,
      limit,
      new Date(now.getTime() + opts.leaseMs),
      busy.map((b) => b.accountId),
      busy.map((b) => b.target),
      busy.map((b) => b.inFlight),
      perEndpoint,
      opts.dueAfter ?? '-infinity',
    ],
  );
  return rows;
}

/**
 * One probe per parked endpoint whose pause is over and that has a row due: the circuit is marked as
 * probing until the probe's lease ends (so no other process probes it, and a prober that dies is
 * replaced once the lease has passed). Endpoints parked long ago with nothing left to send are
 * forgotten: their next row goes as any other, and five failures park them again.
 */
export async function claimProbes(
  pool: Pick<Pool, 'query'>,
  opts: { now: Date; leaseMs: number; limit: number; forgetAfterMs: number },
): Promise<ClaimedDelivery[]> {
  const { now } = opts;
  const { rows } = await pool.query<ClaimedDelivery>(
    `with ready as (
       select c.account_id, c.url from webhook_endpoint_circuits c
        where c.open_until <= $1
          and exists (select 1 from webhook_deliveries d
                       where d.account_id = c.account_id and d.target = c.url and d.kind = 'webhook'
                         and d.status in ('pending', 'failed') and d.next_attempt_at <= $1)
        order by c.open_until
        limit $2
        for update of c skip locked),
     chosen as (
       select p.id, r.account_id, r.url from ready r
       cross join lateral (
         select d.id from webhook_deliveries d
          where d.account_id = r.account_id and d.target = r.url and d.kind = 'webhook'
            and d.status in ('pending', 'failed') and d.next_attempt_at <= $1
            and (d.claimed_until is null or d.claimed_until <= $1)
          order by d.next_attempt_at
          limit 1
          for update of d skip locked) p),
     probing as (
       update webhook_endpoint_circuits c set open_until = $3, probing = true
         from chosen where c.account_id = chosen.account_id and c.url = chosen.url),
     forgotten as (
       delete from webhook_endpoint_circuits c
        where c.open_until <= $1::timestamptz - $4::int * interval '1 millisecond'
          and not exists (select 1 from webhook_deliveries d
                           where d.account_id = c.account_id and d.target = c.url
                             and d.status in ('pending', 'failed'))),
     ${CLAIMED}
     select claimed.*, true as probe from claimed`,
    [now, opts.limit, new Date(now.getTime() + opts.leaseMs), opts.forgetAfterMs],
  );
  return rows;
}
