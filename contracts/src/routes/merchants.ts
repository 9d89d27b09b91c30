import { BROKER_NAME_MAX } from '../domain/brokers.ts';
import { isEinDigits, normaliseEin } from '../domain/ein.ts';
import { NOTE_CATEGORIES, NOTE_MAX, SUBMISSION_SOURCES } from '../domain/notes.ts';
import { SIGNAL_GROUPS } from '../domain/signals.ts';
import { STATES } from '../domain/us-states.ts';
import { dataEnvelope, Pagination } from '../http/envelope.ts';
import { optionalDate, optionalText, pageQuery, requiredText, uuid } from '../http/fields.ts';
import { route } from '../http/route.ts';
import { DELETED_MERCHANT_SORT, MERCHANT_SORT, REPORTED_NOTE_SORT, sortQuery } from '../http/sorting.ts';
import { z } from '../zod.ts';

/** EIN/BN as typed (12-3456789, 9 digits, spaces): stored as 9 digits (DESIGN §4). */
export const einField = () =>
  z
    .string({ error: (iss) => (iss.input === undefined ? 'is required' : 'must be text') })
    .transform(normaliseEin)
    .pipe(z.string().min(1, 'is required').refine(isEinDigits, 'must be 9 digits, as 12-3456789'));

export const MerchantFields = z.object(
  {
    fein: einField(),
    legal_name: requiredText(200),
    dba: optionalText(200),
    street1: optionalText(200),
    street2: optionalText(200),
    city: requiredText(100),
    state: z.enum(STATES, { error: 'is required' }),
    business_phone: optionalText(40),
    business_startdate: optionalDate(),
    industry: optionalText(120),
  },
  { error: 'is required' },
);
export type MerchantFields = z.infer<typeof MerchantFields>;

const submissionSource = z
  .enum(SUBMISSION_SOURCES, { error: 'must be in-house or broker' })
  .nullish()
  .transform((v) => v ?? null);

/** A note as typed; Broker Name is required exactly when the source is broker (core spec §5). */
export const NoteFields = z
  .object(
    {
      category: z.enum(NOTE_CATEGORIES, { error: 'is required' }),
      note: requiredText(NOTE_MAX),
      submission_source: submissionSource,
      broker_name: optionalText(BROKER_NAME_MAX),
    },
    { error: 'is required' },
  )
  .superRefine((n, ctx) => {
    if (n.submission_source === 'broker' && !n.broker_name) {
      ctx.addIssue({ code: 'custom', path: ['broker_name'], message: 'is required for a broker submission' });
    }
  })
  .transform((n) => ({ ...n, broker_name: n.submission_source === 'broker' ? n.broker_name : null }));
export type NoteFields = z.infer<typeof NoteFields>;

const proxiedCreator = uuid()
  .nullish()
  .transform((v) => v ?? null);

export const MerchantView = z.object({
  resource_id: z.string(),
  fein: z.string(),
  legal_name: z.string(),
  dba: z.string().nullable(),
  address: z.string().nullable(),
  street1: z.string().nullable(),
  street2: z.string().nullable(),
  city: z.string(),
  state: z.string(),
  business_phone: z.string().nullable(),
  business_startdate: z.string().nullable(),
  industry: z.string().nullable(),
  /** Funder name; null when the caller may not see it. */
  added_by: z.string().nullable(),
  added_by_user: z.string().nullable(),
  added_by_account_id: z.string().nullable(),
  created_at: z.string(),
  last_note_category: z.string().nullable(),
  has_merchant_subscription: z.boolean(),
  reason: z.string().nullable().optional(),
  archived_at: z.string().nullable().optional(),
});
export type MerchantView = z.infer<typeof MerchantView>;

/**
 * Inquiry velocity (issue 24, contracts/src/domain/inquiries.ts): distinct other funders that looked
 * the merchant up in each window. PRO sees the figures; BASIC sees that they exist (`available` false,
 * figures null) and what PRO would show.
 */
export const InquiryVelocity = z.object({
  available: z.boolean(),
  last_7_days: z.number().int().nullable(),
  last_30_days: z.number().int().nullable(),
  last_90_days: z.number().int().nullable(),
});
export type InquiryVelocity = z.infer<typeof InquiryVelocity>;

/**
 * Risk signals (issue 32, contracts/src/domain/signals.ts): what funders reported, counted and dated,
 * worst group first; only the groups reported. Every plan sees them (they are counts of the notes every
 * plan reads); PRO adds inquiry velocity and the linked merchants' worst categories.
 */
