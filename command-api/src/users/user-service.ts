import type { EventMetadata, EventStore } from '@mrn/platform';
import { transact, type UnitOfWork } from '../command-handler.ts';
import { normaliseEmail } from '../credentials/email.ts';
import { hashPassword } from '../credentials/passwords.ts';
import type { CommandContext } from '../decider.ts';
import { emailReservations, users } from './aggregates.ts';
import type { UserCommand } from './user.ts';

/** A user to register: the RegisterUser command with the password as typed instead of its hash. */
export type NewUser = Omit<Extract<UserCommand, { type: 'RegisterUser' }>, 'type' | 'passwordHash'> & {
  password: string;
};

/**
 * Registers a user and reserves the e-mail address in one atomic append, so two registrations of one
 * address cannot both win and a failure leaves the address free.
 */
export async function registerUser(
  deps: { store: EventStore },
  input: NewUser,
  ctx: CommandContext,
  metadata: EventMetadata,
) {
  const email = normaliseEmail(input.email);
  const { password, ...rest } = input;
  const passwordHash = await hashPassword(password);
  return transact(deps, { ctx, metadata }, async (unit) => {
    await unit.decide(emailReservations, email, { type: 'ReserveEmail', email, userId: input.userId });
    await unit.decide(users, input.userId, { type: 'RegisterUser', ...rest, email, passwordHash });
  });
}

/** Moves a user's e-mail reservation within a unit of work: the new address must be free. */
export async function moveEmail(unit: UnitOfWork, userId: string, from: string, to: string) {
  if (from === to) return;
  await unit.decide(emailReservations, to, { type: 'ReserveEmail', email: to, userId });
  await unit.decide(emailReservations, from, { type: 'ReleaseEmail', email: from, userId });
}

export async function findUserIdByEmail(store: EventStore, email: string): Promise<string | null> {
  const { state } = await emailReservations.load(store, normaliseEmail(email));
  return state.holder;
}

export const loadUser = (store: EventStore, userId: string) => users.load(store, userId);
