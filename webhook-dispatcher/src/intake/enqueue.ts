import {
  alertSettingsOf,
  formatEin,
  parseTypedEvent,
  type ShoppedWebhookData,
  type SignalsChangedWebhookData,
} from '@mrn/contracts';
import type { PoolClient, Position, RecordedEvent } from '@mrn/platform';
import { resumeEndpoint } from '../endpoints/endpoint-health.ts';
import { newWebhookSecret } from '../signing/signing.ts';
import { judgeThresholdChange, recordWatches, type ShoppedAlert } from './shopped-alerts.ts';
import { type SignalsChangedNotice, type StreamReader, signalsChangedBy } from './signals-changed.ts';

/** What a subscriber is told (accounts spec §3), as the `data` of a Standard Webhooks payload. */
export interface NotificationData {
  merchant_ein: string;
  merchant_name: string;
  action: 'Note Added' | 'Note Updated' | 'Merchant Updated' | 'Merchant Added';
  note_category: string | null;
  note: string | null;
  merchant_url: string;
  action_performed_by: string;
}

/** A watched merchant is being shopped (issue 24): the shape is the contracts' (the guide shows it). */
export type ShoppedData = ShoppedWebhookData;

export interface WebhookPayload {
  type: string;
  timestamp: string;
  data: NotificationData | ShoppedData | SignalsChangedWebhookData;
}

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

const TYPE_OF_ACTION: Record<NotificationData['action'], string> = {
  'Merchant Added': 'merchant.added',
  'Merchant Updated': 'merchant.updated',
  'Note Added': 'merchant.note_added',
  'Note Updated': 'merchant.note_updated',
};

/** The funder that acted: the account on whose behalf a platform administrator acted, else the actor's. */
const actingAccount = (e: RecordedEvent): string | null =>
  e.metadata.onBehalfOfAccountId ?? e.metadata.actorAccountId ?? null;

/**
 * The notification e-mail. People read it, so the EIN is written as the app shows it (12-3456789); the
 * webhook's JSON keeps the documented 9 digits (`merchant_ein`), which programs compare.
 */
export function emailText(p: WebhookPayload): { subject: string; text: string } {
  const d = p.data;
  const ein = formatEin(d.merchant_ein);
  if (d.action === 'Signals Changed') {
    const lines = [
      `Another funder's note changed the risk signals of a merchant you watch.`,
      '',
      `Merchant EIN: ${ein}`,
      `Merchant Name: ${d.merchant_name}`,
    ];
    if (d.new_categories.length > 0) lines.push(`New categories: ${d.new_categories.join(', ')}`);
    lines.push(`Funders reporting it: ${d.before.funders} before, ${d.after.funders} now`);
    for (const c of d.after.categories)
      lines.push(
        `${c.label}: ${c.last_90_days} in the last 90 days, ${c.last_12_months} in 12 months, ${c.ever} ever`,
      );
    if (d.after.cured_at) lines.push(`Default cured (Default Satisfied) on ${d.after.cured_at.slice(0, 10)}`);
    lines.push(
      `Merchant URL: ${d.merchant_url}`,
      '',
      'Counts only: the network never names the funders. You are not told of your own notes.',
    );
    return { subject: `Risk signals changed: ${d.merchant_name} (EIN ${ein})`, text: lines.join('\n') };
  }
  if (d.action === 'Being Shopped') {
    const lines = [
      `${d.other_funders_last_7_days} other funders looked up a merchant you watch in the last 7 days: it may be shopping for several advances at once.`,
      '',
      `Merchant EIN: ${ein}`,
      `Merchant Name: ${d.merchant_name}`,
      `Other funders, last 7 days: ${d.other_funders_last_7_days} (your alert threshold: ${d.threshold})`,
      `Other funders, last 30 days: ${d.other_funders_last_30_days}`,
      `Other funders, last 90 days: ${d.other_funders_last_90_days}`,
      `Merchant URL: ${d.merchant_url}`,
      '',
      'Counts only: the network never names the funders. Change the threshold or turn these alerts off in your Account settings.',
    ];
    return { subject: `Being shopped: ${d.merchant_name} (EIN ${ein})`, text: lines.join('\n') };
  }
  const lines = [
    `${d.action} on a merchant you watch.`,
    '',
    `Merchant EIN: ${ein}`,
    `Merchant Name: ${d.merchant_name}`,
    `Action: ${d.action}`,
  ];
  if (d.note_category) lines.push(`Note Category: ${d.note_category}`);
  if (d.note) lines.push(`Note: ${d.note}`);
  lines.push(`Action Performed By: ${d.action_performed_by}`, `Merchant URL: ${d.merchant_url}`);
  return { subject: `${d.action}: ${d.merchant_name} (EIN ${ein})`, text: lines.join('\n') };
}

interface Notice {
  fein: string;
  merchantId: string;
  actor: string | null;
  action: NotificationData['action'];
  category: string | null;
  note: string | null;
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
      return enqueue(tx, e, ctx, {
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
      const written = await enqueue(tx, e, ctx, notice, folded);
      const changed = await signalsChangedBy(ctx.readStream, e, raw, merchant.fein);
      return written + (changed ? await sendSignalsChanged(tx, changed, raw, ctx, d.merchantId) : 0);
    }
    default:
      return 0;
  }
}

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

/** A note's change of a watched merchant's risk signals (signals-changed.ts), to every watcher but its funder. */
async function sendSignalsChanged(
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

const merchantUrl = (ctx: { publicUrl: string }, merchantId: string) =>
  `${ctx.publicUrl.replace(/\/+$/, '')}/merchants/${merchantId}`;

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
async function foldIntoMerchantAdded(
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

interface Folded {
  account_id: string;
  kind: 'webhook' | 'email';
}

async function enqueue(
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

async function insertDeliveries(
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
