import {
  DISPUTE_COMMENT_MAX,
  DISPUTE_EXPLANATION_MAX,
  DISPUTE_RESOLUTIONS,
  DISPUTE_STATUSES,
  EXPLAINED_RESOLUTIONS,
} from '../domain/disputes.ts';
import { NOTE_MAX } from '../domain/notes.ts';
import { STATES } from '../domain/us-states.ts';
import { dataEnvelope, Pagination } from '../http/envelope.ts';
import { email, idParams, optionalText, pageQuery, requiredText, uuid } from '../http/fields.ts';
import { route } from '../http/route.ts';
import { z } from '../zod.ts';
import { einField } from './merchants.ts';

export const DISPUTE_SUBMITTED =
  'Your dispute has been submitted. We will review it and contact you by e-mail.';

export const DisputeFields = z.object(
  {
    first_name: requiredText(64),
    last_name: requiredText(64),
    email: email(64),
    fein: einField(),
    legal_name: requiredText(200),
    dba: optionalText(200),
    city: requiredText(100),
    state: z.enum(STATES, { error: 'is required' }),
    reason: requiredText(5000),
  },
  { error: 'is required' },
);

export const DisputeView = z.object({
  id: z.string(),
  resource_id: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  fein: z.string(),
  legal_name: z.string(),
  dba: z.string().nullable(),
  city: z.string(),
  state: z.string(),
  reason: z.string(),
  created_at: z.string(),
  merchant_id: z.string().nullable(),
  status: z.enum(DISPUTE_STATUSES),
  assigned_to: z.object({ id: z.string(), name: z.string() }).nullable(),
  resolved_at: z.string().nullable(),
  resolution: z.enum(DISPUTE_RESOLUTIONS).nullable(),
  comment_count: z.number().int(),
  /** Whole days from submission to resolution (or to now while open), against DISPUTE_TARGET_DAYS. */
  days_open: z.number().int(),
});
export type DisputeView = z.infer<typeof DisputeView>;

export const DisputeCommentView = z.object({
  id: z.string(),
  author: z.object({ id: z.string(), name: z.string() }),
  text: z.string(),
  created_at: z.string(),
});
export type DisputeCommentView = z.infer<typeof DisputeCommentView>;

export const DisputeDetailView = DisputeView.extend({
  explanation: z.string().nullable(),
  resolved_by: z.object({ id: z.string(), name: z.string() }).nullable(),
  /** The Merchant Dispute note added or the note archived by the resolution. */
  resolution_note_id: z.string().nullable(),
  /** The merchant the resolution changed (it may have been archived by it). */
  resolution_merchant_id: z.string().nullable(),
  comments: z.array(DisputeCommentView),
});
export type DisputeDetailView = z.infer<typeof DisputeDetailView>;

/** `open` (the default) is new and in review together: the work still to do. */
export const DISPUTE_LIST_FILTERS = ['open', ...DISPUTE_STATUSES] as const;

export const createDispute = route({
  method: 'POST',
  path: '/api/disputes',
  service: 'command',
  access: 'anonymous',
  body: z.object({ dispute: DisputeFields }),
  response: z.object({
    data: z.object({ data: z.object({ resource_id: z.string() }) }),
    position: z.string().optional(),
  }),
  action: 'create dispute',
});

export const listDisputes = route({
  method: 'GET',
  path: '/api/disputes',
  service: 'query',
  access: 'platform_admin',
  query: z.object({
    status: z
      .enum(DISPUTE_LIST_FILTERS, { error: 'must be open, new, in_review or resolved' })
      .default('open'),
    page: z.coerce.number({ error: 'must be a whole number' }).int().min(1).default(1),
    per_page: z.coerce.number({ error: 'must be a whole number' }).int().min(1).max(100).default(25),
  }),
  response: z.object({
    data: z.array(DisputeView),
    pagination: Pagination,
    /** Disputes per status, for the queue's tabs. */
    counts: z.object({ new: z.number().int(), in_review: z.number().int(), resolved: z.number().int() }),
  }),
  readModels: ['disputes', 'merchants'],
  action: 'retrieve disputes',
});

