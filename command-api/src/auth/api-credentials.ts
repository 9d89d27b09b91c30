import { API_TEXTS } from '@mrn/contracts';
import { forbidden, unauthorized } from '@mrn/platform';
import { loadAccount } from '../accounts/account-service.ts';
import { apiTokens } from '../aggregates.ts';
import type { CommandDeps } from '../context.ts';
import type { ActiveUser } from '../users/user.ts';
import { loadUser } from '../users/user-service.ts';
import { hashSecret, secretMatches } from './tokens.ts';

/**
 * The user whose API credentials these are, decided from the event store alone: the token's reservation
 * stream names the user, and the user's and account's own events say whether the key is right and the
 * access granted. Nothing here waits for a projection, so credentials work the moment they are shown.
 * Every credential failure gets one answer, so a caller cannot tell a wrong key from an unknown token.
 */
export async function verifyApiCredentials(
  deps: Pick<CommandDeps, 'pool' | 'store'> & Parameters<typeof loadAccount>[0],
  authenticationToken: string,
  authenticationKey: string,
): Promise<ActiveUser> {
  const userId = await holderOf(deps, authenticationToken);
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

async function holderOf(deps: Pick<CommandDeps, 'pool' | 'store'>, token: string): Promise<string | null> {
  const { state } = await apiTokens.load(deps.store, hashSecret(token));
  if (state.holder) return state.holder;
  // A token granted before tokens were reserved (its first regeneration reserves it): found through the
  // users read model, long caught up with a grant that old. The user's own stream still decides.
  const { rows } = await deps.pool.query<{ id: string }>('select id from read.users where api_token = $1', [
    token,
  ]);
  return rows[0]?.id ?? null;
}
