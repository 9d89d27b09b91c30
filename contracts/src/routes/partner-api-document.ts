import { type OpenApiDocument, openApiDocument, type RateLimits } from '../http/openapi.ts';
import { z } from '../zod.ts';
import { PartnerErrorBody, partnerRoutes } from './partner-api.ts';

// The partner API v2's OpenAPI document (served at /api/v2/openapi.json, rendered on /developers and
// fed to a third-party client generator in the tests): the route table's schemas and examples, plus
// an answer to show for each call.

/** Where the document is served. */
export const PARTNER_OPENAPI_PATH = '/api/v2/openapi.json';
/** The sandbox answers under this prefix of the production address (`/sandbox/api/v2/...`). */
export const SANDBOX_PATH_PREFIX = '/sandbox';
/** The sandbox's only merchant (accounts spec §7). */
export const SANDBOX_MERCHANT_EIN = '01-0000001';

/** The limits the server applies unless configured otherwise (RATE_LIMIT_*_PER_MINUTE). */
export const PARTNER_RATE_LIMIT_DEFAULTS: RateLimits = { perApiKeyPerMinute: 600, tokenPerMinute: 20 };

type PartnerRoutes = typeof partnerRoutes;
/** One answer per route, of the route's own response type: a new route without one fails to compile. */
type AnswerExamples = { [K in keyof PartnerRoutes]: z.output<PartnerRoutes[K]['response']> };

const ADDED = '2026-03-14T15:09:26.000Z';
const ACME = {
  fein: '123456789',
  legal_name: 'Acme Coffee LLC',
  dba: null,
  street1: null,
  street2: null,
  city: 'Austin',
  state: 'TX',
  business_phone: null,
  business_startdate: null,
  industry: null,
  created_at: ADDED,
  added_by: 'Summit Capital Funding',
};
// A search in production finds an example merchant another funder reported (who reported it is not
// shown). In the sandbox the examples ask about the sandbox's own merchant, so the answer shown there is
// (close to) what the sandbox gives: its seed (server/src/sandbox/seed.ts), by a sandbox-only funder.
const FOUND_IN_PRODUCTION = { ...ACME, added_by: null };
// Three other funders looked it up this week: a merchant shopping for advances (PRO sees the figures).
const INQUIRIES_IN_PRODUCTION = { available: true, last_7_days: 3, last_30_days: 4, last_90_days: 6 };
// The sandbox's merchant is looked up by no other funder: only the caller searches the sandbox.
const INQUIRIES_IN_SANDBOX = { available: true, last_7_days: 0, last_30_days: 0, last_90_days: 0 };
// What its one note (below) counts as, read some months later: one funder, one Stacking History note
// within the last 12 months but not the last 90 days.
const SIGNALS_IN_PRODUCTION = {
  funders: 1,
  categories: [
    {
      group: 'stacking_history' as const,
      label: 'Stacking History',
      last_90_days: 0,
      last_12_months: 1,
      ever: 1,
      last_reported_at: ADDED,
    },
  ],
  cured_at: null,
  disputes: { open: 0, resolved: 0 },
};
const FOUND_NOTE_IN_PRODUCTION = {
  note_category: 'Stacking History',
  note: 'Took a second position 10 days after funding.',
  created_at: ADDED,
  added_by: null,
};
const FOUND = {
  fein: '010000001',
  legal_name: 'Sandbox Test Merchant LLC',
  dba: 'Sandbox Coffee',
  street1: null,
  street2: null,
  city: 'Austin',
  state: 'TX',
  business_phone: null,
  business_startdate: null,
  industry: 'Restaurants',
  created_at: '2026-03-09T00:00:00.000Z',
  // Another funder's merchant: who reported it is not shown.
  added_by: null,
};
// The sandbox's one note, as its signals count it.
const SIGNALS_IN_SANDBOX = {
  ...SIGNALS_IN_PRODUCTION,
  categories: [{ ...SIGNALS_IN_PRODUCTION.categories[0]!, last_reported_at: '2026-03-09T00:00:00.000Z' }],
};
const FOUND_NOTE = {
  note_category: 'Stacking History',
  note: 'Sandbox note: took a second position 10 days after funding.',
  created_at: '2026-03-09T00:00:00.000Z',
  added_by: null,
};

