import type { PoolClient, RecordedEvent } from '@mrn/platform';
import { type Folded, insertDeliveries } from './outbox.ts';
import {
  emailText,
  merchantUrl,
  type NotificationData,
  TYPE_OF_ACTION,
  type WebhookPayload,
} from './payload.ts';

// A merchant or a note added or changed, told to the merchant's watchers (accounts spec §3).

/** What changed, on which merchant, by whom. */
export interface Notice {
  fein: string;
  merchantId: string;
  actor: string | null;
  action: NotificationData['action'];
  category: string | null;
  note: string | null;
}

/** The funder that acted: the account on whose behalf a platform administrator acted, else the actor's. */
export const actingAccount = (e: RecordedEvent): string | null =>
  e.metadata.onBehalfOfAccountId ?? e.metadata.actorAccountId ?? null;

/** The notification for `n`, as of event `e`; null when the merchant is not known. */
async function notificationOf(
  tx: PoolClient,
  e: RecordedEvent,
  ctx: { publicUrl: string },
  n: Notice,
): Promise<WebhookPayload | null> {
  const { rows } = await tx.query<{ name: string; actor_name: string | null }>(
    `select m.name, (select a.name from webhook_accounts a where a.account_id = $2) as actor_name
       from webhook_merchants m where m.merchant_id = $1`,
    [n.merchantId, n.actor],
  );
  const merchant = rows[0];
  if (!merchant) return null;
  return {
    type: TYPE_OF_ACTION[n.action],
    timestamp: e.recordedAt.toISOString(),
    data: {
      merchant_ein: n.fein,
      merchant_name: merchant.name,
      action: n.action,
      note_category: n.category,
      note: n.note,
      merchant_url: merchantUrl(ctx, n.merchantId),
      action_performed_by: merchant.actor_name ?? '',
    },
  };
}

/**
 * A merchant added with its first note (one request) tells each watcher once: the note goes into the
 * Merchant Added rows not yet sent. Returns the rows it went into; a row already on its way (the two
 * events read in different batches) gets its own Note Added instead.
 */
export async function foldIntoMerchantAdded(
  tx: PoolClient,
  e: RecordedEvent,
  ctx: { publicUrl: string },
  note: Notice,
  merchantAddedEventId: string,
): Promise<Folded[]> {
  const payload = await notificationOf(tx, e, ctx, { ...note, action: 'Merchant Added' });
  if (!payload) return [];
  const { rows } = await tx.query<Folded>(
    `update webhook_deliveries
        set payload = case kind when 'webhook' then $2::jsonb else $3::jsonb end
      where event_id = $1 and status = 'pending' and attempts = 0 and claimed_until is null
      returning account_id, kind`,
    [
      merchantAddedEventId,
      JSON.stringify(payload),
      JSON.stringify({ ...emailText(payload), notification: payload }),
    ],
  );
  return rows;
}

/** The notification for `n`, to every watcher of the merchant but the acting funder (and those in `skip`). */
export async function notifyWatchers(
  tx: PoolClient,
  e: RecordedEvent,
  ctx: { publicUrl: string; now: Date },
  n: Notice,
  skip: readonly Folded[] = [],
): Promise<number> {
  const payload = await notificationOf(tx, e, ctx, n);
  if (!payload) return 0;
  return insertDeliveries(tx, e, ctx, { fein: n.fein, actor: n.actor, payload, skip });
}
