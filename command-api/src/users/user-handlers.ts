import type {
  agreeToTerms,
  archiveUser,
  createUser,
  forgetDevice,
  grantUserApiAccess,
  regenerateApiKey,
  resetMfa,
  restoreUser,
  revokeUserApiAccess,
  toggleUserAdmin,
  toggleUserMfaRequired,
  updateUser,
} from '@mrn/contracts';
import { type Actor, type Handler, newId, notFound } from '@mrn/platform';
import { ACCOUNT_TEXTS } from '../accounts/account.ts';
import { loadAccount } from '../accounts/account-service.ts';
import { checkEmailDomain } from '../accounts/members.ts';
import { transact } from '../command-handler.ts';
import { type CommandDeps, metadataFor } from '../context.ts';
import { normaliseEmail } from '../credentials/email.ts';
import { closeApiSessions, closeUserSessions } from '../credentials/sessions.ts';
import { hashSecret, newSecret } from '../credentials/tokens.ts';
import { apiTokens, users } from './aggregates.ts';
import { sendInvitation } from './reset-links.ts';
import type { UserCommand, UserState } from './user.ts';
import { loadUser, moveEmail, registerUser } from './user-service.ts';

type Simple =
  | typeof archiveUser
  | typeof restoreUser
  | typeof toggleUserAdmin
  | typeof revokeUserApiAccess
  | typeof forgetDevice
  | typeof resetMfa
  | typeof agreeToTerms;

