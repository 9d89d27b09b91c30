import { BROKER_NAME_MAX } from '../domain/brokers.ts';
import { isEinDigits, normaliseEin } from '../domain/ein.ts';
import { MEMBER_NOTE_CATEGORIES, NOTE_MAX, SUBMISSION_SOURCES } from '../domain/notes.ts';
import { SCREENING_MAX_EINS, SCREENING_TEXTS } from '../domain/screening.ts';
import { STATES } from '../domain/us-states.ts';
import { optionalDate, optionalText, requiredText } from '../http/fields.ts';
import { route } from '../http/route.ts';
import { z } from '../zod.ts';
import { InquiryVelocity, LinkedMerchantView, MerchantSignals } from './merchants.ts';
import { ScreeningRowsQuery, ScreeningRowView, ScreeningStarted, ScreeningView } from './screenings.ts';

// The public developer API, version 2 (accounts spec §7 "Public developer API"), at its documented
// paths. Every answer is `{ errors, data }`: `errors` is empty on success, and on a refusal lists
// each problem with the field it concerns (null when it concerns the request as a whole). The calls
// run the dashboard's own commands and read models; only the shapes are the partner API's.

/** Merchants a partner search answers at most (accounts spec §7). */
export const PARTNER_SEARCH_LIMIT = 5;
/** Lifetime of an API token. */
export const API_TOKEN_TTL_MS = 24 * 3600_000;
/** Credentials with this prefix (token and key both) reach the sandbox. */
export const SANDBOX_PREFIX = 'test_';

export const PartnerError = z.object({
  /** The request field at fault, as sent (`fein`, `auth.authentication_key`); null for the whole request. */
  field: z.string().nullable(),
  message: z.string(),
});
export type PartnerError = z.infer<typeof PartnerError>;

/** A refusal: the problems, and no data. */
export const PartnerErrorBody = z.object({ errors: z.array(PartnerError).min(1), data: z.null() });
export type PartnerErrorBody = z.infer<typeof PartnerErrorBody>;

const answer = <T extends z.ZodType>(data: T) => z.object({ errors: z.array(PartnerError).max(0), data });

/** The partner API's EIN: 9 digits (a hyphen after the second is accepted and dropped). */
export const partnerEin = () =>
  z
    .string({ error: (iss) => (iss.input === undefined ? 'is required' : 'must be text') })
    .transform(normaliseEin)
    .pipe(z.string().min(1, 'is required').refine(isEinDigits, 'must be 9 digits'));

const einParam = z.object({ fein: partnerEin() });

/** The EIN of the examples: a made-up merchant in production; the sandbox examples use the sandbox's own. */
const EXAMPLE_EIN = '123456789';
/** The sandbox's only merchant (accounts spec §7: EIN 01-0000001). */
const SANDBOX_EIN = '010000001';

/** A 9-digit EIN, or legal-name keywords (at least 2 characters). */
const searchKey = z.object({
  key: z
    .string({ error: 'is required' })
    .trim()
    .min(2, 'must be a 9-digit EIN or at least 2 characters of the legal name')
    .max(200, 'must be at most 200 characters'),
});

const submissionSource = z.enum(SUBMISSION_SOURCES, { error: 'must be in-house or broker' });

const merchantBody = {
  fein: partnerEin(),
  legal_name: requiredText(200),
  dba: optionalText(200),
  street1: optionalText(200),
  street2: optionalText(200),
  city: requiredText(100),
  state: z.enum(STATES, { error: 'must be a two-letter US state, CANADA or OTHER' }),
  business_phone: optionalText(40),
  business_startdate: optionalDate(),
  industry: optionalText(120),
  // Exactly what a partner may send: Merchant Dispute is for platform administrators alone.
  note_category: z.enum(MEMBER_NOTE_CATEGORIES, {
    error: `must be one of: ${MEMBER_NOTE_CATEGORIES.join(', ')}`,
  }),
  note: requiredText(NOTE_MAX),
};

const noteBody = {
  fein: partnerEin(),
  note_category: merchantBody.note_category,
  note: merchantBody.note,
};

