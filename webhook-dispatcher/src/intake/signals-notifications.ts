import type { PoolClient, RecordedEvent } from '@mrn/platform';
import { insertDeliveries } from './outbox.ts';
import { merchantUrl, type WebhookPayload } from './payload.ts';
import type { SignalsChangedNotice } from './signals-changed.ts';

/** A note's change of a watched merchant's risk signals (signals-changed.ts), to every watcher but its funder. */
export async function sendSignalsChanged(
  tx: PoolClient,
  n: SignalsChangedNotice,
  e: RecordedEvent,
  ctx: { publicUrl: string; now: Date },
  merchantId: string,
): Promise<number> {
  const { rows } = await tx.query<{ name: string }>(
    'select name from webhook_merchants where merchant_id = $1',
    [merchantId],
  );
  if (!rows[0]) return 0;
  const payload: WebhookPayload = {
    type: 'merchant.signals_changed',
    timestamp: e.recordedAt.toISOString(),
    data: { ...n.data, merchant_name: rows[0].name, merchant_url: merchantUrl(ctx, merchantId) },
  };
  return insertDeliveries(tx, { id: n.key }, ctx, { fein: n.data.merchant_ein, actor: n.owner, payload });
}
