import { type Logger, type PoolClient, type Queryable, readCheckpoint, START } from '@mrn/platform';
import { CHECKPOINT_NAME } from '../checkpoint.ts';
import { closeCircuits, type Endpoint, type EndpointFailures } from './circuit-breaker.ts';

/** An endpoint failing this long with no success in between is disabled and its admins told. */
export const DISABLE_AFTER_MS = 5 * 86_400_000;

// An endpoint's health over days (webhook_endpoint_health and
// webhook_endpoints_disabled), beside its circuit breaker over seconds (circuit-breaker.ts): failing
// since when, disabled after 5 days of failures, resumed when its account saves the URL again.

/**
 * An endpoint failing for 5 days (first failure at least that long ago, no success since) is disabled:
 * its pending rows are dead-lettered and the account's admins are e-mailed (through the outbox).
 */
export async function disableLongFailing(
  tx: PoolClient,
  endpoints: EndpointFailures[],
  now: Date,
  logger: Logger,
): Promise<number> {
  const { rows } = await tx.query<{ account_id: string; url: string; failing_since: Date }>(
    `select h.account_id, h.url, h.failing_since from webhook_endpoint_health h
       join unnest($1::uuid[], $2::text[]) as e(account_id, url) on h.account_id = e.account_id and h.url = e.url
      where h.failing_since <= $3`,
    [
      endpoints.map((e) => e.accountId),
      endpoints.map((e) => e.url),
      new Date(now.getTime() - DISABLE_AFTER_MS),
    ],
  );
  let disabled = 0;
  const checkpoint = rows.length > 0 ? await readCheckpoint(tx, CHECKPOINT_NAME) : START;
  const position = checkpoint === START ? null : checkpoint;
  for (const r of rows) {
    // The log position it was disabled at: only a save of its URL read after it resumes it
    // (intake/enqueue.ts, AccountUpdated and AccountWebhookEndpointSaved).
    const inserted = await tx.query(
      `insert into webhook_endpoints_disabled (account_id, url, disabled_at, disabled_position)
       values ($1, $2, $3, $4)
       on conflict do nothing`,
      [r.account_id, r.url, now, position],
    );
    if (inserted.rowCount === 0) continue;
    disabled++;
    await tx.query('delete from webhook_endpoint_circuits where account_id = $1 and url = $2', [
      r.account_id,
      r.url,
    ]);
    await tx.query(
      `update webhook_deliveries set status = 'dead', next_attempt_at = null, claimed_until = null,
              last_error = 'endpoint disabled after failing for 5 days', finished_at = $3
        where account_id = $1 and target = $2 and kind = 'webhook' and status in ('pending', 'failed')`,
      [r.account_id, r.url, now],
    );
    const subject = 'Your merchant subscription webhook has been disabled';
    const text = [
      `Deliveries to your webhook endpoint ${r.url} have failed since ${r.failing_since.toISOString()}.`,
      'It has been disabled and no further webhooks will be sent to it.',
      'Fix the endpoint and save its URL again (or a new one) in your account settings to resume deliveries.',
    ].join('\n');
    await tx.query(
      `insert into webhook_deliveries
         (webhook_id, account_id, event_id, kind, target, payload, status, attempts, next_attempt_at, created_at)
       select 'msg_' || replace(gen_random_uuid()::text, '-', ''), $1, null, 'email', u.email, $2::jsonb,
              'pending', 0, $3, $3
         from read.users u
        where u.account_id = $1 and u.is_admin and u.archived_at is null`,
      [r.account_id, JSON.stringify({ subject, text }), now],
    );
    logger.warn({ accountId: r.account_id, url: r.url, since: r.failing_since }, 'webhook endpoint disabled');
  }
  return disabled;
}

/**
 * The account saved this webhook URL (again): what the dispatcher held against it ends. Disabled after
 * 5 days of failures (the e-mail says saving the URL resumes deliveries), its run of failures (the
 * 5 days count from the next failure) and its circuit. A disable recorded after the event (the log read
 * again from the start) stands.
 */
export async function resumeEndpoint(
  tx: Queryable,
  e: Endpoint,
  opts: { now: Date; position: string },
): Promise<void> {
  const later = await tx.query(
    `select 1 from webhook_endpoints_disabled
      where account_id = $1 and url = $2 and disabled_position collate "C" >= $3`,
    [e.accountId, e.url, opts.position],
  );
  if ((later.rowCount ?? 0) > 0) return;
  await tx.query('delete from webhook_endpoints_disabled where account_id = $1 and url = $2', [
    e.accountId,
    e.url,
  ]);
  await tx.query('delete from webhook_endpoint_health where account_id = $1 and url = $2', [
    e.accountId,
    e.url,
  ]);
  await closeCircuits(tx, [e], opts.now);
}
