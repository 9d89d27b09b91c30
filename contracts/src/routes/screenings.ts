import {
  SCREENING_CSV_MAX_BYTES,
  SCREENING_MAX_EINS,
  SCREENING_OUTCOMES,
  SCREENING_ROWS_PER_PAGE,
  SCREENING_SOURCES,
  SCREENING_STATUSES,
} from '../domain/screening.ts';
import { SIGNAL_GROUPS, SIGNAL_WINDOWS } from '../domain/signals.ts';
import { dataEnvelope, Pagination } from '../http/envelope.ts';
import { requiredText, uuid } from '../http/fields.ts';
import { route } from '../http/route.ts';
import { z } from '../zod.ts';
import { MerchantSignals } from './merchants.ts';

// Portfolio screening (issue 32, contracts/src/domain/screening.ts): a PRO funder's portfolio of EINs
// screened at once. Started on the command side (the rules: plan, contribution lock, the daily
// allowance, all decided from streams), screened in the background by the query side, which keeps the
// report.

const idParam = z.object({ id: uuid() });

/** A row of the file that is not screened, and why. */
export const ScreeningRejectedRow = z.object({
  row: z.number().int(),
  input: z.string(),
  problem: z.string(),
});
export type ScreeningRejectedRow = z.infer<typeof ScreeningRejectedRow>;

/** What a new screening was given: a CSV's text (the web's upload), or the account's watched EINs. */
export const ScreeningRequestBody = z.discriminatedUnion(
  'source',
  [
    z.object({
      source: z.literal('csv'),
      file_name: requiredText(255),
      csv: z
        .string({ error: 'is required' })
        .max(SCREENING_CSV_MAX_BYTES, `must be at most ${SCREENING_CSV_MAX_BYTES / 1024} KB`),
    }),
    z.object({ source: z.literal('subscriptions') }),
  ],
  { error: 'must be csv (with file_name and csv) or subscriptions' },
);
export type ScreeningRequestBody = z.infer<typeof ScreeningRequestBody>;

export const ScreeningStarted = z.object({
  resource_id: z.string(),
  status: z.enum(SCREENING_STATUSES),
  /** EINs to screen (each once). */
  total: z.number().int(),
  /** Rows of the file that are not screened, each with its problem. */
  rejected: z.array(ScreeningRejectedRow),
});

export const createScreening = route({
  method: 'POST',
  path: '/api/screenings',
  service: 'command',
  access: 'member',
  plan: 'PRO',
  body: ScreeningRequestBody,
  response: dataEnvelope(ScreeningStarted),
  action: 'start the screening',
});

/** Hits by category group: how many merchants found have a live note in it, by window. */
export const ScreeningExposure = z.object({
  group: z.enum(SIGNAL_GROUPS),
  label: z.string(),
  last_90_days: z.number().int(),
  last_12_months: z.number().int(),
  ever: z.number().int(),
});

