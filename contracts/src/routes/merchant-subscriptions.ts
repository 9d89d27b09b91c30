import { formatEin, normaliseEin } from '../domain/ein.ts';
import { dataEnvelope, Pagination } from '../http/envelope.ts';
import { requiredText, uuid } from '../http/fields.ts';
import { route } from '../http/route.ts';
import { z } from '../zod.ts';
import { einField } from './merchants.ts';

// Merchant subscriptions (accounts spec §2, §3, §7 "Merchant subscriptions"): the EINs a PRO account with
// subscriptions enabled watches, and CSV imports of them through a direct upload. The plan is declared
// here; "subscriptions enabled" is checked by the handlers against the account.

/** List size of the subscriptions screen (accounts spec §9). */
export const MERCHANT_SUBSCRIPTIONS_PER_PAGE = 25;
/** Largest CSV accepted for an import. */
export const SUBSCRIPTION_UPLOAD_MAX_BYTES = 10 * 1024 * 1024;
export const SUBSCRIPTION_IMPORT_STATUSES = ['queued', 'processing', 'done', 'failed'] as const;

export const SUBSCRIPTION_TEXTS = {
  notEnabled: 'Merchant subscriptions are only available to PRO funders with merchant subscriptions enabled.',
  added: (product: string) => `Merchant subscription has been added to ${product}.`,
  /** Subscribing an EIN the account already watches (answered 200, nothing written). */
  alreadyWatched: (fein: string) => `${formatEin(fein)} is already watched.`,
  deleted: 'Merchant subscriptions have been deleted.',
  uploadFailed: 'Could not upload the file.',
  redeliveryQueued: 'The webhook will be delivered again in a moment.',
  redeliveryInProgress: 'This webhook is already waiting to be delivered.',
  redeliveryNoWebhook: 'Set a Merchant Subscription Notification Webhook before redelivering.',
  deliveryNotFound: 'Webhook delivery not found.',
  secretRotated: 'A new webhook secret has been created. The previous one keeps signing for 24 hours.',
  rotationTooSoon: (until: string) =>
    `The previous webhook secret still signs until ${until}. Rotate again after that.`,
} as const;

const idParam = z.object({ id: uuid() });
const accountIdParam = z.object({ account_id: uuid() });

/** Page (1-based), page size (default 25) and an EIN prefix (digits; dashes and spaces ignored). */
const listQuery = z.object({
  page: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(1, 'must be 1 or more')
    .default(1),
  per_page: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(1, 'must be 1 or more')
    .max(100, 'must be at most 100')
    .default(MERCHANT_SUBSCRIPTIONS_PER_PAGE),
  search: z
    .string()
    .trim()
    .max(20, 'must be at most 20 characters')
    .transform(normaliseEin)
    .pipe(z.string().regex(/^\d*$/, 'must be the digits of an EIN'))
    .optional(),
});

export const MerchantSubscriptionView = z.object({
  id: z.string(),
  resource_id: z.string(),
  fein: z.string(),
  created_at: z.string(),
  /** Until when a watch made by a search lasts; null when a person subscribed the EIN (watched for good). */
  watch_until: z.string().nullable(),
  /** The live merchant with that EIN; null when no funder has reported it yet. */
  merchant: z
    .object({
      resource_id: z.string(),
      legal_name: z.string(),
      dba: z.string().nullable(),
      city: z.string(),
      state: z.string(),
    })
    .nullable(),
});
export type MerchantSubscriptionView = z.infer<typeof MerchantSubscriptionView>;

const SubscriptionList = z.object({
  data: z.array(MerchantSubscriptionView),
  pagination: Pagination,
  message: z.string().optional(),
  position: z.string().optional(),
});

export const listMerchantSubscriptions = route({
  method: 'GET',
  path: '/api/accounts/:id/merchant_subscriptions',
  service: 'query',
  access: 'account_admin',
  plan: 'PRO',
  params: idParam,
  query: listQuery,
  readModels: ['merchant_subscriptions', 'merchants'],
  response: SubscriptionList,
  action: 'retrieve merchant subscriptions',
});

/**
 * Every watched EIN of the account as CSV (issue 32: "the merchant CSV export"): the merchant reported
 * under it and its risk signals, the columns of the screening report's, so a monthly review needs no
 * screening. The search of the list applies. A file, not a search: nothing is recorded.
 */
export const exportMerchantSubscriptions = route({
  method: 'GET',
  path: '/api/accounts/:id/merchant_subscriptions/export',
  service: 'query',
  access: 'account_admin',
  plan: 'PRO',
  params: idParam,
  query: listQuery.pick({ search: true }),
  readModels: ['merchant_subscriptions', 'merchants', 'merchant_signals'],
  response: z.string(),
  action: 'export merchant subscriptions',
});