/** Broker Name is required exactly when the source is broker (accounts spec §5). */
const withSource = <T extends z.core.$ZodLooseShape>(shape: T) =>
  z
    .object({ ...shape, submission_source: submissionSource, broker_name: optionalText(BROKER_NAME_MAX) })
    .superRefine((b, ctx) => {
      const body = b as { submission_source: string; broker_name: string | null };
      if (body.submission_source === 'broker' && !body.broker_name) {
        ctx.addIssue({
          code: 'custom',
          path: ['broker_name'],
          message: 'is required for a broker submission',
        });
      }
    });

export const PartnerNote = z.object({
  note_category: z.string(),
  note: z.string(),
  created_at: z.string(),
  /** The reporting funder's name, when the caller may see it (its own notes); otherwise null. */
  added_by: z.string().nullable(),
});
export const PartnerNoteWithSource = PartnerNote.extend({
  submission_source: z.enum(SUBMISSION_SOURCES).nullable(),
  broker_name: z.string().nullable(),
});

const merchantShape = {
  fein: z.string(),
  legal_name: z.string(),
  dba: z.string().nullable(),
  street1: z.string().nullable(),
  street2: z.string().nullable(),
  city: z.string(),
  state: z.string(),
  business_phone: z.string().nullable(),
  business_startdate: z.string().nullable(),
  industry: z.string().nullable(),
  created_at: z.string(),
  added_by: z.string().nullable(),
};
export const PartnerMerchant = z.object({ ...merchantShape, notes: z.array(PartnerNote) });
export type PartnerMerchant = z.infer<typeof PartnerMerchant>;
export const PartnerMerchantWithSource = z.object({
  ...merchantShape,
  notes: z.array(PartnerNoteWithSource),
});
export type PartnerMerchantWithSource = z.infer<typeof PartnerMerchantWithSource>;
/** A merchant as a search answers it: with its inquiry velocity (figures for PRO accounts). */
export const PartnerSearchedMerchant = PartnerMerchant.extend({
  inquiries: InquiryVelocity,
  signals: MerchantSignals,
});
export const PartnerSearchedMerchantWithSource = PartnerMerchantWithSource.extend({
  inquiries: InquiryVelocity,
  signals: MerchantSignals,
});
export type PartnerSearchedMerchantWithSource = z.infer<typeof PartnerSearchedMerchantWithSource>;

/** Another EIN that is possibly the same business as the one asked about. */
export const PartnerLinkedMerchant = LinkedMerchantView.omit({ resource_id: true });

export const PartnerSubscription = z.object({
  fein: z.string(),
  subscribed: z.boolean(),
  created_at: z.string().nullable(),
});

export const getApiToken = route({
  method: 'POST',
  path: '/api/v2/token',
  service: 'command',
  access: 'anonymous',
  body: z.object(
    {
      auth: z.object(
        { authentication_token: requiredText(200), authentication_key: requiredText(200) },
        { error: 'is required' },
      ),
    },
    { error: 'is required' },
  ),
  response: answer(z.object({ token: z.string(), expires_at: z.string() })),
  action: 'get an API token',
  docs: {
    summary: 'Get an API token',
    description:
      'Exchange your authentication token and key for an API token. Send it as `Authorization: Bearer <token>` on every other call; it lasts 24 hours. Credentials prefixed `test_` give a sandbox token.',
    example: { body: { auth: { authentication_token: 'mrn_3f9c0a1b2c3d', authentication_key: 'k8Jd…' } } },
    status: 200,
  },
});

