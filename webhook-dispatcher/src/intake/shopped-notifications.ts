import type { PoolClient } from '@mrn/platform';
import { insertDeliveries } from './outbox.ts';
import { merchantUrl, type WebhookPayload } from './payload.ts';
import type { ShoppedAlert } from './shopped-alerts.ts';

/**
 * The being-shopped alerts an event or a look-up judged (shopped-alerts.ts), each to its watcher alone: a
 * signed webhook (unless its endpoint filtered the type out) and an e-mail, as of `e` (its time).
 */
export async function sendShoppedAlerts(
  tx: PoolClient,
  alerts: readonly ShoppedAlert[],
  e: { recordedAt: Date },
  ctx: { publicUrl: string; now: Date },
): Promise<number> {
  let written = 0;
  for (const a of alerts) {
    const payload: WebhookPayload = {
      type: 'merchant.shopped',
      timestamp: e.recordedAt.toISOString(),
      data: {
        merchant_ein: a.fein,
        merchant_name: a.name,
        action: 'Being Shopped',
        threshold: a.threshold,
        other_funders_last_7_days: a.last7,
        other_funders_last_30_days: a.last30,
        other_funders_last_90_days: a.last90,
        merchant_url: merchantUrl(ctx, a.merchantId),
      },
    };
    written += await insertDeliveries(tx, { id: a.key }, ctx, {
      fein: a.fein,
      actor: null,
      payload,
      only: a.accountId,
    });
  }
  return written;
}