export const addMerchantSubscription = route({
  method: 'POST',
  path: '/api/accounts/:id/merchant_subscriptions',
  service: 'command',
  access: 'account_admin',
  plan: 'PRO',
  params: idParam,
  body: z.object({ merchant_subscription: z.object({ fein: einField() }, { error: 'is required' }) }),
  // 201 when the EIN is now watched; 200, writing nothing, when it already was (`already_watched`).
  response: z.object({
    data: z.object({
      id: z.string(),
      resource_id: z.string(),
      fein: z.string(),
      already_watched: z.boolean(),
    }),
    message: z.string(),
    position: z.string().optional(),
  }),
  action: 'create merchant subscription',
});

/**
 * Core spec §7: `GET /merchants/{id}/toggle_subscription`, "Toggles the merchant subscription." The
 * merchant page's Subscription Enabled switch: the caller's account starts watching the merchant's EIN,
 * or stops, and the answer is the new state. It is a GET that changes state because the spec's call is
 * one; answers are never cached (`no-store`, as every API answer) and the web client calls it only on a
 * click. Access as the switch: an admin of a PRO account with subscriptions enabled (checked by the
 * handler against the account). Not a partner route, so not in the OpenAPI document.
 */
export const toggleMerchantSubscription = route({
  method: 'GET',
  path: '/api/merchants/:id/toggle_subscription',
  service: 'command',
  access: 'account_admin',
  plan: 'PRO',
  params: idParam,
  response: z.object({
    data: z.object({
      resource_id: z.string(),
      fein: z.string(),
      has_merchant_subscription: z.boolean(),
    }),
    message: z.string(),
    position: z.string().optional(),
  }),
  action: 'toggle merchant subscription',
});

const listState = {
  page: listQuery.shape.page,
  per_page: listQuery.shape.per_page,
  search: listQuery.shape.search,
};

export const deleteSelectedMerchantSubscriptions = route({
  method: 'POST',
  path: '/api/accounts/:account_id/merchant_subscriptions/delete_selected',
  service: 'command',
  access: 'account_admin',
  plan: 'PRO',
  params: accountIdParam,
  body: z.object({
    merchant_subscription_ids: z.array(uuid(), { error: 'must be a list of ids' }).max(1000),
    ...listState,
  }),
  response: SubscriptionList,
  action: 'delete merchant subscriptions',
});

export const deleteAllMerchantSubscriptions = route({
  method: 'POST',
  path: '/api/accounts/:account_id/merchant_subscriptions/delete_all',
  service: 'command',
  access: 'account_admin',
  plan: 'PRO',
  params: accountIdParam,
  body: z.object(listState).default({ page: 1, per_page: MERCHANT_SUBSCRIPTIONS_PER_PAGE }),
  response: SubscriptionList,
  action: 'delete merchant subscriptions',
});

export const SubscriptionImportView = z.object({
  id: z.string(),
  created_at: z.string(),
  file_name: z.string(),
  file_size: z.number().int(),
  status: z.enum(SUBSCRIPTION_IMPORT_STATUSES),
  /** The import has run to its end (done or failed). */
  processed: z.boolean(),
  imported: z.number().int(),
  skipped: z.number().int(),
  errors: z.number().int(),
  results_file_url: z.string().nullable(),
});
export type SubscriptionImportView = z.infer<typeof SubscriptionImportView>;

export const listSubscriptionImports = route({
  method: 'GET',
  path: '/api/accounts/:id/merchant_subscription_imports',
  service: 'query',
  access: 'account_admin',
  plan: 'PRO',
  params: idParam,
  readModels: ['merchant_subscriptions'],
  response: z.object({ data: z.array(SubscriptionImportView) }),
  action: 'retrieve merchant subscription imports',
});

/** One webhook delivery as the Webhook Logs tab shows it (accounts spec §3 "subscription webhook log"). */
export const WebhookDeliveryView = z.object({
  id: z.string(),
  created_at: z.string(),
  ein: z.string(),
  action: z.string(),
  /** The payload's event type (merchant.note_added, merchant.shopped…). */
  type: z.string(),
  /** pending, succeeded, failed (retrying at next_retry) or dead (given up). */
  status: z.string(),
  attempts: z.number().int(),
  http_status: z.number().int().nullable(),
  /** Time the last attempt took. */
  duration_ms: z.number().int().nullable(),
  next_retry: z.string().nullable(),
});
export type WebhookDeliveryView = z.infer<typeof WebhookDeliveryView>;

/**
 * One attempt, logged from its start. `in_flight`: sent, no answer yet. `interrupted`: the dispatcher
 * stopped or died before it could record an answer (the receiver may have got it; the next attempt
 * carries the same `webhook-id`); its `error` says so and its duration is unknown.
 */
export const WebhookAttemptView = z.object({
  attempt: z.number().int(),
  at: z.string(),
  outcome: z.enum(['succeeded', 'failed', 'in_flight', 'interrupted']),
  http_status: z.number().int().nullable(),
  duration_ms: z.number().int().nullable(),
  /** The first KB of the endpoint's answer. */
  response_body: z.string().nullable(),
  error: z.string().nullable(),
  succeeded: z.boolean(),
});
export type WebhookAttemptView = z.infer<typeof WebhookAttemptView>;

