import type {
  addMerchant,
  addNote,
  archiveMerchant,
  archiveNote,
  requestNoteDeletion,
  updateMerchant,
  updateNote,
} from '@mrn/contracts';
import { type Actor, type Handler, type HandlerRequest, notFound } from '@mrn/platform';
import { transact } from '../command-handler.ts';
import { type CommandDeps, metadataFor } from '../context.ts';
import { merchants } from './aggregates.ts';
import { MERCHANT_TEXTS } from './merchant.ts';
import { merchantOfNote, releaseEin, reserveEin } from './merchant-service.ts';
import { type RecordRequest, recordMerchant, recordNote, toDetails, toNote } from './records.ts';

/** What the records service needs of a dashboard request. */
const recordRequest = (
  req: HandlerRequest<typeof addMerchant> | HandlerRequest<typeof addNote>,
): RecordRequest => ({
  actor: req.actor,
  request: req.request,
  metadata: (extra) => metadataFor(req as HandlerRequest<typeof addMerchant>, extra),
  proxiedCreator: req.body.proxied_creator,
});

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
      const { merchantId, noteId, created, position } = await recordMerchant(deps, recordRequest(req), {
        merchant: req.body.merchant,
        note: req.body.note,
      });
      req.reply.code(created ? 201 : 200);
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
      const { noteId, created, position } = await recordNote(deps, recordRequest(req), req.params.id, {
        note: req.body.note,
      });
      req.reply.code(created ? 201 : 200);
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
