import type { PoolClient } from '@mrn/platform';
import { emailText, type WebhookPayload } from './payload.ts';

/** A watcher's channel already told in a row of another event (a note folded into Merchant Added). */
export interface Folded {
  account_id: string;
  kind: 'webhook' | 'email';
}

/**
 * The outbox rows of one notification: a webhook row and an e-mail row per watching account and channel
 * (see the statement), in the intake's transaction. Returns how many were written.
 */
export async function insertDeliveries(
  tx: PoolClient,
  e: { id: string },
  ctx: { now: Date },
  d: { fein: string; actor: string | null; payload: WebhookPayload; skip?: readonly Folded[]; only?: string },
): Promise<number> {
  const { payload, skip = [] } = d;
  const mail = emailText(payload);
  // One statement: a webhook row and an e-mail row per watching account (the acting funder excluded;
  // `only`: that account alone), each only where the account has that channel configured (and the
  // endpoint is not disabled, and takes this event type), the account is on PRO with its membership
  // running, and the row was not folded into another. A row for an endpoint whose circuit is open waits
  // for the end of its pause (endpoints/circuit-breaker.ts).
  const result = await tx.query(
    `insert into webhook_deliveries
       (webhook_id, account_id, event_id, kind, target, payload, status, attempts, next_attempt_at, created_at)
     select 'msg_' || replace(gen_random_uuid()::text, '-', ''), a.account_id, $2, c.kind, c.target,
            case c.kind when 'webhook' then $4::jsonb else $5::jsonb end, 'pending', 0,
            greatest($6::timestamptz, circuit.open_until), $6
       from webhook_watches w
       join webhook_accounts a on a.account_id = w.account_id
       cross join lateral (values ('webhook', a.webhook_url), ('email', a.email)) as c(kind, target)
       left join webhook_endpoint_circuits circuit
         on c.kind = 'webhook' and circuit.account_id = a.account_id and circuit.url = c.target
      where w.fein = $1 and a.account_id::text is distinct from $3::text and a.enabled and not a.archived and (w.watch_until is null or w.watch_until > ($4::jsonb ->> 'timestamp')::timestamptz)
        and a.plan_level = 'PRO' and not a.membership_canceled
        and c.target is not null
        and not (c.kind = 'webhook' and exists (
          select 1 from webhook_endpoints_disabled d where d.account_id = a.account_id and d.url = c.target))
        and not (c.kind = 'webhook' and a.webhook_event_types is not null
                 and not ($4::jsonb ->> 'type') = any(a.webhook_event_types))
        and ($9::uuid is null or a.account_id = $9::uuid)
        and not exists (
          select 1 from unnest($7::uuid[], $8::text[]) as f(account_id, kind)
           where f.account_id = a.account_id and f.kind = c.kind)
     on conflict do nothing`,
    [
      d.fein,
      e.id,
      d.actor,
      JSON.stringify(payload),
      JSON.stringify({ ...mail, notification: payload }),
      ctx.now,
      skip.map((f) => f.account_id),
      skip.map((f) => f.kind),
      d.only ?? null,
    ],
  );
  return result.rowCount ?? 0;
}