/** One delivery with every attempt: status, HTTP code, time taken, the first KB of the answer. */
export const getWebhookDelivery = route({
  method: 'GET',
  path: '/api/accounts/:id/merchant_subscription_webhooks/:delivery_id',
  service: 'webhooks',
  readModels: ['accounts'],
  access: 'account_admin',
  plan: 'PRO',
  params: z.object({ id: uuid(), delivery_id: uuid() }),
  response: z.object({
    data: WebhookDeliveryView.extend({
      /** The JSON body as sent. */
      payload: z.unknown(),
      attempts_log: z.array(WebhookAttemptView),
    }),
  }),
  action: 'retrieve merchant subscription webhooks',
});

/** The delivery log, newest first (the last 200): every webhook the dispatcher sent or is retrying. */
export const listWebhookDeliveries = route({
  method: 'GET',
  path: '/api/accounts/:id/merchant_subscription_webhooks',
  service: 'webhooks',
  readModels: ['accounts'],
  access: 'account_admin',
  plan: 'PRO',
  params: idParam,
  response: z.object({ data: z.array(WebhookDeliveryView) }),
  action: 'retrieve merchant subscription webhooks',
});

/**
 * Redeliver (a log row's action): one more attempt now to the account's current webhook address, with
 * the same `webhook-id`. Refused (409) while the row already waits for an attempt or is in flight.
 */
export const redeliverWebhook = route({
  method: 'POST',
  path: '/api/accounts/:id/merchant_subscription_webhooks/:delivery_id/redeliver',
  service: 'webhooks',
  access: 'account_admin',
  plan: 'PRO',
  params: z.object({ id: uuid(), delivery_id: uuid() }),
  response: z.object({ data: WebhookDeliveryView, message: z.string() }),
  action: 'redeliver the webhook',
});

/**
 * A new webhook signing secret (Standard Webhooks `whsec_…`); the old one keeps signing beside it for
 * 24 hours so receivers can switch. Refused (409) while a previous secret still signs.
 */
export const rotateWebhookSigningSecret = route({
  method: 'POST',
  path: '/api/accounts/:id/merchant_subscription_webhook_secret/rotate',
  service: 'webhooks',
  access: 'account_admin',
  plan: 'PRO',
  params: idParam,
  response: z.object({
    data: z.object({
      merchant_subscription_webhook_secret: z.string(),
      previous_secret_valid_until: z.string(),
    }),
    message: z.string(),
  }),
  action: 'rotate the webhook secret',
});

/** Active Storage's direct-upload request: the server answers where to PUT the bytes. */
export const createPresignedUrl = route({
  method: 'POST',
  path: '/api/presigned_url',
  service: 'command',
  access: 'account_admin',
  plan: 'PRO',
  body: z.object({
    file: z.object(
      {
        filename: requiredText(255),
        byte_size: z
          .number({ error: 'must be a whole number' })
          .int('must be a whole number')
          .min(1, 'must be at least 1 byte')
          .max(SUBSCRIPTION_UPLOAD_MAX_BYTES, 'must be at most 10 MB'),
        checksum: z
          .string({ error: 'is required' })
          .regex(/^[A-Za-z0-9+/]{22}==$/, 'must be the base64 MD5 of the file'),
        content_type: z.literal('text/csv', { error: 'must be text/csv' }),
        metadata: z.record(z.string(), z.unknown()).optional(),
      },
      { error: 'is required' },
    ),
  }),
  response: z.object({
    signed_id: z.string(),
    direct_upload: z.object({ url: z.string(), headers: z.record(z.string(), z.string()) }),
  }),
  action: 'upload the file',
});

export const createSubscriptionImport = route({
  method: 'POST',
  path: '/api/accounts/:id/merchant_subscription_imports',
  service: 'command',
  access: 'account_admin',
  plan: 'PRO',
  params: idParam,
  body: z.object({
    file: requiredText(200),
    file_name: requiredText(255),
    file_size: z.number({ error: 'must be a whole number' }).int().min(0).optional(),
  }),
  response: dataEnvelope(z.object({ id: z.string(), status: z.enum(SUBSCRIPTION_IMPORT_STATUSES) })),
  action: 'upload the file',
});

/** The results of an import as CSV: row, input, outcome. */
export const downloadSubscriptionImportResults = route({
  method: 'GET',
  path: '/api/accounts/:id/merchant_subscription_imports/:import_id/results',
  service: 'command',
  access: 'account_admin',
  plan: 'PRO',
  params: z.object({ id: uuid(), import_id: uuid() }),
  response: z.string(),
  action: 'download the import results',
});

/** Where the bytes of a direct upload go (outside the route table: the URL itself is the permission). */
export const DIRECT_UPLOAD_PATH = '/api/direct_uploads/:token';
