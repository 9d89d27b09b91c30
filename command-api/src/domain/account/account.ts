import type { EventOf, MembershipStatus, PlanLevel } from '@mrn/contracts';
import { conflict } from '@mrn/platform';
import { assertNever, type Decider } from '../decider.ts';

export type AccountEvent = EventOf<'AccountOpened'>;

export type AccountState =
  | { status: 'none' }
  | {
      status: 'open';
      accountId: string;
      name: string;
      website: string | null;
      primaryContactEmail: string;
      planLevel: PlanLevel;
      membershipStatus: MembershipStatus;
      isPlatform: boolean;
    };

export type AccountCommand = {
  type: 'OpenAccount';
  accountId: string;
  name: string;
  website: string | null;
  primaryContactEmail: string;
  planLevel: PlanLevel;
  membershipStatus: MembershipStatus;
  isPlatform: boolean;
};

export const accountDecider: Decider<AccountCommand, AccountState, AccountEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve(_state, event) {
    switch (event.type) {
      case 'AccountOpened':
        return { status: 'open', ...event.data };
      default:
        return assertNever(event.type);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'OpenAccount': {
        if (state.status !== 'none') throw conflict('This account already exists.');
        const { type: _, ...data } = command;
        return [{ type: 'AccountOpened', data }];
      }
      default:
        return assertNever(command.type);
    }
  },
};
