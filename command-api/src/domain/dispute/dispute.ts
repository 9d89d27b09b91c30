import type { EventData, EventOf } from '@mrn/contracts';
import { assertNever, type Decider } from '../decider.ts';

export type DisputeEvent = EventOf<'DisputeSubmitted'>;
export type DisputeState = { status: 'none' } | { status: 'submitted' };
export type DisputeCommand = { type: 'SubmitDispute' } & EventData<'DisputeSubmitted'>;

/** A business owner's dispute (core spec §2): submitted once; a retried submission records nothing. */
export const disputeDecider: Decider<DisputeCommand, DisputeState, DisputeEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve(_state, event) {
    switch (event.type) {
      case 'DisputeSubmitted':
        return { status: 'submitted' };
      default:
        return assertNever(event.type);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'SubmitDispute': {
        if (state.status === 'submitted') return [];
        const { type: _, ...data } = command;
        return [{ type: 'DisputeSubmitted', data }];
      }
      default:
        return assertNever(command.type);
    }
  },
};