export const partnerSearchMerchants = route({
  method: 'GET',
  path: '/api/v2/merchants/:key',
  service: 'query',
  readModels: [
    'merchants',
    'notes',
    'merchant_searches',
    'merchant_inquiries',
    'merchant_signals',
    'contribution',
    'contribution_searches',
    'merchant_subscriptions',
  ],
  access: 'api',
  params: searchKey,
  response: answer(z.array(PartnerSearchedMerchant)),
  action: 'search merchants',
  docs: {
    summary: 'Search merchants',
    description:
      'A 9-digit EIN finds that merchant; legal-name keywords find up to 5 merchants, with their notes. More matches ask you to narrow the search. Every search is recorded, as on the dashboard. Each merchant carries `inquiries`: how many distinct other funders looked it up in the last 7, 30 and 90 days (never which); the figures are for PRO accounts, others get `available: false` and nulls. Each also carries `signals`: how many distinct funders reported it, and for each category group reported (worst first: Default / Default Account, Suspicious Activity, Stacking History, Slow Pay, Split Payer, Criminal History, Covid-19 Hardship, Other) its live notes in the last 90 days, the last 12 months and ever, and when the latest was added; `cured_at` when a Default Satisfied followed the latest default; the open and resolved disputes filed against the EIN. No funder is named.',
    example: { params: { key: EXAMPLE_EIN } },
    sandboxExample: { params: { key: SANDBOX_EIN } },
  },
});

export const partnerAddMerchant = route({
  method: 'POST',
  path: '/api/v2/merchants',
  service: 'command',
  access: 'api',
  body: z.object(merchantBody),
  response: answer(PartnerMerchant),
  action: 'add the merchant',
  docs: {
    idempotencyKey: true,
    summary: 'Add a merchant with its first note',
    description:
      'fein, legal_name, city, state, note_category and note are required; dba, street1, street2, business_phone, business_startdate (YYYY-MM-DD) and industry are optional. Send an `Idempotency-Key` header to retry safely.',
    example: {
      body: {
        fein: EXAMPLE_EIN,
        legal_name: 'Acme Coffee LLC',
        city: 'Austin',
        state: 'TX',
        note_category: 'Slow Pay',
        note: 'Two missed payments in March; caught up in April.',
      },
    },
  },
});

export const partnerAddNote = route({
  method: 'POST',
  path: '/api/v2/notes',
  service: 'command',
  access: 'api',
  body: z.object(noteBody),
  response: answer(PartnerNote.extend({ fein: z.string() })),
  action: 'add the note',
  docs: {
    idempotencyKey: true,
    summary: 'Add a note to a merchant',
    description:
      'Adds a note to the merchant with this EIN. Send an `Idempotency-Key` header to retry safely.',
    example: {
      body: { fein: EXAMPLE_EIN, note_category: 'Stacking History', note: 'Took a second advance.' },
    },
    sandboxExample: { body: { fein: SANDBOX_EIN } },
  },
});

export const partnerSubscribe = route({
  method: 'POST',
  path: '/api/v2/merchant_subscriptions',
  service: 'command',
  access: 'api',
  plan: 'PRO',
  body: z.object({ fein: partnerEin() }),
  response: answer(PartnerSubscription),
  action: 'create merchant subscription',
  docs: {
    summary: 'Watch an EIN',
    description:
      'Subscribes your account to an EIN (it need not have been reported yet): your notification e-mail and webhook hear of every merchant and note other funders add on it. PRO accounts with merchant subscriptions enabled.',
    example: { body: { fein: EXAMPLE_EIN } },
    sandboxExample: { body: { fein: SANDBOX_EIN } },
    subscriptions: true,
  },
});

export const partnerGetSubscription = route({
  method: 'GET',
  path: '/api/v2/merchant_subscriptions/:fein',
  service: 'query',
  readModels: ['merchant_subscriptions', 'accounts'],
  access: 'api',
  plan: 'PRO',
  params: einParam,
  response: answer(PartnerSubscription),
  action: 'retrieve merchant subscriptions',
  docs: {
    summary: 'Is an EIN watched?',
    description: 'Whether your account watches this EIN, and since when.',
    example: { params: { fein: EXAMPLE_EIN } },
    sandboxExample: { params: { fein: SANDBOX_EIN } },
    subscriptions: true,
  },
});

export const partnerDeleteSubscription = route({
  method: 'GET',
  path: '/api/v2/delete_merchant_subscription/:fein',
  service: 'command',
  access: 'api',
  plan: 'PRO',
  params: einParam,
  response: answer(PartnerSubscription),
  action: 'delete merchant subscriptions',
  docs: {
    summary: 'Stop watching an EIN',
    description:
      'Removes the subscription (a GET, as documented for older integrations). Removing one that does not exist is not an error.',
    example: { params: { fein: EXAMPLE_EIN } },
    sandboxExample: { params: { fein: SANDBOX_EIN } },
    subscriptions: true,
  },
});