export const MerchantSignals = z.object({
  funders: z.number().int().describe('Distinct funders with a live note in any of the groups.'),
  categories: z.array(
    z.object({
      group: z.enum(SIGNAL_GROUPS),
      label: z.string(),
      last_90_days: z.number().int(),
      last_12_months: z.number().int(),
      ever: z.number().int(),
      last_reported_at: z.string(),
    }),
  ),
  cured_at: z
    .string()
    .nullable()
    .describe('When a Default Satisfied note followed the latest default; null when not cured.'),
  disputes: z.object({ open: z.number().int(), resolved: z.number().int() }),
});
export type MerchantSignals = z.infer<typeof MerchantSignals>;

/** A merchant as a search or its page shows it: with its inquiry velocity and risk signals. */
export const SearchedMerchantView = MerchantView.extend({
  inquiries: InquiryVelocity,
  signals: MerchantSignals,
});
export type SearchedMerchantView = z.infer<typeof SearchedMerchantView>;

/** What links two merchants (issue 24): the same normalised business phone, or street address. */
export const LINK_KINDS = ['phone', 'address'] as const;
export type LinkKind = (typeof LINK_KINDS)[number];

/** Another EIN that is possibly the same business: what it shares with the merchant, and its latest note. */
export const LinkedMerchantView = z.object({
  resource_id: z.string(),
  fein: z.string(),
  legal_name: z.string(),
  dba: z.string().nullable(),
  city: z.string(),
  state: z.string(),
  shared: z.array(z.enum(LINK_KINDS)),
  last_note_category: z.string().nullable(),
  /**
   * The worst group reported on it ever (issue 32), worst as the signals are ordered; null when none,
   * and for BASIC (PRO's, as inquiry velocity is).
   */
  worst_category: z.enum(SIGNAL_GROUPS).nullable(),
  created_at: z.string(),
});
export type LinkedMerchantView = z.infer<typeof LinkedMerchantView>;
/** At most this many linked merchants are listed, newest first. */
export const LINKED_MERCHANTS_MAX = 50;
/**
 * Linked merchants are a search's answer (issue 30, item 6): the partner API's look-up by EIN is a
 * search (daily cap, contribution lock, recorded); the merchant page's list is shown for a merchant the
 * account has found by a search within this many days.
 */
export const LINKED_FOUND_WITHIN_DAYS = 90;
export const LINKED_TEXTS = {
  searchFirst: `Search this merchant's EIN to see the businesses possibly linked to it: they are shown for merchants your account found by a search in the last ${LINKED_FOUND_WITHIN_DAYS} days.`,
} as const;

export const NoteView = z.object({
  id: z.string(),
  resource_id: z.string(),
  merchant_id: z.string(),
  category: z.string(),
  note: z.string(),
  submission_source: z.enum(SUBMISSION_SOURCES).nullable(),
  broker_name: z.string().nullable(),
  proxied_creator: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string().nullable(),
  created_by_id: z.string().nullable(),
  added_by: z.string().nullable(),
  added_by_user: z.string().nullable(),
  added_by_account_id: z.string().nullable(),
  /** What the caller may do with it (computed by the server from the permission rules). */
  can_edit: z.boolean(),
  can_request_deletion: z.boolean(),
  can_archive: z.boolean(),
  deletion_requested: z.boolean(),
  /** Why deletion was requested: platform administrators only. */
  deletion_reason: z.string().nullable(),
});
export type NoteView = z.infer<typeof NoteView>;

export const ReportedNoteView = NoteView.extend({
  reason: z.string(),
  reported_at: z.string(),
  reported_by: z.string(),
  merchant: z.object({ resource_id: z.string(), legal_name: z.string(), fein: z.string() }),
});
export type ReportedNoteView = z.infer<typeof ReportedNoteView>;

const idParam = z.object({ id: uuid() });
/** At least two characters: one letter matches half the network and would only offer to add a merchant. */
export const SEARCH_MIN = 2;
export const SearchTerm = z.object({
  search: z
    .string({ error: 'is required' })
    .trim()
    .min(1, 'is required')
    .min(SEARCH_MIN, `must be at least ${SEARCH_MIN} characters`)
    .max(200, 'must be at most 200 characters'),
});
const searchTerm = SearchTerm;
const einQuery = z.object({ search: einField() });
const written = <T extends z.ZodType>(t: T) => dataEnvelope(t);

