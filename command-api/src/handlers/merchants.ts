import type {
  addMerchant,
  addNote,
  archiveMerchant,
  archiveNote,
  MerchantFields,
  NoteFields,
  requestNoteDeletion,
  updateMerchant,
  updateNote,
} from '@mrn/contracts';
import { type Actor, type Handler, notFound, type Position } from '@mrn/platform';
import { merchants } from '../aggregates.ts';
import { runInBackground } from '../background.ts';
import { transact } from '../command-handler.ts';
import { type CommandDeps, metadataFor } from '../context.ts';
import {
  type Attribution,
  MERCHANT_TEXTS,
  type MerchantDetails,
  type NoteContent,
} from '../domain/merchant/merchant.ts';
import { recordIds } from '../idempotency.ts';
import { reassessAfterRecords } from '../services/contribution.ts';
import {
  addMerchant as addMerchantWithNote,
  addNote as addNoteToMerchant,
  checkProxiedAccount,
  merchantOfNote,
  releaseEin,
  reserveEin,
} from '../services/merchants.ts';

const toDetails = (m: MerchantFields): MerchantDetails => ({
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

const toNote = (n: NoteFields): NoteContent => ({
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

type Types = {
  addMerchant: typeof addMerchant;
  updateMerchant: typeof updateMerchant;
  archiveMerchant: typeof archiveMerchant;
  addNote: typeof addNote;
  updateNote: typeof updateNote;
  archiveNote: typeof archiveNote;
  requestNoteDeletion: typeof requestNoteDeletion;
};

export function merchantHandlers(deps: CommandDeps): { [K in keyof Types]: Handler<Types[K]> } {
  const now = (actor: Actor) => ({ now: deps.clock.now(), actor });

  /**
   * New records raise the funder's contribution: a funder under a warning or lock is assessed again once
   * they are counted (in the background, after the answer), so a figure back at the minimum lifts it.
   */
  const afterRecordsAdded = (accountId: string, position: Position | undefined, correlationId: string) => {
    if (!position) return;
    runInBackground(deps.logger, 'contribution re-assessment', () =>
      reassessAfterRecords(deps, accountId, position, { correlationId }),
    );
  };

  /** A command on the merchant a note belongs to. */
  const onNote = async (
    req: Parameters<Handler<typeof updateNote>>[0] | Parameters<Handler<typeof archiveNote>>[0],
    command: Parameters<typeof merchants.handle>[2],
  ) => {
    const merchantId = await merchantOfNote(deps, req.params.id);
    const result = await merchants.handle(deps, merchantId, command, now(req.actor), metadataFor(req));
    return { data: { resource_id: req.params.id }, position: result.position };
  };

  return {
    addMerchant: async (req) => {
      const by = await attribution(deps, req.actor, req.body.proxied_creator);
      const ids = await recordIds(deps.pool, req.request, req.actor, ['addMerchant', req.body]);
      const merchantId = ids('merchant');
      const noteId = ids('note');
      const { events, position } = await addMerchantWithNote(
        deps,
        {
          type: 'AddMerchant',
          merchantId,
          details: toDetails(req.body.merchant),
          noteId,
          note: toNote(req.body.note),
          by,
        },
        now(req.actor),
        metadataFor(req, { onBehalfOfAccountId: by.proxiedCreator }),
      );
      if (events.length > 0) afterRecordsAdded(by.accountId, position, req.request.id);
      req.reply.code(events.length > 0 ? 201 : 200);
      return { data: { resource_id: merchantId, note_id: noteId }, position };
    },

    // A changed EIN moves its reservation in the same append as the change.
    updateMerchant: async (req) => {
      const merchantId = req.params.id;
      const details = toDetails(req.body.merchant);
      const { position } = await transact(
        deps,
        { ctx: now(req.actor), metadata: metadataFor(req) },
        async (unit) => {
          const before = await unit.load(merchants, merchantId);
          const { events } = await unit.decide(merchants, merchantId, { type: 'UpdateMerchant', details });
          if (events.length === 0 || before.status !== 'live' || before.fein === details.fein) return;
          await reserveEin(unit, details.fein, merchantId);
          await releaseEin(unit, before.fein, merchantId);
        },
      );
      return { data: { resource_id: merchantId }, position };
    },

    archiveMerchant: async (req) => {
      const merchantId = req.params.id;
      const { position } = await transact(
        deps,
        { ctx: now(req.actor), metadata: metadataFor(req) },
        async (unit) => {
          const { state } = await unit.decide(merchants, merchantId, {
            type: 'ArchiveMerchant',
            reason: req.body.delete_merchant.reason,
          });
          if (state.status === 'none') throw notFound(MERCHANT_TEXTS.notFound);
          await releaseEin(unit, state.fein, merchantId);
        },
      );
      return { data: { resource_id: merchantId }, position };
    },

    addNote: async (req) => {
      const by = await attribution(deps, req.actor, req.body.proxied_creator);
      const merchantId = req.params.id;
      const ids = await recordIds(deps.pool, req.request, req.actor, ['addNote', merchantId, req.body]);
      const noteId = ids(`note:${merchantId}`);
      const { events, position } = await addNoteToMerchant(
        deps,
        merchantId,
        { type: 'AddNote', noteId, note: toNote(req.body.note), by },
        now(req.actor),
        metadataFor(req, { onBehalfOfAccountId: by.proxiedCreator }),
      );
      if (events.length > 0) afterRecordsAdded(by.accountId, position, req.request.id);
      req.reply.code(events.length > 0 ? 201 : 200);
      return { data: { resource_id: noteId }, position };
    },

    updateNote: (req) =>
      onNote(req, { type: 'UpdateNote', noteId: req.params.id, note: toNote(req.body.note) }),
    archiveNote: (req) => onNote(req, { type: 'ArchiveNote', noteId: req.params.id }),
    requestNoteDeletion: (req) =>
      onNote(req as never, {
        type: 'RequestNoteDeletion',
        noteId: req.params.id,
        reason: req.body.note.reason,
      }),
  };
}
