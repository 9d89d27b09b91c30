import {
  type adminChangePassword,
  type changePassword,
  type forgotPassword,
  INVITATION_LINK_PARAM,
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
import { type ActiveUser, USER_TEXTS, userDecider } from '../users/user.ts';
import { findUserIdByEmail, loadUser, normaliseEmail } from '../users/user-service.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { closeUserSessions } from './sessions.ts';
import { Throttle } from './throttle.ts';
import { hashSecret, newSecret } from './tokens.ts';

export const PASSWORD_TEXTS = {
  wrongOldPassword: 'The current password is not correct.',
  badResetLink: USER_TEXTS.badResetLink,
  tooMany: 'Too many attempts. Please wait and try again.',
} as const;

const RESET_TTL_MS = 60 * 60 * 1000;
const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const RESET_TTL = { resetMs: RESET_TTL_MS, invitationMs: INVITATION_TTL_MS } as const;
const RESET_THROTTLE = { failures: 10, windowSeconds: 15 * 60 };

/** Does the new password equal one of the last five (DESIGN §5)? Each check is an argon2 verify. */
async function reusesPassword(user: ActiveUser, password: string): Promise<boolean> {
  for (const hash of user.passwordHistory.slice(0, PASSWORD_HISTORY)) {
    if (await verifyPassword(hash, password)) return true;
  }
  return false;
}

async function issueResetLink(
  deps: CommandDeps,
  userId: string,
  email: string,
  ttlMs: number,
  metadata: EventMetadata,
  purpose: 'reset' | 'invitation' = 'reset',
) {
  const token = newSecret();
  const result = await executeCommand(
    deps,
    userDecider,
    streams.user(userId),
    {
      type: 'RequestPasswordReset',
      tokenHash: hashSecret(token),
      expiresAt: new Date(deps.clock.now().getTime() + ttlMs).toISOString(),
    },
    { now: deps.clock.now() },
    metadata,
  );
  // E-mailed, and often asked for by someone who is not signed in: PUBLIC_URL or the server's own
  // address, never the request's Host (a forged one would carry the token to its server;
  // platform/src/http/link-origin.ts).
  const link = `${deps.publicUrl}/password_reset?reset_token=${encodeURIComponent(token)}&email=${encodeURIComponent(email)}${purpose === 'invitation' ? `&${INVITATION_LINK_PARAM}=1` : ''}`;
  return { link, position: result.position };
}

/** A new member sets their password through a link valid for 7 days. */
export async function sendInvitation(
  deps: CommandDeps,
  userId: string,
  email: string,
  accountName: string,
  metadata: EventMetadata,
) {
  const { link, position } = await issueResetLink(
    deps,
    userId,
    email,
    INVITATION_TTL_MS,
    metadata,
    'invitation',
  );
  await deps.mailer.send({
    to: email,
    subject: `You have been added to ${deps.config.PRODUCT_NAME}`,
    text: `You have been added as a member of ${accountName} on ${deps.config.PRODUCT_NAME}.\n\nSet your password here (valid for 7 days):\n${link}\n`,
  });
  return position;
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