export const searchMerchants = route({
  method: 'GET',
  path: '/api/search/merchants',
  service: 'query',
  readModels: [
    'merchants',
    'merchant_searches',
    'merchant_inquiries',
    'merchant_signals',
    'contribution',
    'contribution_searches',
    'merchant_subscriptions',
  ],
  access: 'member',
  query: searchTerm,
  response: z.object({ data: z.array(SearchedMerchantView), warning: z.string().nullable() }),
  action: 'retrieve merchants',
});

export const merchantCheckExists = route({
  method: 'GET',
  path: '/api/search/merchant_check_exists',
  service: 'query',
  readModels: ['merchants'],
  access: 'member',
  query: einQuery,
  response: dataEnvelope(z.object({ resource_id: z.string().nullable(), legal_name: z.string().nullable() })),
  action: 'retrieve merchants',
});

export const searchCounts = route({
  method: 'GET',
  path: '/api/search_counts',
  service: 'query',
  readModels: ['merchant_searches'],
  access: 'member',
  plan: 'PRO',
  query: einQuery,
  response: dataEnvelope(
    z.object({
      total: z.number().int(),
      months: z.array(z.object({ month: z.string(), count: z.number().int() })),
      entries: z.array(z.object({ created_at: z.string(), added_by_account_id: z.string().nullable() })),
    }),
  ),
  action: 'retrieve search counts',
});

export const listMerchants = route({
  method: 'GET',
  path: '/api/merchants',
  service: 'query',
  readModels: ['merchants', 'merchant_subscriptions'],
  access: 'platform_admin',
  query: pageQuery([25, 50, 100], 25).extend(sortQuery(MERCHANT_SORT)),
  response: z.object({ data: z.array(MerchantView), pagination: Pagination }),
  action: 'retrieve merchants',
});

export const AddMerchantBody = z.object({
  merchant: MerchantFields,
  note: NoteFields,
  proxied_creator: proxiedCreator,
});

export const addMerchant = route({
  method: 'POST',
  path: '/api/merchants',
  service: 'command',
  access: 'member',
  body: AddMerchantBody,
  response: written(z.object({ resource_id: z.string(), note_id: z.string() })),
  action: 'create merchant',
});

export const getMerchant = route({
  method: 'GET',
  path: '/api/merchants/:id',
  service: 'query',
  readModels: ['merchants', 'merchant_subscriptions', 'merchant_inquiries', 'merchant_signals'],
  access: 'member',
  params: idParam,
  response: dataEnvelope(SearchedMerchantView),
  action: 'retrieve merchant',
});

/**
 * How a merchant's inquiry velocity is made (issue 24), for platform administrators: every search that
 * found it in the last 90 days, whether it counted and why, and which funders each window counts, by a
 * label that is the same for one funder within the answer and never its name.
 */
export const InquiryAuditView = z.object({
  last_7_days: z.number().int(),
  last_30_days: z.number().int(),
  last_90_days: z.number().int(),
  windows: z.array(z.object({ days: z.number().int(), funders: z.array(z.string()) })),
  searches: z.array(
    z.object({
      searched_at: z.string(),
      funder: z.string(),
      counted: z.boolean(),
      why: z.string(),
    }),
  ),
});
export type InquiryAuditView = z.infer<typeof InquiryAuditView>;

export const merchantInquiryAudit = route({
  method: 'GET',
  path: '/api/merchants/:id/inquiry_audit',
  service: 'query',
  readModels: ['merchants', 'merchant_searches', 'merchant_inquiries'],
  access: 'platform_admin',
  params: idParam,
  response: dataEnvelope(InquiryAuditView),
  action: 'retrieve the inquiry audit',
});

export const listLinkedMerchants = route({
  method: 'GET',
  path: '/api/merchants/:id/linked',
  service: 'query',
  readModels: [
    'merchants',
    'merchant_links',
    'merchant_signals',
    'merchant_searches',
    'contribution',
    'contribution_searches',
    'accounts',
  ],
  access: 'member',
  params: idParam,
  response: dataEnvelope(z.array(LinkedMerchantView)),
  action: 'retrieve linked merchants',
});

export const updateMerchant = route({
  method: 'PUT',
  path: '/api/merchants/:id',
  service: 'command',
  access: 'member',
  params: idParam,
  body: z.object({ merchant: MerchantFields }),
  response: written(z.object({ resource_id: z.string() })),
  action: 'update merchant',
});

export const archiveMerchant = route({
  method: 'PUT',
  path: '/api/merchants/:id/archive',
  service: 'command',
  access: 'platform_admin',
  params: idParam,
  body: z.object({ delete_merchant: z.object({ reason: requiredText(1000) }, { error: 'is required' }) }),
  response: written(z.object({ resource_id: z.string() })),
  action: 'archive merchant',
});

