import type { EventOf } from '@mrn/contracts';
import { conflict } from '@mrn/platform';
import { assertNever, type Decider } from '../decider.ts';

/** One user per e-mail address, even under concurrent registrations: the `user-email-{email}` stream. */
export type EmailReservationEvent = EventOf<'EmailReserved'> | EventOf<'EmailReleased'>;
export type EmailReservationState = { holder: string | null };
export type EmailReservationCommand =
  | { type: 'ReserveEmail'; email: string; userId: string }
  | { type: 'ReleaseEmail'; email: string; userId: string };

export const EMAIL_TAKEN = 'A user with this email address already exists.';

export const emailReservationDecider: Decider<
  EmailReservationCommand,
  EmailReservationState,
  EmailReservationEvent
> = {
  initialState: () => ({ holder: null }),
  evolve(state, event) {
    switch (event.type) {
      case 'EmailReserved':
        return { holder: event.data.userId };
      case 'EmailReleased':
        return state.holder === event.data.userId ? { holder: null } : state;
      default:
        return assertNever(event);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'ReserveEmail':
        if (state.holder === command.userId) return [];
        if (state.holder) throw conflict(EMAIL_TAKEN);
        return [{ type: 'EmailReserved', data: { email: command.email, userId: command.userId } }];
      case 'ReleaseEmail':
        if (state.holder !== command.userId) return [];
        return [{ type: 'EmailReleased', data: { email: command.email, userId: command.userId } }];
      default:
        return assertNever(command);
    }
  },
};