/** The example screening: three entries, one not an EIN; one merchant found with a stacking report. */
const SCREENING_ID = '5f0c8a9e-3b1d-4c2a-9e7f-1a2b3c4d5e6f';
const SCREENING_RESULT = {
  row: 1,
  input: '123456789',
  fein: '123456789',
  outcome: 'found' as const,
  problem: null,
  merchant: {
    resource_id: '0b6f3c1e-8d2a-4f5b-9c7e-2a1b3c4d5e6f',
    legal_name: 'Acme Coffee LLC',
    dba: null,
    city: 'Austin',
    state: 'TX',
  },
  signals: SIGNALS_IN_PRODUCTION,
};

/** What each call answers to the request example of its route (`docs.example`). */
export const PARTNER_ANSWER_EXAMPLES: AnswerExamples = {
  getApiToken: {
    errors: [],
    data: {
      token: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI…',
      expires_at: '2026-03-15T15:09:26.000Z',
    },
  },
  partnerSearchMerchants: {
    errors: [],
    data: [
      {
        ...FOUND_IN_PRODUCTION,
        inquiries: INQUIRIES_IN_PRODUCTION,
        signals: SIGNALS_IN_PRODUCTION,
        notes: [FOUND_NOTE_IN_PRODUCTION],
      },
    ],
  },
  partnerAddMerchant: {
    errors: [],
    data: {
      ...ACME,
      notes: [
        {
          note_category: 'Slow Pay',
          note: 'Two missed payments in March; caught up in April.',
          created_at: ADDED,
          added_by: 'Summit Capital Funding',
        },
      ],
    },
  },
  partnerAddNote: {
    errors: [],
    data: {
      fein: '123456789',
      note_category: 'Stacking History',
      note: 'Took a second advance.',
      created_at: ADDED,
      added_by: 'Summit Capital Funding',
    },
  },
  partnerSubscribe: { errors: [], data: { fein: '123456789', subscribed: true, created_at: ADDED } },
  partnerGetSubscription: { errors: [], data: { fein: '123456789', subscribed: true, created_at: ADDED } },
  partnerDeleteSubscription: { errors: [], data: { fein: '123456789', subscribed: false, created_at: null } },
  partnerSearchWithAdditionalData: {
    errors: [],
    data: [
      {
        ...FOUND_IN_PRODUCTION,
        inquiries: INQUIRIES_IN_PRODUCTION,
        signals: SIGNALS_IN_PRODUCTION,
        notes: [
          { ...FOUND_NOTE_IN_PRODUCTION, submission_source: 'broker', broker_name: 'Main Street Brokers' },
        ],
      },
    ],
  },
  partnerAddMerchantWithAdditionalData: {
    errors: [],
    data: {
      ...ACME,
      notes: [
        {
          note_category: 'Slow Pay',
          note: 'Two missed payments in March.',
          created_at: ADDED,
          added_by: 'Summit Capital Funding',
          submission_source: 'broker',
          broker_name: 'Main Street Brokers',
        },
      ],
    },
  },
  partnerAddNoteWithAdditionalData: {
    errors: [],
    data: {
      fein: '123456789',
      note_category: 'Default',
      note: 'Defaulted in May.',
      created_at: ADDED,
      added_by: 'Summit Capital Funding',
      submission_source: 'in-house',
      broker_name: null,
    },
  },
  partnerSearchHistory: {
    errors: [],
    data: {
      fein: '123456789',
      searches: [{ created_at: '2026-03-12T18:02:11.000Z' }, { created_at: '2026-02-27T10:15:40.000Z' }],
    },
  },
  partnerLinkedMerchants: {
    errors: [],
    data: [
      {
        fein: '987654321',
        legal_name: 'Acme Roasters Inc',
        dba: 'Acme Coffee',
        city: 'Austin',
        state: 'TX',
        shared: ['address', 'phone'],
        last_note_category: 'Default',
        worst_category: 'default',
        created_at: '2025-11-02T16:40:05.000Z',
      },
    ],
  },
  partnerCreateScreening: {
    errors: [],
    data: {
      resource_id: SCREENING_ID,
      status: 'queued',
      total: 2,
      rejected: [{ row: 3, input: '12345', problem: 'must be 9 digits, as 12-3456789' }],
    },
  },
  partnerGetScreening: {
    errors: [],
    data: {
      resource_id: SCREENING_ID,
      status: 'done',
      source: 'api',
      file_name: null,
      requested_by: 'Dana Whitfield',
      total: 2,
      screened: 2,
      found: 1,
      flagged: 1,
      rejected: 1,
      created_at: '2026-11-24T15:04:05.000Z',
      finished_at: '2026-11-24T15:04:06.000Z',
      exposure: [
        { group: 'stacking_history', label: 'Stacking History', last_90_days: 0, last_12_months: 1, ever: 1 },
      ],
    },
  },
  partnerScreeningResults: {
    errors: [],
    data: {
      results: [
        SCREENING_RESULT,
        {
          row: 2,
          input: '98-7654321',
          fein: '987654321',
          outcome: 'not_found',
          problem: null,
          merchant: null,
          signals: null,
        },
        {
          row: 3,
          input: '12345',
          fein: null,
          outcome: 'rejected',
          problem: 'must be 9 digits, as 12-3456789',
          merchant: null,
          signals: null,
        },
      ],
      total_count: 3,
    },
  },
};