export const getDispute = route({
  method: 'GET',
  path: '/api/disputes/:id',
  service: 'query',
  access: 'platform_admin',
  params: idParams,
  response: dataEnvelope(DisputeDetailView),
  readModels: ['disputes', 'merchants'],
  action: 'retrieve dispute',
});

const written = dataEnvelope(z.object({ resource_id: z.string() }));

export const assignDispute = route({
  method: 'POST',
  path: '/api/disputes/:id/assign',
  service: 'command',
  access: 'platform_admin',
  params: idParams,
  body: z.object({ assignee_id: uuid() }, { error: 'is required' }),
  response: written,
  action: 'assign dispute',
});

export const startDisputeReview = route({
  method: 'POST',
  path: '/api/disputes/:id/start_review',
  service: 'command',
  access: 'platform_admin',
  params: idParams,
  response: written,
  action: 'start review',
});

export const addDisputeComment = route({
  method: 'POST',
  path: '/api/disputes/:id/comments',
  service: 'command',
  access: 'platform_admin',
  params: idParams,
  body: z.object({
    comment: z.object({ text: requiredText(DISPUTE_COMMENT_MAX) }, { error: 'is required' }),
  }),
  response: written,
  action: 'add comment',
});

/**
 * What each resolution needs: a Merchant Dispute note's text, the note to archive, the merchant (the
 * live one holding the dispute's EIN, as the detail shows it), and for `rejected`/`no_action` the
 * explanation for the business owner. Checked here, so a missing part is a 400 naming it.
 */
export const ResolveDisputeFields = z
  .object(
    {
      kind: z.enum(DISPUTE_RESOLUTIONS, {
        error: `must be one of ${DISPUTE_RESOLUTIONS.join(', ')}`,
      }),
      explanation: optionalText(DISPUTE_EXPLANATION_MAX),
      merchant_id: uuid()
        .nullish()
        .transform((v) => v ?? null),
      note_id: uuid()
        .nullish()
        .transform((v) => v ?? null),
      note_text: optionalText(NOTE_MAX),
    },
    { error: 'is required' },
  )
  .superRefine((r, ctx) => {
    const need = (path: 'explanation' | 'merchant_id' | 'note_id' | 'note_text') => {
      if (!r[path])
        ctx.addIssue({ code: 'custom', path: [path], message: 'is required for this resolution' });
    };
    if (EXPLAINED_RESOLUTIONS.includes(r.kind)) need('explanation');
    if (r.kind === 'dispute_note_added') {
      need('merchant_id');
      need('note_text');
    }
    if (r.kind === 'note_archived') {
      need('merchant_id');
      need('note_id');
    }
    if (r.kind === 'merchant_archived') need('merchant_id');
  });
export type ResolveDisputeFields = z.infer<typeof ResolveDisputeFields>;

export const resolveDispute = route({
  method: 'POST',
  path: '/api/disputes/:id/resolve',
  service: 'command',
  access: 'platform_admin',
  params: idParams,
  body: z.object({ resolution: ResolveDisputeFields }),
  response: written,
  action: 'resolve dispute',
});

export const DEV_MAILBOX_PAGE_SIZES = [25, 50, 100] as const;

export const MailView = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  received_at: z.string(),
});

/** The development mailbox, newest first, 25/50/100 a page; `search` finds words in the address, subject or text. */
export const listDevMailbox = route({
  method: 'GET',
  path: '/api/dev_mailbox',
  service: 'query',
  readModels: [],
  access: 'platform_admin',
  query: pageQuery(DEV_MAILBOX_PAGE_SIZES, DEV_MAILBOX_PAGE_SIZES[0]),
  response: z.object({ data: z.array(MailView), pagination: Pagination }),
  action: 'retrieve mail',
});