export const ScreeningView = z.object({
  resource_id: z.string(),
  status: z.enum(SCREENING_STATUSES),
  source: z.enum(SCREENING_SOURCES),
  file_name: z.string().nullable(),
  /** Who started it (the account's own member). */
  requested_by: z.string().nullable(),
  total: z.number().int(),
  screened: z.number().int(),
  found: z.number().int(),
  /** Merchants found with at least one reported category. */
  flagged: z.number().int(),
  rejected: z.number().int(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  exposure: z.array(ScreeningExposure),
});
export type ScreeningView = z.infer<typeof ScreeningView>;

export const listScreenings = route({
  method: 'GET',
  path: '/api/screenings',
  service: 'query',
  access: 'member',
  plan: 'PRO',
  query: z.object({
    page: z.coerce
      .number({ error: 'must be a whole number' })
      .int('must be a whole number')
      .min(1, 'must be 1 or more')
      .default(1),
  }),
  readModels: ['users'],
  response: z.object({ data: z.array(ScreeningView), pagination: Pagination }),
  action: 'retrieve screenings',
});

export const getScreening = route({
  method: 'GET',
  path: '/api/screenings/:id',
  service: 'query',
  access: 'member',
  plan: 'PRO',
  params: idParam,
  readModels: ['users'],
  response: dataEnvelope(ScreeningView),
  action: 'retrieve the screening',
});

export const ScreeningRowView = z.object({
  row: z.number().int(),
  input: z.string(),
  fein: z.string().nullable(),
  outcome: z.enum(SCREENING_OUTCOMES),
  problem: z.string().nullable(),
  merchant: z
    .object({
      resource_id: z.string(),
      legal_name: z.string(),
      dba: z.string().nullable(),
      city: z.string(),
      state: z.string(),
    })
    .nullable(),
  /** As they stood when the row was screened. */
  signals: MerchantSignals.nullable(),
});
export type ScreeningRowView = z.infer<typeof ScreeningRowView>;

/** The report's rows, worst first: found merchants by their worst group and funders, then not found, then rejected. */
export const ScreeningRowsQuery = z.object({
  page: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(1, 'must be 1 or more')
    .default(1),
  per_page: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(1, 'must be 1 or more')
    .max(500, 'must be at most 500')
    .default(SCREENING_ROWS_PER_PAGE),
  outcome: z
    .enum(SCREENING_OUTCOMES, { error: `must be one of ${SCREENING_OUTCOMES.join(', ')}` })
    .optional(),
  /** Only merchants with a live note in this group (within `window`). */
  category: z.enum(SIGNAL_GROUPS, { error: `must be one of ${SIGNAL_GROUPS.join(', ')}` }).optional(),
  window: z.enum(SIGNAL_WINDOWS, { error: `must be one of ${SIGNAL_WINDOWS.join(', ')}` }).default('ever'),
});
export type ScreeningRowsQuery = z.infer<typeof ScreeningRowsQuery>;

export const listScreeningRows = route({
  method: 'GET',
  path: '/api/screenings/:id/rows',
  service: 'query',
  access: 'member',
  plan: 'PRO',
  params: idParam,
  query: ScreeningRowsQuery,
  readModels: [],
  response: z.object({ data: z.array(ScreeningRowView), pagination: Pagination }),
  action: 'retrieve the screening report',
});

/** The report as CSV (every row, worst first; the filters of the rows' query apply). */
export const downloadScreeningCsv = route({
  method: 'GET',
  path: '/api/screenings/:id/csv',
  service: 'query',
  access: 'member',
  plan: 'PRO',
  params: idParam,
  query: ScreeningRowsQuery.omit({ page: true, per_page: true }),
  readModels: [],
  response: z.string(),
  action: 'download the screening report',
});

/** The report as a PDF a credit committee reads: summary, exposure by category, the flagged merchants. */
export const downloadScreeningPdf = route({
  method: 'GET',
  path: '/api/screenings/:id/pdf',
  service: 'query',
  access: 'member',
  plan: 'PRO',
  params: idParam,
  readModels: ['users'],
  // The PDF's bytes (application/pdf).
  response: z.unknown(),
  action: 'download the screening report',
});

/** The EINs a screening found: what "watch all hits" subscribes. */
export const listScreeningHits = route({
  method: 'GET',
  path: '/api/screenings/:id/hits',
  service: 'query',
  access: 'member',
  plan: 'PRO',
  params: idParam,
  readModels: [],
  response: dataEnvelope(z.array(z.string())),
  action: 'retrieve the screening report',
});

/** Watch many EINs in one step (a screening's hits): each new one watched, those already watched left. */
export const addMerchantSubscriptions = route({
  method: 'POST',
  path: '/api/accounts/:id/merchant_subscriptions/bulk',
  service: 'command',
  access: 'account_admin',
  plan: 'PRO',
  params: idParam,
  body: z.object({
    feins: z
      .array(z.string().regex(/^\d{9}$/, 'must be 9 digits'), { error: 'must be a list of EINs' })
      .min(1, 'must name at least one EIN')
      .max(SCREENING_MAX_EINS, `must name at most ${SCREENING_MAX_EINS} EINs`),
  }),
  response: dataEnvelope(z.object({ added: z.number().int(), already_watched: z.number().int() })),
  action: 'create merchant subscriptions',
});
