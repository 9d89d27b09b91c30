import { API_TEXTS } from '@mrn/contracts';
import { forbidden, unauthorized } from '@mrn/platform';
import type { CommandDeps } from '../context.ts';
import type { ActiveUser } from '../domain/user/user.ts';
import { loadAccount } from '../services/accounts.ts';
import { loadUser } from '../services/users.ts';
import { secretMatches } from './tokens.ts';

/**
 * The user whose API credentials these are, checked against the event store (the read model only
 * says which user holds the token; the user's own events say whether the key is right). Every
 * credential failure gets one answer, so a caller cannot tell a wrong key from an unknown token.
 */
export async function verifyApiCredentials(
  deps: Pick<CommandDeps, 'pool' | 'store'> & Parameters<typeof loadAccount>[0],
  authenticationToken: string,
  authenticationKey: string,
): Promise<ActiveUser> {
  const { rows } = await deps.pool.query<{ id: string }>('select id from read.users where api_token = $1', [
    authenticationToken,
  ]);
  const userId = rows[0]?.id;
  const { state: user } = userId ? await loadUser(deps.store, userId) : { state: null };
  const valid =
    user !== null &&
    user.status === 'active' &&
    user.api !== null &&
    user.api.token === authenticationToken &&
    secretMatches(authenticationKey, user.api.keyHash);
  if (!valid) throw unauthorized(API_TEXTS.badCredentials);
  const { state: account } = await loadAccount(deps, user.accountId);
  if (account.status !== 'open') throw unauthorized(API_TEXTS.badCredentials);
  if (!account.canAccessApi) throw forbidden(API_TEXTS.noApiAccess);
  return user;
}
