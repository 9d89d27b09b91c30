import type { Pool } from '@mrn/platform';

type Queryable = Pick<Pool, 'query'>;

/** One webhook delivery as the Webhook Logs tab shows it (the `WebhookDeliveryView` of the contracts). */
export interface DeliveryLogEntry {
  id: string;
  created_at: string;
  ein: string;
  action: string;
  /** The payload's event type (merchant.note_added, merchant.shopped…). */
  type: string;
  status: string;
  attempts: number;
  http_status: number | null;
  /** Time the last attempt took. */
  duration_ms: number | null;
  next_retry: string | null;
}

/**
 * What became of an attempt. An attempt is logged when it starts (its row's claim), so one whose
 * dispatcher died before it could write the answer stays in the log: in flight while the row's lease
 * runs, interrupted once it has passed (the receiver may or may not have got it; the next attempt
 * carries the same `webhook-id`).
 */
export type AttemptOutcome = 'succeeded' | 'failed' | 'in_flight' | 'interrupted';

/** Shown for an attempt whose answer was never recorded. */
export const INTERRUPTED_ERROR = 'interrupted: no answer recorded';

/** One attempt of a delivery, as the log's details show it. */
export interface DeliveryAttempt {
  attempt: number;
  at: string;
  outcome: AttemptOutcome;
  http_status: number | null;
  /** Null when the attempt's end is not known (in flight or interrupted). */
  duration_ms: number | null;
  /** The first KB of the endpoint's answer. */
  response_body: string | null;
  error: string | null;
  succeeded: boolean;
}

/** Rows shown in the log: the newest 200. */
export const DELIVERY_LOG_LIMIT = 200;

interface DeliveryRow {
  id: string;
  created_at: Date;
  ein: string | null;
  action: string | null;
  type: string | null;
  status: string;
  attempts: number;
  http_status: number | null;
  duration_ms: number | null;
  next_attempt_at: Date | null;
}

const SELECT = `select d.id, d.created_at, d.payload #>> '{data,merchant_ein}' as ein,
       d.payload #>> '{data,action}' as action, d.payload ->> 'type' as type, d.status, d.attempts, d.next_attempt_at,
       last.http_status, last.duration_ms
  from webhook_deliveries d
  left join lateral (select a.http_status, a.duration_ms from webhook_attempts a where a.delivery_id = d.id
                      order by a.attempt desc limit 1) as last on true`;

const entryOf = (r: DeliveryRow): DeliveryLogEntry => ({
  id: r.id,
  created_at: r.created_at.toISOString(),
  ein: (r.ein ?? '').replace(/\D/g, ''),
  action: r.action ?? '',
  type: r.type ?? '',
  status: r.status,
  attempts: r.attempts,
  http_status: r.http_status,
  duration_ms: r.duration_ms,
  next_retry: r.status === 'failed' && r.next_attempt_at ? r.next_attempt_at.toISOString() : null,
});

/**
 * The account's webhook deliveries, newest first. The dispatcher owns these tables; the query side
 * reads them only through this function, so the log's shape lives in one place.
 */
export async function deliveryLog(pool: Queryable, accountId: string): Promise<DeliveryLogEntry[]> {
  const { rows } = await pool.query<DeliveryRow>(
    `${SELECT}
      where d.account_id = $1 and d.kind = 'webhook'
      order by d.created_at desc, d.id
      limit ${DELIVERY_LOG_LIMIT}`,
    [accountId],
  );
  return rows.map(entryOf);
}

