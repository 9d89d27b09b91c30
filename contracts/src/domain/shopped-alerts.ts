/**
 * "Being shopped" alerts and typed webhook filters (issue 24). A funder watching an EIN is told when the
 * number of distinct other funders looking it up within 7 days reaches its threshold, once per crossing;
 * each webhook endpoint chooses the event types it receives, as Svix's event type filters do.
 */
export const SHOPPED_THRESHOLD = { min: 1, max: 20, default: 3 } as const;
/** The window the shopped alert counts in, in days (inquiry velocity's shortest). */
export const SHOPPED_WINDOW_DAYS = 7;

/** Every event type a webhook endpoint may receive, as the payload's `type` names it. */
export const WEBHOOK_EVENT_TYPES = [
  'merchant.added',
  'merchant.updated',
  'merchant.note_added',
  'merchant.note_updated',
  'merchant.shopped',
  'merchant.signals_changed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const WEBHOOK_EVENT_TYPE_LABELS: Record<WebhookEventType, string> = {
  'merchant.added': 'Merchant added',
  'merchant.updated': 'Merchant updated',
  'merchant.note_added': 'Note added',
  'merchant.note_updated': 'Note updated',
  'merchant.shopped': 'Being shopped',
  'merchant.signals_changed': 'Risk signals changed',
};

export interface AlertSettings {
  /** Distinct other funders in 7 days that make a watched merchant "being shopped"; null: off. */
  shoppedAlertThreshold: number | null;
  /** The types the webhook endpoint receives; null: every type, including types added later. */
  webhookEventTypes: WebhookEventType[] | null;
}

/** The settings as an AccountUpdated carries them; events written before they existed read as 3 and all. */
export const alertSettingsOf = (data: {
  shoppedAlertThreshold?: number | null;
  webhookEventTypes?: readonly string[] | null;
}): AlertSettings => ({
  shoppedAlertThreshold:
    data.shoppedAlertThreshold === undefined ? SHOPPED_THRESHOLD.default : data.shoppedAlertThreshold,
  webhookEventTypes: normaliseEventTypes(data.webhookEventTypes ?? null),
});

/** Every type chosen is the same as "all" (null): an endpoint that took everything also gets new types. */
export function normaliseEventTypes(types: readonly string[] | null): WebhookEventType[] | null {
  if (types === null) return null;
  const chosen = WEBHOOK_EVENT_TYPES.filter((t) => types.includes(t));
  return chosen.length === WEBHOOK_EVENT_TYPES.length ? null : chosen;
}

/** What each event type tells a subscriber: the Developer Guide's list and the account form's help. */
export const WEBHOOK_EVENT_DESCRIPTIONS: Record<WebhookEventType, string> = {
  'merchant.added': 'Another funder reported a merchant with an EIN you watch (with its first note).',
  'merchant.updated': "Another funder changed a watched merchant's details.",
  'merchant.note_added': 'Another funder added a note to a watched merchant.',
  'merchant.note_updated': 'Another funder changed its note on a watched merchant.',
  'merchant.shopped':
    'Distinct other funders looking a watched merchant up within 7 days reached your alert threshold (once per crossing; counts only, never which funders).',
  'merchant.signals_changed':
    "Another funder's note gave a watched merchant a category it did not have, or made it a funder more: its risk signals before and after (counts only, never which funders).",
};

/** The `data` of a merchant.shopped webhook: what the dispatcher sends and the guide shows. */
export interface ShoppedWebhookData {
  merchant_ein: string;
  merchant_name: string;
  action: 'Being Shopped';
  threshold: number;
  other_funders_last_7_days: number;
  other_funders_last_30_days: number;
  other_funders_last_90_days: number;
  merchant_url: string;
}

export const SHOPPED_PAYLOAD_EXAMPLE: {
  type: 'merchant.shopped';
  timestamp: string;
  data: ShoppedWebhookData;
} = {
  type: 'merchant.shopped',
  timestamp: '2026-11-24T15:04:05.000Z',
  data: {
    merchant_ein: '123456789',
    merchant_name: 'Acme Coffee LLC',
    action: 'Being Shopped',
    threshold: 3,
    other_funders_last_7_days: 3,
    other_funders_last_30_days: 4,
    other_funders_last_90_days: 4,
    merchant_url: 'https://merchantrisk.example/merchants/…',
  },
};
