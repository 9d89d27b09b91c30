import { streams } from '@mrn/contracts';
import type { EventMetadata, EventStore } from '@mrn/platform';
import { hashPassword } from '../auth/passwords.ts';
import { executeCommand, loadAggregate } from '../command-handler.ts';
import type { CommandContext } from '../domain/decider.ts';
import { emailReservationDecider } from '../domain/user/email-reservation.ts';
import { userDecider } from '../domain/user/user.ts';

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

export interface NewUser {
  userId: string;
  accountId: string;
  email: string;
  firstName: string;
  lastName: string;
  isAdmin: boolean;
  isDmAdmin: boolean;
  password: string;
  agreedToTermsAt: string | null;
}

/** Reserves the e-mail address first (so two registrations of one address cannot both win), then registers. */
export async function registerUser(
  deps: { store: EventStore },
  input: NewUser,
  ctx: CommandContext,
  metadata: EventMetadata,
) {
  const email = normaliseEmail(input.email);
  await executeCommand(
    deps,
    emailReservationDecider,
    streams.userEmail(email),
    { type: 'ReserveEmail', email, userId: input.userId },
    ctx,
    metadata,
  );
  const { password, ...rest } = input;
  return executeCommand(
    deps,
    userDecider,
    streams.user(input.userId),
    { type: 'RegisterUser', ...rest, email, passwordHash: await hashPassword(password) },
    ctx,
    metadata,
  );
}

export async function findUserIdByEmail(store: EventStore, email: string): Promise<string | null> {
  const { state } = await loadAggregate(
    store,
    emailReservationDecider,
    streams.userEmail(normaliseEmail(email)),
  );
  return state.holder;
}

export const loadUser = (store: EventStore, userId: string) =>
  loadAggregate(store, userDecider, streams.user(userId));