/** The same answer about the sandbox's merchant: its EIN in place of the example's. */
const inSandbox = <T>(answer: T): T =>
  JSON.parse(JSON.stringify(answer).replaceAll('"123456789"', `"${SANDBOX_FEIN}"`)) as T;
const SANDBOX_FEIN = SANDBOX_MERCHANT_EIN.replace('-', '');

/**
 * What the calls whose sandbox example differs (routes' `docs.sandboxExample`) answer there: the
 * searches find the sandbox's merchant; the others answer about its EIN.
 */
export const PARTNER_SANDBOX_ANSWER_EXAMPLES: Partial<AnswerExamples> = {
  partnerSearchMerchants: {
    errors: [],
    data: [{ ...FOUND, inquiries: INQUIRIES_IN_SANDBOX, signals: SIGNALS_IN_SANDBOX, notes: [FOUND_NOTE] }],
  },
  partnerSearchWithAdditionalData: {
    errors: [],
    data: [
      {
        ...FOUND,
        inquiries: INQUIRIES_IN_SANDBOX,
        signals: SIGNALS_IN_SANDBOX,
        notes: [{ ...FOUND_NOTE, submission_source: 'broker', broker_name: 'Main Street Brokers' }],
      },
    ],
  },
  partnerAddNote: inSandbox(PARTNER_ANSWER_EXAMPLES.partnerAddNote),
  partnerAddNoteWithAdditionalData: inSandbox(PARTNER_ANSWER_EXAMPLES.partnerAddNoteWithAdditionalData),
  partnerSubscribe: inSandbox(PARTNER_ANSWER_EXAMPLES.partnerSubscribe),
  partnerGetSubscription: inSandbox(PARTNER_ANSWER_EXAMPLES.partnerGetSubscription),
  partnerDeleteSubscription: inSandbox(PARTNER_ANSWER_EXAMPLES.partnerDeleteSubscription),
  partnerSearchHistory: inSandbox(PARTNER_ANSWER_EXAMPLES.partnerSearchHistory),
  // The sandbox holds one merchant: nothing is linked to it.
  partnerLinkedMerchants: { errors: [], data: [] },
};

/** A refusal, as sent: each problem names the request field it concerns. */
export const PARTNER_ERROR_EXAMPLE = {
  errors: [{ field: 'fein', message: 'must be 9 digits' }],
  data: null,
  request_id: '0f8e2b6a-5c1d-4e3f-9a7b-2c4d6e8f0a1b',
};

