import { PLATFORM_ONLY_CATEGORY, type ResolveDisputeFields } from '@mrn/contracts';
import { type EventMetadata, type EventStore, invalid, newId } from '@mrn/platform';
import { transact, type UnitOfWork } from '../command-handler.ts';
import type { CommandContext } from '../decider.ts';
import { merchants } from '../merchants/aggregates.ts';
import { registerNote, releaseEin } from '../merchants/merchant-service.ts';
import { disputes } from './aggregate.ts';

const fieldError = (field: string, message: string) =>
  invalid(`${field}: ${message}`, { fields: [{ field, message }] });

/**
 * Resolves a dispute, all or nothing (DESIGN §5): the change to the merchant's record (a Merchant
 * Dispute note with its registry entry, an archived note, or an archived merchant with its EIN
 * released) and DisputeResolved are one atomic multi-stream append. The dispute stream is decided on
 * first, so resolutions of one dispute queue on it and, across processes, race on its revision: of
 * concurrent resolutions exactly one is written, the others see it resolved (409).
 *
 * The merchant must be the live one with the dispute's EIN, and a note to archive must be a live note
 * of it; anything else is a 400 naming the field, and nothing is written.
 */
export function resolveDisputeWithRecord(
  deps: { store: EventStore },
  disputeId: string,
  fields: ResolveDisputeFields,
  ctx: CommandContext,
  metadata: EventMetadata,
) {
  return transact(deps, { ctx, metadata }, async (unit) => {
    const { kind, explanation, merchant_id: merchantId } = fields;
    let noteId = fields.note_id;
    const dispute = await unit.load(disputes, disputeId);
    // Refusals of the dispute itself (missing, already resolved, not staff) come before field checks.
    if (dispute.status === 'none' || dispute.status === 'resolved' || !ctx.actor?.isDmAdmin) {
      await decideResolution(unit, disputeId, fields, noteId);
      return;
    }
    if (kind === 'dispute_note_added' || kind === 'note_archived' || kind === 'merchant_archived') {
      const merchant = await disputedMerchant(unit, merchantId, dispute.fein);
      if (kind === 'dispute_note_added') {
        noteId = newId();
        await unit.decide(merchants, merchant.merchantId, {
          type: 'AddNote',
          noteId,
          note: {
            category: PLATFORM_ONLY_CATEGORY,
            note: fields.note_text ?? '',
            submissionSource: null,
            brokerName: null,
          },
          by: { accountId: ctx.actor.accountId, userId: ctx.actor.userId, proxiedCreator: null },
        });
        await registerNote(unit, noteId, merchant.merchantId);
      } else if (kind === 'note_archived') {
        const note = noteId ? merchant.notes.get(noteId) : undefined;
        if (!note || note.archived) throw fieldError('note_id', 'is not a live note of this merchant');
        await unit.decide(merchants, merchant.merchantId, { type: 'ArchiveNote', noteId: note.noteId });
      } else {
        await unit.decide(merchants, merchant.merchantId, {
          type: 'ArchiveMerchant',
          reason: `Dispute ${disputeId}${explanation ? `: ${explanation}` : ''}`.slice(0, 1000),
        });
        await releaseEin(unit, merchant.fein, merchant.merchantId);
      }
    }
    await decideResolution(unit, disputeId, fields, noteId);
  });
}

const decideResolution = (
  unit: UnitOfWork,
  disputeId: string,
  fields: ResolveDisputeFields,
  noteId: string | null,
) =>
  unit.decide(disputes, disputeId, {
    type: 'ResolveDispute',
    resolution: fields.kind,
    explanation: fields.explanation,
    merchantId: fields.merchant_id,
    noteId,
  });

/** The live merchant named by the request, which must hold the dispute's EIN. */
async function disputedMerchant(unit: UnitOfWork, merchantId: string | null, fein: string) {
  if (!merchantId) throw fieldError('merchant_id', 'is required for this resolution');
  const merchant = await unit.load(merchants, merchantId);
  if (merchant.status !== 'live' || merchant.fein !== fein)
    throw fieldError('merchant_id', "is not the live merchant with this dispute's EIN");
  return merchant;
}
