import { isEmail } from '@mrn/contracts';
import { type Actor, invalid, notFound, unauthorized } from '@mrn/platform';
import type { CommandDeps } from '../context.ts';
import { normaliseEmail } from '../credentials/email.ts';
import { loadAccount } from './account-service.ts';

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
  if (state.status === 'none') throw notFound('Funder not found.');
  const primary = state.primaryContactEmail;
  if (!isEmail(primary)) throw unauthorized();
  const domain = primary.slice(primary.lastIndexOf('@') + 1).toLowerCase();
  if (!normaliseEmail(email).endsWith(`@${domain}`)) {
    throw invalid(domainRuleMessage(domain), {
      fields: [{ field: 'user.email', message: domainRuleMessage(domain) }],
    });
  }
}
