import type { EventOf } from '@mrn/contracts';
import { assertNever, type Decider } from '../decider.ts';

/**
 * `stripe-event-{id}`: a Stripe webhook event applied. Written in the same append as what the event
 * changed, so a redelivery (Stripe retries, or sends an event twice) finds it and changes nothing.
 */
export type StripeEventEvent = EventOf<'StripeEventApplied'>;
export type StripeEventState = { applied: boolean };
export type StripeEventCommand = { type: 'ApplyStripeEvent'; eventId: string; eventType: string };

export const stripeEventDecider: Decider<StripeEventCommand, StripeEventState, StripeEventEvent> = {
  initialState: () => ({ applied: false }),
  evolve(_state, event) {
    switch (event.type) {
      case 'StripeEventApplied':
        return { applied: true };
      default:
        return assertNever(event.type);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'ApplyStripeEvent':
        return state.applied
          ? []
          : [{ type: 'StripeEventApplied', data: { eventId: command.eventId, type: command.eventType } }];
      default:
        return assertNever(command.type);
    }
  },
};
