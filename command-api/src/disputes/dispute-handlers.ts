import type {
  addDisputeComment,
  assignDispute,
  createDispute,
  resolveDispute,
  startDisputeReview,
} from '@mrn/contracts';
import { type Actor, type Handler, invalid } from '@mrn/platform';
import { type CommandDeps, metadataFor } from '../context.ts';
import { recordIds } from '../idempotency.ts';
import { users } from '../users/aggregates.ts';
import { disputes } from './aggregate.ts';
import { resolveDisputeWithRecord } from './dispute-resolution.ts';

const fieldError = (field: string, message: string) =>
  invalid(`${field}: ${message}`, { fields: [{ field, message }] });

type Types = {
  createDispute: typeof createDispute;
  assignDispute: typeof assignDispute;
  startDisputeReview: typeof startDisputeReview;
  addDisputeComment: typeof addDisputeComment;
  resolveDispute: typeof resolveDispute;
};

export function disputeHandlers(deps: CommandDeps): { [K in keyof Types]: Handler<Types[K]> } {
  const ctx = (actor: Actor) => ({ now: deps.clock.now(), actor });

  /** A platform administrator's name as the event store has it now (not a read model that may lag). */
  const staffName = async (userId: string): Promise<string | undefined> => {
    const { state } = await users.load(deps.store, userId);
    if (state.status !== 'active' || !state.isDmAdmin) return undefined;
    return `${state.firstName} ${state.lastName}`.trim();
  };

  return {
    createDispute: async (req) => {
      // Anonymous: a double-submitted form is recognised by its Idempotency-Key and the sender's address.
      const ids = await recordIds(deps.pool, req.request, { accountId: 'public', userId: req.ip }, [
        'createDispute',
        req.body,
      ]);
      const disputeId = ids('dispute');
      const d = req.body.dispute;
      const result = await disputes.handle(
        deps,
        disputeId,
        {
          type: 'SubmitDispute',
          disputeId,
          firstName: d.first_name,
          lastName: d.last_name,
          email: d.email.toLowerCase(),
          fein: d.fein,
          legalName: d.legal_name,
          dba: d.dba,
          city: d.city,
          state: d.state,
          reason: d.reason,
        },
        { now: deps.clock.now() },
        metadataFor(req, { source: 'web' }),
      );
      req.reply.code(result.events.length > 0 ? 201 : 200);
      return { data: { data: { resource_id: disputeId } }, position: result.position };
    },

    assignDispute: async (req) => {
      const assigneeName = await staffName(req.body.assignee_id);
      if (assigneeName === undefined) throw fieldError('assignee_id', 'is not a platform administrator');
      const { position } = await disputes.handle(
        deps,
        req.params.id,
        { type: 'AssignDispute', assigneeUserId: req.body.assignee_id, assigneeName },
        ctx(req.actor),
        metadataFor(req),
      );
      return { data: { resource_id: req.params.id }, position };
    },

    startDisputeReview: async (req) => {
      const { position } = await disputes.handle(
        deps,
        req.params.id,
        { type: 'StartReview' },
        ctx(req.actor),
        metadataFor(req),
      );
      return { data: { resource_id: req.params.id }, position };
    },

    addDisputeComment: async (req) => {
      const ids = await recordIds(deps.pool, req.request, req.actor, [
        'addDisputeComment',
        req.params.id,
        req.body,
      ]);
      const commentId = ids(`dispute-comment:${req.params.id}`);
      const authorName = (await staffName(req.actor.userId)) ?? 'Platform administrator';
      const { position, events } = await disputes.handle(
        deps,
        req.params.id,
        { type: 'AddComment', commentId, authorName, text: req.body.comment.text },
        ctx(req.actor),
        metadataFor(req),
      );
      req.reply.code(events.length > 0 ? 201 : 200);
      return { data: { resource_id: commentId }, position };
    },

    resolveDispute: async (req) => {
      const { position } = await resolveDisputeWithRecord(
        deps,
        req.params.id,
        req.body.resolution,
        ctx(req.actor),
        metadataFor(req),
      );
      return { data: { resource_id: req.params.id }, position };
    },
  };
}
