import {
  type DisputeResolution,
  type EventData,
  type EventOf,
  EXPLAINED_RESOLUTIONS,
  MERCHANT_RESOLUTIONS,
} from '@mrn/contracts';
import { type Actor, conflict, forbidden, invalid, notFound } from '@mrn/platform';
import { assertNever, type CommandContext, type Decider } from '../decider.ts';

export type DisputeEvent =
  | EventOf<'DisputeSubmitted'>
  | EventOf<'DisputeAssigned'>
  | EventOf<'DisputeReviewStarted'>
  | EventOf<'DisputeCommentAdded'>
  | EventOf<'DisputeResolved'>;

export interface DisputeRecord {
  disputeId: string;
  email: string;
  firstName: string;
  lastName: string;
  fein: string;
  legalName: string;
  assigneeUserId: string | null;
  commentIds: ReadonlySet<string>;
}

export type DisputeState =
  | { status: 'none' }
  | ({ status: 'new' | 'in_review' } & DisputeRecord)
  | ({ status: 'resolved'; resolution: DisputeResolution } & DisputeRecord);

export type DisputeCommand =
  | ({ type: 'SubmitDispute' } & EventData<'DisputeSubmitted'>)
  | { type: 'AssignDispute'; assigneeUserId: string; assigneeName: string }
  | { type: 'StartReview' }
  | { type: 'AddComment'; commentId: string; authorName: string; text: string }
  | {
      type: 'ResolveDispute';
      resolution: DisputeResolution;
      explanation: string | null;
      /** What the resolution changed on the merchant (checked and written by the handler's unit). */
      merchantId: string | null;
      noteId: string | null;
    };

export const DISPUTE_TEXTS = {
  notFound: 'Dispute not found.',
  resolved: 'This dispute has already been resolved.',
} as const;

function staff(ctx: CommandContext): Actor {
  if (!ctx.actor?.isDmAdmin) throw forbidden();
  return ctx.actor;
}

function existing(state: DisputeState): Exclude<DisputeState, { status: 'none' }> {
  if (state.status === 'none') throw notFound(DISPUTE_TEXTS.notFound);
  return state;
}

function open(state: DisputeState): Extract<DisputeState, { status: 'new' | 'in_review' }> {
  const dispute = existing(state);
  if (dispute.status === 'resolved') throw conflict(DISPUTE_TEXTS.resolved);
  return dispute;
}

const field = (name: string, message: string) =>
  invalid(`${name}: ${message}`, { fields: [{ field: name, message }] });

/**
 * A business owner's dispute (core spec §2) and the platform administrators' work on it:
 * new → in review (assigning or starting review) → resolved, once. Comments are internal and allowed
 * after resolution too (a follow-up with the owner is still worth recording); they never change status.
 */
export const disputeDecider: Decider<DisputeCommand, DisputeState, DisputeEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve(state, event) {
    switch (event.type) {
      case 'DisputeSubmitted': {
        const { disputeId, email, firstName, lastName, fein, legalName } = event.data;
        return {
          status: 'new',
          disputeId,
          email,
          firstName,
          lastName,
          fein,
          legalName,
          assigneeUserId: null,
          commentIds: new Set(),
        };
      }
      case 'DisputeAssigned':
        if (state.status === 'none') return state;
        return {
          ...state,
          status: state.status === 'new' ? 'in_review' : state.status,
          assigneeUserId: event.data.assigneeUserId,
        } as DisputeState;
      case 'DisputeReviewStarted':
        return state.status === 'new' ? { ...state, status: 'in_review' } : state;
      case 'DisputeCommentAdded':
        if (state.status === 'none') return state;
        return { ...state, commentIds: new Set([...state.commentIds, event.data.commentId]) };
      case 'DisputeResolved':
        if (state.status === 'none') return state;
        return { ...state, status: 'resolved', resolution: event.data.resolution };
      default:
        return assertNever(event);
    }
  },
  decide(command, state, ctx) {
    switch (command.type) {
      case 'SubmitDispute': {
        // The same id again is a retried submission (Idempotency-Key): nothing new, no second e-mail.
        if (state.status !== 'none') return [];
        const { type: _, ...data } = command;
        return [{ type: 'DisputeSubmitted', data }];
      }
      case 'AssignDispute': {
        staff(ctx);
        const dispute = open(state);
        if (dispute.assigneeUserId === command.assigneeUserId) return [];
        const { assigneeUserId, assigneeName } = command;
        return [
          { type: 'DisputeAssigned', data: { disputeId: dispute.disputeId, assigneeUserId, assigneeName } },
        ];
      }
      case 'StartReview': {
        staff(ctx);
        const dispute = open(state);
        if (dispute.status === 'in_review') return [];
        return [{ type: 'DisputeReviewStarted', data: { disputeId: dispute.disputeId } }];
      }
      case 'AddComment': {
        const actor = staff(ctx);
        const dispute = existing(state);
        if (dispute.commentIds.has(command.commentId)) return [];
        if (command.text.trim() === '') throw field('comment.text', 'is required');
        return [
          {
            type: 'DisputeCommentAdded',
            data: {
              disputeId: dispute.disputeId,
              commentId: command.commentId,
              authorUserId: actor.userId,
              authorName: command.authorName,
              text: command.text,
            },
          },
        ];
      }
      case 'ResolveDispute': {
        const actor = staff(ctx);
        const dispute = open(state);
        const { resolution, explanation, merchantId, noteId } = command;
        if (EXPLAINED_RESOLUTIONS.includes(resolution) && !explanation?.trim())
          throw field('explanation', 'is required for this resolution');
        const touchesMerchant = MERCHANT_RESOLUTIONS.includes(resolution);
        if (touchesMerchant && !merchantId) throw field('merchant_id', 'is required for this resolution');
        if (resolution !== 'merchant_archived' && touchesMerchant && !noteId)
          throw field('note_id', 'is required for this resolution');
        return [
          {
            type: 'DisputeResolved',
            data: {
              disputeId: dispute.disputeId,
              resolution,
              explanation: explanation?.trim() || null,
              merchantId: touchesMerchant ? merchantId : null,
              noteId: touchesMerchant && resolution !== 'merchant_archived' ? noteId : null,
              resolvedByUserId: actor.userId,
            },
          },
        ];
      }
      default:
        return assertNever(command);
    }
  },
};