export const merchantHistory = route({
  method: 'GET',
  path: '/api/merchants/:id/history',
  service: 'query',
  readModels: [],
  access: 'platform_admin',
  params: idParam,
  response: dataEnvelope(
    z.array(
      z.object({
        revision: z.number().int(),
        type: z.string(),
        recorded_at: z.string(),
        summary: z.string(),
        changes: z.record(z.string(), z.unknown()),
        actor_user: z.string().nullable(),
        actor_account: z.string().nullable(),
        on_behalf_of_account: z.string().nullable(),
        source: z.string().nullable(),
      }),
    ),
  ),
  action: 'retrieve merchant history',
});

export const listMerchantNotes = route({
  method: 'GET',
  path: '/api/merchants/:id/notes',
  service: 'query',
  readModels: ['merchants', 'notes'],
  access: 'member',
  params: idParam,
  response: dataEnvelope(z.array(NoteView)),
  action: 'retrieve notes',
});

export const listDeletedMerchants = route({
  method: 'GET',
  path: '/api/deleted_merchants',
  service: 'query',
  readModels: ['merchants', 'merchant_subscriptions'],
  access: 'platform_admin',
  query: pageQuery([25, 50, 100], 25).extend(sortQuery(DELETED_MERCHANT_SORT)),
  response: z.object({ data: z.array(MerchantView), pagination: Pagination }),
  action: 'retrieve merchants',
});

export const getDeletedMerchant = route({
  method: 'GET',
  path: '/api/deleted_merchants/:id',
  service: 'query',
  readModels: ['merchants', 'merchant_subscriptions'],
  access: 'platform_admin',
  params: idParam,
  response: dataEnvelope(MerchantView),
  action: 'retrieve merchant',
});

export const listDeletedNotes = route({
  method: 'GET',
  path: '/api/deleted_merchants/:id/deleted_notes',
  service: 'query',
  readModels: ['merchants', 'notes'],
  access: 'platform_admin',
  params: idParam,
  response: dataEnvelope(z.array(NoteView)),
  action: 'retrieve notes',
});

export const addNote = route({
  method: 'POST',
  path: '/api/merchants/:id/notes',
  service: 'command',
  access: 'member',
  params: idParam,
  body: z.object({ note: NoteFields, proxied_creator: proxiedCreator }),
  response: written(z.object({ resource_id: z.string() })),
  action: 'add note',
});

export const updateNote = route({
  method: 'PUT',
  path: '/api/notes/:id',
  service: 'command',
  access: 'member',
  params: idParam,
  body: z.object({ note: NoteFields }),
  response: written(z.object({ resource_id: z.string() })),
  action: 'update note',
});

export const archiveNote = route({
  method: 'PUT',
  path: '/api/notes/:id/archive',
  service: 'command',
  access: 'platform_admin',
  params: idParam,
  response: written(z.object({ resource_id: z.string() })),
  action: 'archive note',
});

export const requestNoteDeletion = route({
  method: 'PUT',
  path: '/api/notes/:id/dispute',
  service: 'command',
  access: 'member',
  params: idParam,
  body: z.object({ note: z.object({ reason: requiredText(1000) }, { error: 'is required' }) }),
  response: written(z.object({ resource_id: z.string() })),
  action: 'send deletion request',
});

export const listReportedNotes = route({
  method: 'GET',
  path: '/api/reported_notes',
  service: 'query',
  readModels: ['notes', 'merchants'],
  access: 'platform_admin',
  query: pageQuery([10, 25, 50, 100], 25).extend(sortQuery(REPORTED_NOTE_SORT)),
  response: z.object({ data: z.array(ReportedNoteView), pagination: Pagination }),
  action: 'retrieve notes',
});

export const recentNotes = route({
  method: 'GET',
  path: '/api/notes/recent',
  service: 'query',
  readModels: ['notes', 'merchants'],
  access: 'member',
  query: z.object({
    category: z.enum(NOTE_CATEGORIES, { error: 'must be a note category' }).optional(),
    page: z.coerce.number({ error: 'must be a whole number' }).int().min(1, 'must be 1 or more').default(1),
    per_page: z.coerce
      .number({ error: 'must be a whole number' })
      .int()
      .min(1)
      .max(200, 'must be at most 200')
      .default(20),
  }),
  response: z.object({
    data: z.array(
      NoteView.extend({
        merchant: z.object({ resource_id: z.string(), legal_name: z.string(), fein: z.string() }),
      }),
    ),
    pagination: Pagination,
  }),
  action: 'retrieve notes',
});
