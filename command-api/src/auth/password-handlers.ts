import {
  type adminChangePassword,
  type changePassword,
  type forgotPassword,
  PASSWORD_HISTORY,
  type passwordReset,
  streams,
} from '@mrn/contracts';
import {
  type Actor,
  type EventMetadata,
  forbidden,
  type Handler,
  invalid,
  type TokenClaims,
} from '@mrn/platform';
import { runInBackground } from '../background.ts';
import { executeCommand } from '../command-handler.ts';
import { type CommandDeps, metadataFor } from '../context.ts';
import { normaliseEmail } from '../credentials/email.ts';
import { hashPassword, verifyPassword } from '../credentials/passwords.ts';
import { closeUserSessions } from '../credentials/sessions.ts';
import { hashSecret } from '../credentials/tokens.ts';
import { issueResetLink, RESET_TTL_MS } from '../users/reset-links.ts';
import { type ActiveUser, USER_TEXTS, userDecider } from '../users/user.ts';
import { findUserIdByEmail, loadUser } from '../users/user-service.ts';
import { Throttle } from './throttle.ts';

export const PASSWORD_TEXTS = {
  wrongOldPassword: 'The current password is not correct.',
  badResetLink: USER_TEXTS.badResetLink,
  tooMany: 'Too many attempts. Please wait and try again.',
} as const;

const RESET_THROTTLE = { failures: 10, windowSeconds: 15 * 60 };

/** Does the new password equal one of the last five (DESIGN §5)? Each check is an argon2 verify. */
async function reusesPassword(user: ActiveUser, password: string): Promise<boolean> {
  for (const hash of user.passwordHistory.slice(0, PASSWORD_HISTORY)) {
    if (await verifyPassword(hash, password)) return true;
  }
  return false;
}

export function passwordHandlers(deps: CommandDeps) {
  const throttle = new Throttle(deps.pool, PASSWORD_TEXTS.tooMany, deps.clock);

  async function change(
    userId: string,
    password: string,
    how: { via: 'profile' | 'admin' } | { via: 'reset'; resetTokenHash: string },
    ctx: { now: Date; actor?: Actor },
    metadata: EventMetadata,
  ) {
    const { state } = await loadUser(deps.store, userId);
    const matchesHistory = state.status === 'active' && (await reusesPassword(state, password));
    const passwordHash = await hashPassword(password);
    return executeCommand(
      deps,
      userDecider,
      streams.user(userId),
      { type: 'ChangePassword', passwordHash, matchesHistory, ...how },
      ctx,
      metadata,
    );
  }

  const changePasswordHandler: Handler<typeof changePassword> = async (req) => {
    if (req.actor.userId !== req.params.id) throw forbidden('You can only change your own password here.');
    const { state } = await loadUser(deps.store, req.params.id);
    if (state.status !== 'active' || !(await verifyPassword(state.passwordHash, req.body.old_password))) {
      throw invalid(PASSWORD_TEXTS.wrongOldPassword, {
        fields: [{ field: 'old_password', message: PASSWORD_TEXTS.wrongOldPassword }],
      });
    }
    const result = await change(
      req.params.id,
      req.body.new_password,
      { via: 'profile' },
      { now: deps.clock.now(), actor: req.actor },
      metadataFor(req),
    );
    // Every other session ends; this one carries on with a token of the new session version.
    await closeUserSessions(deps.pool, req.params.id, req.actor.sessionId);
    const claims: TokenClaims = {
      sub: req.actor.userId,
      acc: req.actor.accountId,
      sid: req.actor.sessionId,
      sv: state.sessionVersion + 1,
      adm: req.actor.isAdmin,
      dm: req.actor.isDmAdmin,
      mfa: req.actor.mfaPending ? 'pending' : 'ok',
    };
    const jwt = deps.app.jwt.sign(claims, { expiresIn: deps.config.SESSION_TTL_SECONDS });
    return { data: { resource_id: req.params.id, jwt }, position: result.position };
  };

  const adminChangePasswordHandler: Handler<typeof adminChangePassword> = async (req) => {
    const result = await change(
      req.params.id,
      req.body.new_password,
      { via: 'admin' },
      { now: deps.clock.now(), actor: req.actor },
      metadataFor(req),
    );
    await closeUserSessions(deps.pool, req.params.id);
    return { data: { resource_id: req.params.id }, position: result.position };
  };

  const forgotPasswordHandler: Handler<typeof forgotPassword> = async (req) => {
    await throttle.take([[`forgot-ip:${req.ip}`, RESET_THROTTLE]]);
    const email = normaliseEmail(req.body.email);
    const metadata = metadataFor(req);
    // Answer first: looking the address up, recording the link and sending the mail take time only for
    // a known address, and the answer must not tell anyone which addresses are members.
    runInBackground(deps.logger, 'password reset e-mail', async () => {
      const userId = await findUserIdByEmail(deps.store, email);
      const user = userId ? (await loadUser(deps.store, userId)).state : undefined;
      if (user?.status !== 'active') return;
      const { link } = await issueResetLink(deps, user.userId, email, RESET_TTL_MS, metadata);
      await deps.mailer.send({
        to: email,
        subject: `Reset your ${deps.config.PRODUCT_NAME} password`,
        text: `Someone asked to reset the password of ${email}.\n\nReset it here (valid for 1 hour, once):\n${link}\n\nIf it was not you, ignore this e-mail.\n`,
      });
    });
    return { data: { ok: true as const } };
  };

  const passwordResetHandler: Handler<typeof passwordReset> = async (req) => {
    const email = normaliseEmail(req.body.email);
    const attempt = await throttle.take([
      [`reset-ip:${req.ip}`, RESET_THROTTLE],
      [`reset-email:${email}`, RESET_THROTTLE],
    ]);
    const userId = await findUserIdByEmail(deps.store, email);
    if (!userId) throw invalid(PASSWORD_TEXTS.badResetLink);
    await change(
      userId,
      req.body.new_password,
      { via: 'reset', resetTokenHash: hashSecret(req.body.reset_token) },
      { now: deps.clock.now() },
      metadataFor(req, { actorUserId: userId }),
    );
    await attempt.succeeded();
    await closeUserSessions(deps.pool, userId);
    return { data: { ok: true as const } };
  };

  return {
    changePassword: changePasswordHandler,
    adminChangePassword: adminChangePasswordHandler,
    forgotPassword: forgotPasswordHandler,
    passwordReset: passwordResetHandler,
  };
}
