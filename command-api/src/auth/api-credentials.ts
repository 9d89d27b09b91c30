import { API_TEXTS } from '@mrn/contracts';
import { type EventStore, forbidden, unauthorized } from '@mrn/platform';
import { loadAccount } from '../accounts/account-service.ts';
import { hashSecret, secretMatches } from '../credentials/tokens.ts';
import { apiTokens } from '../users/aggregates.ts';
import type { ActiveUser } from '../users/user.ts';
import { loadUser } from '../users/user-service.ts';
import { apiTokenBackfillRunning } from './api-token-backfill.ts';

/**
 * The user whose API credentials these are, decided from the event store alone: the token's reservation
 * stream names the user, and the user's and account's own events say whether the key is right and the
 * access granted. Nothing here waits for a projection, so credentials work the moment they are shown.
 * Every credential failure gets one answer, so a caller cannot tell a wrong key from an unknown token.
 */
export async function verifyApiCredentials(
  deps: { store: EventStore },
  authenticationToken: string,
  authenticationKey: string,
): Promise<ActiveUser> {
  const userId = await holderOf(deps.store, authenticationToken);
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

/** How long a token found unreserved waits for this process's backfill of older tokens to end. */
const BACKFILL_WAIT_MS = 10_000;

async function holderOf(store: EventStore, token: string): Promise<string | null> {
  // Taken before the look, so a backfill ending during it is still followed by a second look.
  const backfill = apiTokenBackfillRunning(store);
  const { state } = await apiTokens.load(store, hashSecret(token));
  if (state.holder || !backfill) return state.holder;
  // A token granted before tokens were reserved has no reservation until the backfill this process runs
  // at its start (api-token-backfill.ts) has made it: rather than refusing it meanwhile, the check waits
  // for the backfill and looks again. Bounded, so a stalled backfill holds no request for long; once the
  // backfill has ended, an unreserved token is refused at once.
  await within(backfill, BACKFILL_WAIT_MS);
  return (await apiTokens.load(store, hashSecret(token))).state.holder;
}

async function within(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
