import type { MerchantFields, NoteFields } from '@mrn/contracts';
import type { Actor, EventMetadata, Position } from '@mrn/platform';
import type { FastifyRequest } from 'fastify';
import type { CommandDeps } from '../context.ts';
import { recordIds } from '../idempotency.ts';
import type { Attribution, MerchantDetails, NoteContent } from './merchant.ts';
import { addMerchant, addNote, checkProxiedAccount } from './merchant-service.ts';

/**
 * A funder's records (a merchant with its first note, a note on a merchant), as the dashboard and the
 * partner API both add them: attribution (a platform admin may act for a funder), ids from the
 * request's Idempotency-Key, one atomic append, and the contribution re-assessed once they count.
 */
export interface RecordRequest {
  actor: Actor;
  /** The HTTP request: its Idempotency-Key names the records (a retried create names the same ones). */
  request: FastifyRequest;
  metadata: (extra?: Partial<EventMetadata>) => EventMetadata;
  /** A platform admin adding for a funder names it; null otherwise. */
  proxiedCreator: string | null;
}

export const toDetails = (m: MerchantFields): MerchantDetails => ({
  fein: m.fein,
  legalName: m.legal_name,
  dba: m.dba,
  street1: m.street1,
  street2: m.street2,
  city: m.city,
  state: m.state,
  businessPhone: m.business_phone,
  businessStartdate: m.business_startdate,
  industry: m.industry,
});

export const toNote = (n: NoteFields): NoteContent => ({
  category: n.category,
  note: n.note,
  submissionSource: n.submission_source,
  brokerName: n.broker_name,
});

async function attribution(deps: CommandDeps, actor: Actor, proxied: string | null): Promise<Attribution> {
  if (proxied === null || proxied === actor.accountId)
    return { accountId: actor.accountId, userId: actor.userId, proxiedCreator: null };
  if (actor.isDmAdmin) await checkProxiedAccount(deps, proxied);
  return { accountId: proxied, userId: actor.userId, proxiedCreator: proxied };
}

/** Adds a merchant with its first note; `created` is false when the Idempotency-Key had already made them. */
export async function recordMerchant(
  deps: CommandDeps,
  r: RecordRequest,
  input: { merchant: MerchantFields; note: NoteFields },
): Promise<{ merchantId: string; noteId: string; created: boolean; position?: Position }> {
  const by = await attribution(deps, r.actor, r.proxiedCreator);
  const ids = await recordIds(deps.pool, r.request, r.actor, [
    'addMerchant',
    { merchant: input.merchant, note: input.note, proxied_creator: r.proxiedCreator },
  ]);
  const merchantId = ids('merchant');
  const noteId = ids('note');
  const { events, position } = await addMerchant(
    deps,
    {
      type: 'AddMerchant',
      merchantId,
      details: toDetails(input.merchant),
      noteId,
      note: toNote(input.note),
      by,
    },
    { now: deps.clock.now(), actor: r.actor },
    r.metadata({ onBehalfOfAccountId: by.proxiedCreator }),
  );
  return { merchantId, noteId, created: events.length > 0, position };
}

/** Adds a note to a merchant; `created` is false when the Idempotency-Key had already made it. */
export async function recordNote(
  deps: CommandDeps,
  r: RecordRequest,
  merchantId: string,
  input: { note: NoteFields },
): Promise<{ noteId: string; created: boolean; position?: Position }> {
  const by = await attribution(deps, r.actor, r.proxiedCreator);
  const ids = await recordIds(deps.pool, r.request, r.actor, [
    'addNote',
    merchantId,
    { note: input.note, proxied_creator: r.proxiedCreator },
  ]);
  const noteId = ids(`note:${merchantId}`);
  const { events, position } = await addNote(
    deps,
    merchantId,
    { type: 'AddNote', noteId, note: toNote(input.note), by },
    { now: deps.clock.now(), actor: r.actor },
    r.metadata({ onBehalfOfAccountId: by.proxiedCreator }),
  );
  return { noteId, created: events.length > 0, position };
}
