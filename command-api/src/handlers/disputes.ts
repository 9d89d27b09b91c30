import type { createDispute } from '@mrn/contracts';
import type { Handler } from '@mrn/platform';
import { disputes } from '../aggregates.ts';
import { type CommandDeps, metadataFor } from '../context.ts';
import { recordIds } from '../idempotency.ts';

export function disputeHandlers(deps: CommandDeps) {
  const createDisputeHandler: Handler<typeof createDispute> = async (req) => {
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
  };
  return { createDispute: createDisputeHandler };
}