export function userHandlers(deps: CommandDeps) {
  const ctxOf = (actor: Actor) => ({ now: deps.clock.now(), actor });
  const runOn = (
    req: Parameters<typeof metadataFor>[0] & { actor: Actor; params: { id: string } },
    command: UserCommand | ((s: UserState) => UserCommand | Promise<UserCommand>),
  ) => users.handle(deps, req.params.id, command, ctxOf(req.actor), metadataFor(req));
  const simple =
    (command: UserCommand, after?: (userId: string) => Promise<void>): Handler<Simple> =>
    async (req) => {
      const result = await runOn(req, command);
      if (after && result.events.length > 0) await after(req.params.id);
      return { data: { resource_id: req.params.id }, position: result.position };
    };
  const endSessions = (userId: string) => closeUserSessions(deps.pool, userId);

  const createUserHandler: Handler<typeof createUser> = async (req) => {
    const accountId = req.params.id;
    // Another funder's account answers as one that does not exist: nothing about it is revealed.
    if (!req.actor.isDmAdmin && req.actor.accountId !== accountId) throw notFound(ACCOUNT_TEXTS.notFound);
    const account = (await loadAccount(deps, accountId)).state;
    if (account.status !== 'open') throw notFound(ACCOUNT_TEXTS.notFound);
    await checkEmailDomain(deps, req.actor, accountId, req.body.user.email);
    const userId = newId();
    const result = await registerUser(
      deps,
      {
        userId,
        accountId,
        email: req.body.user.email,
        firstName: req.body.user.first_name,
        lastName: req.body.user.last_name,
        isAdmin: false,
        isDmAdmin: false,
        // Unusable until the member sets their own through the invitation link.
        password: newSecret(),
        agreedToTermsAt: null,
      },
      ctxOf(req.actor),
      metadataFor(req),
    );
    const invited = await sendInvitation(
      deps,
      userId,
      normaliseEmail(req.body.user.email),
      account.name,
      metadataFor(req),
    );
    req.reply.code(201);
    return { data: { resource_id: userId }, position: invited ?? result.position };
  };

  // The change, the domain rule and a changed e-mail's reservation move are decided together and
  // appended at once: a refusal anywhere writes nothing and leaves both addresses as they were.
  const updateUserHandler: Handler<typeof updateUser> = async (req) => {
    const userId = req.params.id;
    const email = normaliseEmail(req.body.user.email);
    const { position } = await transact(
      deps,
      { ctx: ctxOf(req.actor), metadata: metadataFor(req) },
      async (unit) => {
        const before = await unit.load(users, userId);
        await unit.decide(users, userId, {
          type: 'UpdateUser',
          firstName: req.body.user.first_name,
          lastName: req.body.user.last_name,
          email,
        });
        if (before.status === 'none' || email === before.email) return;
        await checkEmailDomain(deps, req.actor, before.accountId, email);
        await moveEmail(unit, userId, before.email, email);
      },
    );
    return { data: { resource_id: userId }, position };
  };

  /**
   * New API credentials, shown once. A grant reserves its token (`api-token-{sha256}`) in the same append
   * as the user's grant, so POST /api/v2/token accepts them the moment they are shown, on any process,
   * without waiting for a read model. A regeneration replaces the key the caller saw (of regenerations
   * sent at once one wins) and ends the API tokens issued under the old key.
   */
  const issueCredentials =
    (kind: 'grant' | 'regenerate'): Handler<typeof grantUserApiAccess | typeof regenerateApiKey> =>
    async (req) => {
      const userId = req.params.id;
      const key = newSecret(24);
      const { state } = await loadUser(deps.store, userId);
      const token = state.status !== 'none' && state.api ? state.api.token : `mrn_${newSecret(12)}`;
      let accountHasApiAccess = false;
      if (state.status !== 'none') {
        const account = (await loadAccount(deps, state.accountId)).state;
        accountHasApiAccess = account.status === 'open' && account.canAccessApi;
      }
      const command: UserCommand =
        kind === 'grant'
          ? {
              type: 'GrantApiAccess',
              accountHasApiAccess,
              authenticationToken: token,
              keyHash: hashSecret(key),
            }
          : {
              type: 'RegenerateApiKey',
              keyHash: hashSecret(key),
              replacingKeyHash: state.status !== 'none' && state.api ? state.api.keyHash : '',
            };
      const { position } = await transact(
        deps,
        { ctx: ctxOf(req.actor), metadata: metadataFor(req) },
        async (unit) => {
          await unit.decide(users, userId, command);
          // Also on a regeneration: a token granted before reservations existed gets one here.
          await unit.decide(apiTokens, hashSecret(token), { type: 'AssignApiToken', userId });
        },
      );
      if (kind === 'regenerate') await closeApiSessions(deps.pool, { userId });
      // The key is shown in full here only; the log keeps its hash.
      return { data: { authentication_token: token, authentication_key: key }, position };
    };

  const toggleMfaRequiredHandler: Handler<typeof toggleUserMfaRequired> = async (req) => {
    const result = await runOn(req, async (state) => {
      const accountId = state.status === 'none' ? '' : state.accountId;
      const account = (await loadAccount(deps, accountId)).state;
      return {
        type: 'ToggleMfaRequired',
        accountRequiresMfa: account.status !== 'none' && account.mfaRequired,
      };
    });
    return { data: { resource_id: req.params.id }, position: result.position };
  };

  return {
    createUser: createUserHandler,
    updateUser: updateUserHandler,
    archiveUser: simple({ type: 'ArchiveUser' }, endSessions),
    restoreUser: simple({ type: 'RestoreUser' }),
    toggleUserAdmin: simple({ type: 'ToggleAdmin' }),
    toggleUserMfaRequired: toggleMfaRequiredHandler,
    grantUserApiAccess: issueCredentials('grant'),
    regenerateApiKey: issueCredentials('regenerate'),
    revokeUserApiAccess: simple({ type: 'RevokeApiAccess' }, (userId) =>
      closeApiSessions(deps.pool, { userId }),
    ),
    forgetDevice: simple({ type: 'ForgetDevice' }),
    resetMfa: simple({ type: 'ResetMfa' }, endSessions),
    agreeToTerms: simple({ type: 'AgreeToTerms' }),
  };
}
