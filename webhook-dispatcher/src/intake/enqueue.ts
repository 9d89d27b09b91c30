import { alertSettingsOf, parseTypedEvent } from '@mrn/contracts';
import type { PoolClient, Position, RecordedEvent } from '@mrn/platform';
import { resumeEndpoint } from '../endpoints/endpoint-health.ts';
import { newWebhookSecret } from '../signing/signing.ts';
import {
  actingAccount,
  foldIntoMerchantAdded,
  type Notice,
  notifyWatchers,
} from './merchant-notifications.ts';
import { judgeThresholdChange, recordWatches } from './shopped-alerts.ts';
import { sendShoppedAlerts } from './shopped-notifications.ts';
import { type StreamReader, signalsChangedBy } from './signals-changed.ts';
import { sendSignalsChanged } from './signals-notifications.ts';

// The dispatcher's intake, event by event: its own state (accounts, watched EINs, merchants) and the
// notifications each event makes (merchant-notifications.ts, shopped-notifications.ts,
// signals-notifications.ts), all written to the outbox (outbox.ts) in the intake's transaction.

/** Never sent to another funder: reserved for platform administrators (DESIGN §5). */
const PLATFORM_ONLY_CATEGORY = 'Merchant Dispute';

/**
 * Event types the dispatcher reads; every other event only moves its checkpoint. No search: the look-ups
 * of watched merchants come from projections' feed (watched-lookups.ts, issue 31).
 */
export const HANDLED_TYPES = new Set([
  'AccountOpened',
  'AccountUpdated',
  'AccountWebhookEndpointSaved',
  'AccountArchived',
  'AccountMembershipStarted',
  'AccountPlanChanged',
  'AccountMembershipCanceled',
  'AccountMembershipReinstated',
  'MerchantSubscriptionsAdded',
  'MerchantSubscriptionsRemoved',
  'MerchantAdded',
  'MerchantUpdated',
  'NoteAdded',
  'NoteUpdated',
]);

/** Event types that may judge a being-shopped alert (shopped-alerts.ts): a threshold saved, a watch started. */
export const SHOPPED_TYPES = new Set(['AccountUpdated', 'MerchantSubscriptionsAdded']);

/** What an event is applied with: the payloads' base URL, the time, and the being-shopped judgements' lock. */
export interface ApplyContext {
  publicUrl: string;
  now: Date;
  /**
   * Takes the being-shopped judgements' lock (once per transaction) and gives the feed's look-ups judged
   * so far (shopped-alerts.ts, `judgedLookups`).
   */
  judgedLookups(): Promise<Position>;
  /** A stream from its start (the event store): a watched merchant's notes around a note event. */
  readStream: StreamReader;
}

/**
 * Applies one event inside the dispatcher's batch transaction: keeps its copies of accounts, watched
 * EINs and merchants, and for a merchant change writes one outbox row per watching account and channel.
 * Runs in the same transaction as the checkpoint: each event is enqueued exactly once.
 */