/** The refusal envelope as the server sends it: the route table's, with the request's id for support. */
export const PartnerErrorAnswer = PartnerErrorBody.extend({
  request_id: z.string().meta({ description: 'Quote it when asking support about this refusal.' }).optional(),
});

export interface PartnerDocumentOptions {
  /**
   * The production base address (`PUBLIC_URL`), without a trailing slash. Without one the document
   * names no host: its servers are `/` and `/sandbox`, which OpenAPI 3.1 resolves against the address
   * the document was fetched from, so it never publishes an address that only worked where it was built.
   */
  baseUrl?: string;
  productName: string;
  rateLimits?: RateLimits;
  /** The largest body the server reads (a larger one answers 413). */
  bodyLimitBytes?: number;
}

/** The terms of use as an SPDX license expression: they are our own, not a listed license. */
const TERMS_LICENSE_REF = 'LicenseRef-Terms-of-Use';

/** Calls that answer 200, recording nothing, when what they ask is already so (an EIN already watched). */
const REPEATABLE: readonly (keyof PartnerRoutes)[] = ['partnerSubscribe'];

/** The partner API v2 as an OpenAPI 3.1 document, production and sandbox addresses both listed. */
export function partnerOpenApiDocument(options: PartnerDocumentOptions): OpenApiDocument {
  const base = (options.baseUrl ?? '').replace(/\/+$/, '');
  const limits = options.rateLimits ?? PARTNER_RATE_LIMIT_DEFAULTS;
  return openApiDocument(partnerRoutes, {
    title: `${options.productName} partner API`,
    version: '2',
    description: [
      `Search and report merchants on the ${options.productName} network from your own systems.`,
      'Every answer is JSON `{ errors, data }`: `errors` is empty on success; on a refusal it lists each problem with the request field it concerns (`field` is null when it concerns the whole request) and `data` is null.',
      `Get a token from \`POST /api/v2/token\` and send it as \`Authorization: Bearer <token>\`; tokens last 24 hours. The sandbox (\`${SANDBOX_PATH_PREFIX}\` after the production address) takes your credentials prefixed \`test_\`; it is reset weekly and its only merchant has EIN ${SANDBOX_MERCHANT_EIN}.`,
      `Rate limits: ${limits.perApiKeyPerMinute} calls a minute per API user (by IP address without a valid token), ${limits.tokenPerMinute} a minute per IP address on the token call; every answer carries \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\`, and a call over the limit answers 429 with \`Retry-After\`.`,
    ].join('\n\n'),
    // The developer guide and the terms of use are pages of the site that serves the API. Their
    // addresses are given only when the site's is known: OpenAPI's schema (and so Spectral and other
    // linters) wants them absolute, and without a host the terms are named by an SPDX LicenseRef.
    contact: base
      ? { name: `${options.productName} developer guide`, url: `${base}/developers` }
      : { name: `${options.productName} developer guide (/developers on this site)` },
    license: base
      ? { name: `${options.productName} Terms of Use`, url: `${base}/terms_of_use` }
      : {
          name: `${options.productName} Terms of Use (/terms_of_use on this site)`,
          identifier: TERMS_LICENSE_REF,
        },
    servers: base
      ? [
          { url: base, description: 'Production' },
          { url: `${base}${SANDBOX_PATH_PREFIX}`, description: 'Sandbox' },
        ]
      : [
          { url: '/', description: 'Production (the site this document was fetched from)' },
          { url: SANDBOX_PATH_PREFIX, description: 'Sandbox' },
        ],
    errorBody: PartnerErrorAnswer,
    errorExample: PARTNER_ERROR_EXAMPLE,
    answerExamples: PARTNER_ANSWER_EXAMPLES,
    sandboxAnswerExamples: PARTNER_SANDBOX_ANSWER_EXAMPLES,
    rateLimits: limits,
    repeatable: REPEATABLE,
    ...(options.bodyLimitBytes ? { bodyLimitBytes: options.bodyLimitBytes } : {}),
  });
}