export const partnerSearchWithAdditionalData = route({
  method: 'GET',
  path: '/api/v2/merchants_with_additional_data/:key',
  service: 'query',
  readModels: [
    'merchants',
    'notes',
    'merchant_searches',
    'merchant_inquiries',
    'merchant_signals',
    'contribution',
    'contribution_searches',
    'merchant_subscriptions',
  ],
  access: 'api',
  plan: 'PRO',
  params: searchKey,
  response: answer(z.array(PartnerSearchedMerchantWithSource)),
  action: 'search merchants',
  docs: {
    summary: 'Search merchants, with submission sources',
    description: 'As Search merchants, with each note’s submission_source and broker_name. PRO accounts.',
    example: { params: { key: EXAMPLE_EIN } },
    sandboxExample: { params: { key: SANDBOX_EIN } },
  },
});

export const partnerAddMerchantWithAdditionalData = route({
  method: 'POST',
  path: '/api/v2/merchants_with_additional_data',
  service: 'command',
  access: 'api',
  plan: 'PRO',
  body: withSource(merchantBody),
  response: answer(PartnerMerchantWithSource),
  action: 'add the merchant',
  docs: {
    idempotencyKey: true,
    summary: 'Add a merchant, with the note’s submission source',
    description:
      'As Add a merchant, with submission_source (in-house or broker) and broker_name (required for broker). PRO accounts.',
    example: {
      body: {
        fein: EXAMPLE_EIN,
        legal_name: 'Acme Coffee LLC',
        city: 'Austin',
        state: 'TX',
        note_category: 'Slow Pay',
        note: 'Two missed payments in March.',
        submission_source: 'broker',
        broker_name: 'Main Street Brokers',
      },
    },
  },
});

export const partnerAddNoteWithAdditionalData = route({
  method: 'POST',
  path: '/api/v2/notes_with_additional_data',
  service: 'command',
  access: 'api',
  plan: 'PRO',
  body: withSource(noteBody),
  response: answer(PartnerNoteWithSource.extend({ fein: z.string() })),
  action: 'add the note',
  docs: {
    idempotencyKey: true,
    summary: 'Add a note, with its submission source',
    description: 'As Add a note, with submission_source and broker_name. PRO accounts.',
    example: {
      body: {
        fein: EXAMPLE_EIN,
        note_category: 'Default',
        note: 'Defaulted in May.',
        submission_source: 'in-house',
      },
    },
    sandboxExample: { body: { fein: SANDBOX_EIN } },
  },
});

export const partnerSearchHistory = route({
  method: 'GET',
  path: '/api/v2/search_history/:fein',
  service: 'query',
  readModels: ['merchant_searches'],
  access: 'api',
  plan: 'PRO',
  params: einParam,
  response: answer(z.object({ fein: z.string(), searches: z.array(z.object({ created_at: z.string() })) })),
  action: 'retrieve search history',
  docs: {
    summary: 'When an EIN was searched',
    description:
      'The time of every search of this EIN on the network in the last 6 months, newest first. PRO accounts.',
    example: { params: { fein: EXAMPLE_EIN } },
    sandboxExample: { params: { fein: SANDBOX_EIN } },
  },
});

export const partnerLinkedMerchants = route({
  method: 'GET',
  path: '/api/v2/linked_merchants/:fein',
  service: 'query',
  readModels: [
    'merchants',
    'merchant_links',
    'merchant_searches',
    'merchant_inquiries',
    'merchant_signals',
    'contribution',
    'contribution_searches',
  ],
  access: 'api',
  params: einParam,
  response: answer(z.array(PartnerLinkedMerchant)),
  action: 'retrieve linked merchants',
  docs: {
    summary: 'Possibly the same business',
    description:
      "Other reported EINs that share this merchant's business phone (normalised to E.164) or street address (the same street number, street name and type, city and state; suite and unit are not compared), newest first, at most 50, with what they share and their latest note category. Not found when no live merchant has the EIN. The look-up is a search of the EIN: recorded as one, counted toward the daily search limit and refused while the account is locked for its contribution, as `GET /api/v2/merchants/{key}` is.",
    example: { params: { fein: EXAMPLE_EIN } },
    sandboxExample: { params: { fein: SANDBOX_EIN } },
  },
});

