import { isEmail, streams } from '@mrn/contracts';
import { type Actor, DomainError, type EventMetadata, unauthorized } from '@mrn/platform';
import { executeCommand } from '../command-handler.ts';
import type { CommandDeps } from '../context.ts';
import type { CommandContext } from '../domain/decider.ts';
import { emailReservationDecider } from '../domain/user/email-reservation.ts';
import { loadAccount } from './accounts.ts';
import { normaliseEmail } from './users.ts';

export const domainRuleMessage = (domain: string) => `Only email addresses ending in @${domain} are valid.`;

/**
 * Members' e-mail addresses must be on the account's domain (accounts spec §5); platform admins
 * are exempt. An account whose primary e-mail has no domain ends the caller's session.
 */
export async function checkEmailDomain(
  deps: Pick<CommandDeps, 'store'>,
  actor: Actor,
  accountId: string,
  email: string,
) {
  if (actor.isDmAdmin) return;
  const { state } = await loadAccount(deps, accountId);
  if (state.status === 'none') throw new DomainError(404, 'Funder not found.');
  const primary = state.primaryContactEmail;
  if (!isEmail(primary)) throw unauthorized();
  const domain = primary.slice(primary.lastIndexOf('@') + 1).toLowerCase();
  if (!normaliseEmail(email).endsWith(`@${domain}`)) {
    throw new DomainError(400, domainRuleMessage(domain), {
      fields: [{ field: 'user.email', message: domainRuleMessage(domain) }],
    });
  }
}

/** Moves a user's e-mail reservation: the new address must be free, the old one is released after. */
export async function moveEmail(
  deps: Pick<CommandDeps, 'store'>,
  userId: string,
  from: string,
  to: string,
  ctx: CommandContext,
  metadata: EventMetadata,
) {
  if (from === to) return;
  await executeCommand(
    deps,
    emailReservationDecider,
    streams.userEmail(to),
    { type: 'ReserveEmail', email: to, userId },
    ctx,
    metadata,
  );
  await executeCommand(
    deps,
    emailReservationDecider,
    streams.userEmail(from),
    { type: 'ReleaseEmail', email: from, userId },
    ctx,
    metadata,
  );
}