export async function applyEvent(tx: PoolClient, raw: RecordedEvent, ctx: ApplyContext): Promise<number> {
  if (!HANDLED_TYPES.has(raw.type)) return 0;
  const e = parseTypedEvent(raw);
  switch (e.type) {
    case 'AccountOpened': {
      const d = e.data;
      await tx.query(
        `insert into webhook_accounts (account_id, name, plan_level) values ($1, $2, $3)
         on conflict (account_id) do update set name = excluded.name, plan_level = excluded.plan_level`,
        [d.accountId, d.name, d.planLevel],
      );
      // Its signing secret, made on sight: its admins see it on the account before any webhook is sent.
      await tx.query(
        `insert into webhook_secrets (account_id, secret, created_at) values ($1, $2, $3)
         on conflict (account_id) do nothing`,
        [d.accountId, newWebhookSecret(), raw.recordedAt],
      );
      return 0;
    }
    case 'AccountMembershipStarted':
    case 'AccountMembershipReinstated':
    case 'AccountPlanChanged': {
      const d = e.data;
      // A membership (re)started is no longer canceled; a plan change leaves that as it was.
      await tx.query(
        `update webhook_accounts set plan_level = $2,
           membership_canceled = membership_canceled and $3::text = 'AccountPlanChanged'
         where account_id = $1`,
        [d.accountId, d.planLevel, e.type],
      );
      return 0;
    }
    case 'AccountMembershipCanceled': {
      const d = e.data;
      await tx.query('update webhook_accounts set membership_canceled = true where account_id = $1', [
        d.accountId,
      ]);
      return 0;
    }
    case 'AccountUpdated': {
      const d = e.data;
      const threshold = alertSettingsOf(d).shoppedAlertThreshold;
      // The threshold it had: a new account had none (it watched nothing).
      const { rows } = await tx.query<{ threshold_before: number | null }>(
        `with before as (select shopped_threshold from webhook_accounts where account_id = $1)
         insert into webhook_accounts (account_id, name, enabled, email, webhook_url, shopped_threshold, webhook_event_types)
         values ($1, $2, $3, $4, $5, $6, $7)
         on conflict (account_id) do update set name = excluded.name, enabled = excluded.enabled,
           email = excluded.email, webhook_url = excluded.webhook_url, shopped_threshold = excluded.shopped_threshold,
           webhook_event_types = excluded.webhook_event_types
         returning (select shopped_threshold from before) as threshold_before`,
        [
          d.accountId,
          d.name,
          d.merchantSubscriptionEnabled,
          d.merchantSubscriptionNotificationEmail || null,
          d.merchantSubscriptionNotificationWebhook || null,
          threshold,
          alertSettingsOf(d).webhookEventTypes,
        ],
      );
      // Saving the webhook URL (again, or a new one) is what the disabling e-mail asks for to resume it.
      // The event cannot tell a save of the URL from a save of the rest of the form: any save resumes it.
      if (d.merchantSubscriptionNotificationWebhook) {
        await resumeEndpoint(
          tx,
          { accountId: d.accountId, url: d.merchantSubscriptionNotificationWebhook },
          { now: ctx.now, position: raw.position },
        );
      }
      // After the settings are saved: the alert goes to the endpoint and types just saved.
      const alerts = await judgeThresholdChange(
        tx,
        raw,
        { accountId: d.accountId, before: rows[0]!.threshold_before, after: threshold },
        ctx.judgedLookups,
      );
      return sendShoppedAlerts(tx, alerts, raw, ctx);
    }
    case 'AccountWebhookEndpointSaved': {
      const d = e.data;
      await resumeEndpoint(
        tx,
        { accountId: d.accountId, url: d.url },
        { now: ctx.now, position: raw.position },
      );
      return 0;
    }
    case 'AccountArchived': {
      const d = e.data;
      await tx.query('update webhook_accounts set archived = true where account_id = $1', [d.accountId]);
      return 0;
    }
    case 'MerchantSubscriptionsAdded': {
      const d = e.data;
      // Recorded again for a watched EIN only to change its end (a search made it longer, or a person
      // subscribed it for good: no end). An event past `watch_until` notifies no one (enqueue). A watch
      // that starts is judged for being shopped (shopped-alerts.ts).
      return sendShoppedAlerts(tx, await recordWatches(tx, raw, d, ctx.judgedLookups), raw, ctx);
    }
    case 'MerchantSubscriptionsRemoved': {
      const d = e.data;
      await tx.query('delete from webhook_watches where account_id = $1 and fein = any($2::text[])', [
        d.accountId,
        d.feins,
      ]);
      return 0;
    }
    case 'MerchantAdded':
    case 'MerchantUpdated': {
      const d = e.data;
      const name = d.dba ? `${d.legalName} (${d.dba})` : d.legalName;
      const added = e.type === 'MerchantAdded';
      await tx.query(
        added
          ? `insert into webhook_merchants (merchant_id, fein, name, added_event_id, added_correlation)
             values ($1, $2, $3, $4, $5)
             on conflict (merchant_id) do update set fein = excluded.fein, name = excluded.name,
               added_event_id = excluded.added_event_id, added_correlation = excluded.added_correlation`
          : `insert into webhook_merchants (merchant_id, fein, name) values ($1, $2, $3)
             on conflict (merchant_id) do update set fein = excluded.fein, name = excluded.name`,
        added
          ? [d.merchantId, d.fein, name, e.id, e.metadata.correlationId ?? null]
          : [d.merchantId, d.fein, name],
      );
      return notifyWatchers(tx, e, ctx, {
        fein: d.fein,
        merchantId: d.merchantId,
        actor: e.type === 'MerchantAdded' ? e.data.accountId : actingAccount(e),
        action: added ? 'Merchant Added' : 'Merchant Updated',
        category: null,
        note: null,
      });
    }
    case 'NoteAdded':
    case 'NoteUpdated': {
      const d = e.data;
      if (d.category === PLATFORM_ONLY_CATEGORY) return 0;
      const { rows } = await tx.query<{
        fein: string;
        added_event_id: string | null;
        added_correlation: string | null;
      }>('select fein, added_event_id, added_correlation from webhook_merchants where merchant_id = $1', [
        d.merchantId,
      ]);
      const merchant = rows[0];
      if (!merchant) return 0;
      const added = e.type === 'NoteAdded';
      const notice: Notice = {
        fein: merchant.fein,
        merchantId: d.merchantId,
        actor: e.type === 'NoteAdded' ? e.data.accountId : actingAccount(e),
        action: added ? 'Note Added' : 'Note Updated',
        category: d.category,
        note: d.note,
      };
      const sameRequest =
        added &&
        merchant.added_event_id !== null &&
        merchant.added_correlation !== null &&
        merchant.added_correlation === e.metadata.correlationId;
      const folded = sameRequest
        ? await foldIntoMerchantAdded(tx, e, ctx, notice, merchant.added_event_id!)
        : [];
      const written = await notifyWatchers(tx, e, ctx, notice, folded);
      const changed = await signalsChangedBy(ctx.readStream, e, raw, merchant.fein);
      return written + (changed ? await sendSignalsChanged(tx, changed, raw, ctx, d.merchantId) : 0);
    }
    default:
      return 0;
  }
}
