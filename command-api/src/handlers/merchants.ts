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
import { type Actor, type Handler, notFound } from '@mrn/platform';
import { type CommandDeps, metadataFor } from '../context.ts';
import {
  type Attribution,
  MERCHANT_TEXTS,
  type MerchantDetails,
  merchantDecider,
  type NoteContent,
} from '../domain/merchant/merchant.ts';
import { recordIds } from '../idempotency.ts';
import {
  checkProxiedAccount,
  loadMerchant,
  merchantOfNote,
  releaseEin,
  reserveEin,
  runMerchantCommand,
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
  const now = (actor: Actor) => ({ now: new Date(), actor });

  return {
    addMerchant: async (req) => {
      const by = await attribution(deps, req.actor, req.body.proxied_creator);
      const ids = recordIds(req.request, req.actor);
      const merchantId = ids('merchant');
      const noteId = ids('note');
      const command = {
        type: 'AddMerchant' as const,
        merchantId,
        details: toDetails(req.body.merchant),
        noteId,
        note: toNote(req.body.note),
        by,
      };
      const ctx = now(req.actor);
      const metadata = metadataFor(req, { onBehalfOfAccountId: by.proxiedCreator });
      // Refuse on the note's rules before holding the EIN, so a refused add holds nothing.
      merchantDecider.decide(command, merchantDecider.initialState(), ctx);
      await reserveEin(deps, command.details.fein, merchantId, ctx, metadata);
      const result = await runMerchantCommand(deps, merchantId, command, ctx, metadata).catch(
        async (error: unknown) => {
          await releaseEin(deps, command.details.fein, merchantId, ctx, metadata);
          throw error;
        },
      );
      req.reply.code(result.events.length > 0 ? 201 : 200);
      return { data: { resource_id: merchantId, note_id: noteId }, position: result.position };
    },

    updateMerchant: async (req) => {
      const merchantId = req.params.id;
      const details = toDetails(req.body.merchant);
      const ctx = now(req.actor);
      const metadata = metadataFor(req);
      const { state } = await loadMerchant(deps.store, merchantId);
      const command = { type: 'UpdateMerchant' as const, details };
      // Check permission and state first; a changed EIN then moves its reservation.
      merchantDecider.decide(command, state, ctx);
      const oldFein = state.status === 'live' ? state.fein : details.fein;
      if (oldFein !== details.fein) await reserveEin(deps, details.fein, merchantId, ctx, metadata);
      const result = await runMerchantCommand(deps, merchantId, command, ctx, metadata);
      if (oldFein !== details.fein) await releaseEin(deps, oldFein, merchantId, ctx, metadata);
      return { data: { resource_id: merchantId }, position: result.position };
    },

    archiveMerchant: async (req) => {
      const merchantId = req.params.id;
      const ctx = now(req.actor);
      const metadata = metadataFor(req);
      const result = await runMerchantCommand(
        deps,
        merchantId,
        { type: 'ArchiveMerchant', reason: req.body.delete_merchant.reason },
        ctx,
        metadata,
      );
      const fein = result.state.status !== 'none' ? result.state.fein : undefined;
      if (!fein) throw notFound(MERCHANT_TEXTS.notFound);
      const released = await releaseEin(deps, fein, merchantId, ctx, metadata);
      return { data: { resource_id: merchantId }, position: released.position ?? result.position };
    },

    addNote: async (req) => {
      const by = await attribution(deps, req.actor, req.body.proxied_creator);
      const noteId = recordIds(req.request, req.actor)(`note:${req.params.merchant_id}`);
      const result = await runMerchantCommand(
        deps,
        req.params.merchant_id,
        { type: 'AddNote', noteId, note: toNote(req.body.note), by },
        now(req.actor),
        metadataFor(req, { onBehalfOfAccountId: by.proxiedCreator }),
      );
      req.reply.code(result.events.length > 0 ? 201 : 200);
      return { data: { resource_id: noteId }, position: result.position };
    },

    updateNote: async (req) => {
      const merchantId = await merchantOfNote(deps, req.params.id);
      const result = await runMerchantCommand(
        deps,
        merchantId,
        { type: 'UpdateNote', noteId: req.params.id, note: toNote(req.body.note) },
        now(req.actor),
        metadataFor(req),
      );
      return { data: { resource_id: req.params.id }, position: result.position };
    },

    archiveNote: async (req) => {
      const merchantId = await merchantOfNote(deps, req.params.id);
      const result = await runMerchantCommand(
        deps,
        merchantId,
        { type: 'ArchiveNote', noteId: req.params.id },
        now(req.actor),
        metadataFor(req),
      );
      return { data: { resource_id: req.params.id }, position: result.position };
    },

    requestNoteDeletion: async (req) => {
      const merchantId = await merchantOfNote(deps, req.params.id);
      const result = await runMerchantCommand(
        deps,
        merchantId,
        { type: 'RequestNoteDeletion', noteId: req.params.id, reason: req.body.note.reason },
        now(req.actor),
        metadataFor(req),
      );
      return { data: { resource_id: req.params.id }, position: result.position };
    },
  };
}