/** One delivery of the account's with every attempt, oldest first; null when there is none such. */
export async function deliveryWithAttempts(
  pool: Queryable,
  accountId: string,
  deliveryId: string,
): Promise<(DeliveryLogEntry & { payload: unknown; attempts_log: DeliveryAttempt[] }) | null> {
  const { rows } = await pool.query<DeliveryRow & { payload: unknown }>(
    `${SELECT.replace('select d.id,', 'select d.payload, d.id,')} where d.id = $2 and d.account_id = $1 and d.kind = 'webhook'`,
    [accountId, deliveryId],
  );
  if (!rows[0]) return null;
  // The row's latest attempt is in flight while the row is claimed; any other without an answer was cut off.
  const attempts = await pool.query<{
    attempt: number;
    at: Date;
    http_status: number | null;
    duration_ms: number | null;
    response_body: string | null;
    error: string | null;
    succeeded: boolean | null;
    in_flight: boolean;
  }>(
    `select a.attempt, a.at, a.http_status, a.duration_ms, a.response_body, a.error, a.succeeded,
            (a.attempt = d.attempts and d.claimed_until > now()) as in_flight
       from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id
      where a.delivery_id = $1 order by a.attempt`,
    [deliveryId],
  );
  return {
    ...entryOf(rows[0]),
    // The JSON body as sent (what a receiver verifies), for the log's details.
    payload: rows[0].payload,
    attempts_log: attempts.rows.map(attemptOf),
  };
}

function attemptOf(a: {
  attempt: number;
  at: Date;
  http_status: number | null;
  duration_ms: number | null;
  response_body: string | null;
  error: string | null;
  succeeded: boolean | null;
  in_flight: boolean;
}): DeliveryAttempt {
  const outcome: AttemptOutcome =
    a.succeeded === true
      ? 'succeeded'
      : a.succeeded === false
        ? 'failed'
        : a.in_flight
          ? 'in_flight'
          : 'interrupted';
  return {
    attempt: a.attempt,
    at: a.at.toISOString(),
    outcome,
    http_status: a.http_status,
    duration_ms: a.duration_ms,
    response_body: a.response_body,
    error: outcome === 'interrupted' ? (a.error ?? INTERRUPTED_ERROR) : a.error,
    succeeded: outcome === 'succeeded',
  };
}

export type RedeliveryOutcome =
  | { ok: true; entry: DeliveryLogEntry }
  | { ok: false; reason: 'not_found' | 'in_progress' | 'no_webhook' };

/**
 * Redeliver (a log row's action): one more attempt now, to the account's webhook address as it is now,
 * with the same `webhook-id` so a receiver that already has it can tell. A row already waiting for its
 * attempt or in flight is left alone: two clicks at once queue one attempt (the update re-checks the
 * status under the row lock). A row that fails again carries on with the schedule from its attempt count.
 */
export async function redeliver(
  pool: Queryable,
  accountId: string,
  deliveryId: string,
  now: Date,
): Promise<RedeliveryOutcome> {
  const { rows } = await pool.query<{ id: string }>(
    `update webhook_deliveries d
        set status = 'pending', next_attempt_at = $3, finished_at = null, last_error = null,
            target = a.webhook_url
       from webhook_accounts a
      where d.id = $2 and d.account_id = $1 and d.kind = 'webhook' and a.account_id = d.account_id
        and a.webhook_url is not null
        and d.status in ('succeeded', 'failed', 'dead')
        and (d.claimed_until is null or d.claimed_until <= $3)
      returning d.id`,
    [accountId, deliveryId, now],
  );
  if (rows.length === 0) {
    const found = await pool.query<{ status: string; webhook_url: string | null }>(
      `select d.status, a.webhook_url from webhook_deliveries d
         left join webhook_accounts a on a.account_id = d.account_id
        where d.id = $2 and d.account_id = $1 and d.kind = 'webhook'`,
      [accountId, deliveryId],
    );
    const row = found.rows[0];
    if (!row) return { ok: false, reason: 'not_found' };
    return { ok: false, reason: row.webhook_url === null ? 'no_webhook' : 'in_progress' };
  }
  const entry = await pool.query<DeliveryRow>(`${SELECT} where d.id = $1`, [deliveryId]);
  return { ok: true, entry: entryOf(entry.rows[0]!) };
}
