import type { EventData } from '@mrn/contracts';
import type { EventStore } from '@mrn/platform';
import type { MailSource, OutboxMail } from '../mail/mail-outbox.ts';
import { disputes } from './aggregate.ts';
import { receivedMail, resolvedMail } from './dispute-mail.ts';

/**
 * E-mails to a dispute's business owner, through the mail outbox: an acknowledgement per
 * DisputeSubmitted and the outcome per DisputeResolved, one of each per dispute (the key). A
 * double-submitted form is one DisputeSubmitted (the decider ignores the retry), so one acknowledgement.
 */
export function disputeMails(deps: { store: EventStore; productName: string }): MailSource {
  return {
    name: 'dispute',
    types: ['DisputeSubmitted', 'DisputeResolved'],
    async mailsFor(event, data): Promise<OutboxMail[]> {
      if (event.type === 'DisputeSubmitted') {
        const d = data as EventData<'DisputeSubmitted'>;
        return [
          {
            key: `dispute-received:${d.disputeId}`,
            kind: 'dispute-received',
            mail: receivedMail(d, deps.productName),
          },
        ];
      }
      const d = data as EventData<'DisputeResolved'>;
      const { state } = await disputes.load(deps.store, d.disputeId);
      if (state.status === 'none') return [];
      return [
        {
          key: `dispute-resolved:${d.disputeId}`,
          kind: 'dispute-resolved',
          mail: resolvedMail(state, d, deps.productName),
        },
      ];
    },
  };
}