const screeningParam = z.object({
  id: z.uuid({ error: 'must be the id a screening was started with' }),
});

export const partnerCreateScreening = route({
  method: 'POST',
  path: '/api/v2/screenings',
  service: 'command',
  access: 'api',
  plan: 'PRO',
  body: z.object({
    feins: z
      .array(z.string({ error: 'must be text' }).max(40, 'must be at most 40 characters'), {
        error: 'must be a list of EINs',
      })
      .min(1, 'must name at least one EIN')
      .max(SCREENING_MAX_EINS, `must name at most ${SCREENING_MAX_EINS} EINs`),
  }),
  response: answer(ScreeningStarted),
  action: 'start the screening',
  docs: {
    idempotencyKey: true,
    summary: 'Screen a portfolio (asynchronous)',
    description: `Up to ${SCREENING_MAX_EINS.toLocaleString('en-US')} EINs screened at once: each found or not, with its risk \`signals\`. Answers at once with the screening's id and each entry that is not an EIN (or repeats one), which is not screened; follow it with \`GET /api/v2/screenings/{id}\` and read the results, worst first, from \`GET /api/v2/screenings/{id}/results\`. ${SCREENING_TEXTS.rules} PRO accounts.`,
    example: { body: { feins: [EXAMPLE_EIN, '98-7654321', '12345'] } },
    status: 201,
  },
});

export const partnerGetScreening = route({
  method: 'GET',
  path: '/api/v2/screenings/:id',
  service: 'query',
  access: 'api',
  plan: 'PRO',
  params: screeningParam,
  readModels: ['users'],
  response: answer(ScreeningView),
  action: 'retrieve the screening',
  docs: {
    summary: 'A screening: progress and summary',
    description:
      'Its status (`queued`, `running`, `done`), how many EINs are screened of the total, found and reported by at least one funder (`flagged`), and the exposure by category: how many merchants found have a live note in each category group in the last 90 days, 12 months and ever.',
    example: { params: { id: '5f0c8a9e-3b1d-4c2a-9e7f-1a2b3c4d5e6f' } },
  },
});

export const partnerScreeningResults = route({
  method: 'GET',
  path: '/api/v2/screenings/:id/results',
  service: 'query',
  access: 'api',
  plan: 'PRO',
  params: screeningParam,
  query: ScreeningRowsQuery,
  readModels: [],
  response: answer(z.object({ results: z.array(ScreeningRowView), total_count: z.number().int() })),
  action: 'retrieve the screening results',
  docs: {
    summary: 'A screening: results, worst first',
    description:
      'One result per row screened so far, worst first: merchants found by their worst category group and their number of reporting funders, then those found with nothing reported, then EINs not found, then the entries that were not EINs. `page` and `per_page` (at most 500) page them; `outcome`, `category` and `window` (`90d`, `12m`, `ever`) filter them. Signals are as they stood when the row was screened.',
    example: { params: { id: '5f0c8a9e-3b1d-4c2a-9e7f-1a2b3c4d5e6f' }, query: { per_page: '50' } },
  },
});

/** The partner API v2, by name: what the OpenAPI document and the developer guide are made from. */
export const partnerRoutes = {
  getApiToken,
  partnerSearchMerchants,
  partnerAddMerchant,
  partnerAddNote,
  partnerSubscribe,
  partnerGetSubscription,
  partnerDeleteSubscription,
  partnerSearchWithAdditionalData,
  partnerAddMerchantWithAdditionalData,
  partnerAddNoteWithAdditionalData,
  partnerSearchHistory,
  partnerLinkedMerchants,
  partnerCreateScreening,
  partnerGetScreening,
  partnerScreeningResults,
} as const;
