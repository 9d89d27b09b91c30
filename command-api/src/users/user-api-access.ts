import type { EventOf } from '@mrn/contracts';
import { conflict } from '@mrn/platform';
import type { CommandContext } from '../decider.ts';
import { active, assertManager } from './user-guards.ts';
import type { ActiveUser, UserState } from './user-state.ts';

export type ApiAccessEvent =
  | EventOf<'UserApiAccessGranted'>
  | EventOf<'UserApiKeyRegenerated'>
  | EventOf<'UserApiAccessRevoked'>;

export type ApiAccessCommand =
  | { type: 'GrantApiAccess'; accountHasApiAccess: boolean; authenticationToken: string; keyHash: string }
  | { type: 'RegenerateApiKey'; keyHash: string; replacingKeyHash: string }
  | { type: 'RevokeApiAccess' };

export const API_ACCESS_TEXTS = {
  accountHasNoApi: 'API access must first be granted to the account by a platform administrator.',
  noApiAccess: 'This member has no API access.',
  apiAlreadyGranted: 'This member already has API access. Regenerate the key to issue a new one.',
  apiKeyChanged: 'The API key was just changed by someone else. Open the credentials again to see them.',
} as const;

export function decideApiAccess(
  command: ApiAccessCommand,
  state: UserState,
  ctx: CommandContext,
): ApiAccessEvent[] {
  const user = active(state);
  assertManager(ctx, user);
  switch (command.type) {
    case 'GrantApiAccess': {
      if (!command.accountHasApiAccess) throw conflict(API_ACCESS_TEXTS.accountHasNoApi);
      // A second grant would replace the key the first one just showed: of grants sent at once, one wins.
      if (user.api) throw conflict(API_ACCESS_TEXTS.apiAlreadyGranted);
      const { authenticationToken, keyHash } = command;
      return [{ type: 'UserApiAccessGranted', data: { userId: user.userId, authenticationToken, keyHash } }];
    }
    case 'RegenerateApiKey': {
      if (!user.api) throw conflict(API_ACCESS_TEXTS.noApiAccess);
      // Replaces the key the caller saw, not one issued meanwhile (which someone was just shown).
      if (user.api.keyHash !== command.replacingKeyHash) throw conflict(API_ACCESS_TEXTS.apiKeyChanged);
      return [{ type: 'UserApiKeyRegenerated', data: { userId: user.userId, keyHash: command.keyHash } }];
    }
    case 'RevokeApiAccess':
      return user.api ? [{ type: 'UserApiAccessRevoked', data: { userId: user.userId } }] : [];
  }
}

export function evolveApiAccess(user: ActiveUser, event: ApiAccessEvent): ActiveUser {
  switch (event.type) {
    case 'UserApiAccessGranted':
      return { ...user, api: { token: event.data.authenticationToken, keyHash: event.data.keyHash } };
    case 'UserApiKeyRegenerated':
      return user.api ? { ...user, api: { ...user.api, keyHash: event.data.keyHash } } : user;
    case 'UserApiAccessRevoked':
      return { ...user, api: null };
  }
}
