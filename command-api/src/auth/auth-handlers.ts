import {
  type dashboardUpdates,
  LOGIN_THROTTLE,
  MESSAGES,
  OTP_THROTTLE,
  type otpNew,
  type otpRegister,
  type otpVerify,
  REMEMBER_DEVICE_HEADER,
  type Routes,
  streams,
} from '@mrn/contracts';
import { type Actor, conflict, type Handler, newId, type TokenClaims, unauthorized } from '@mrn/platform';
import { generateSecret, generateURI, verify } from 'otplib';
import { loadAccount } from '../accounts/account-service.ts';
import { executeCommand } from '../command-handler.ts';
import { type CommandDeps, metadataFor } from '../context.ts';
import { normaliseEmail } from '../credentials/email.ts';
import { DUMMY_HASH, verifyPassword } from '../credentials/passwords.ts';
import { closeSession, openSession } from '../credentials/sessions.ts';
import { hashSecret, newSecret, secretMatches } from '../credentials/tokens.ts';
import { type ActiveUser, userDecider } from '../users/user.ts';
import { findUserIdByEmail, loadUser } from '../users/user-service.ts';
import { mfaRequiredFor, toSessionUser } from './session-user.ts';
import { Throttle } from './throttle.ts';

export const MFA_TEXTS = {
  failed: 'Failed',
  notEnabled: 'Multi-factor authentication is not set up for this user.',
} as const;

const REMEMBER_DAYS = 30;

async function contributionOf(deps: CommandDeps, accountId: string): Promise<number> {
  const { rows } = await deps.pool.query<{ c: string }>(
    'select coalesce((select ninety_day from read.account_contribution where account_id = $1), 100) as c',
    [accountId],
  );
  return rows[0] ? Number(rows[0].c) : 100;
}

/** The signed-in user's current view, from the event store (never stale after a change of their own). */
async function sessionUserFor(deps: CommandDeps, userId: string, mfaVerified: boolean) {
  const { state: user, revision } = await loadUser(deps.store, userId);
  if (user.status !== 'active') throw unauthorized(MESSAGES.sessionEnded);
  const { state: account } = await loadAccount(deps, user.accountId);
  if (account.status !== 'open') throw unauthorized(MESSAGES.sessionEnded);
  const view = toSessionUser(user, account, {
    contributionPercent: await contributionOf(deps, account.accountId),
    mfaVerified,
  });
  return { user: { ...user, revision }, account, view };
}

/**
 * A session token with the user's roles as her stream has them, and that stream's revision (`urv`): the
 * session check takes the roles from the read model unless it has not yet applied that revision (a role
 * given just before signing in works at once).
 */
function signToken(
  deps: CommandDeps,
  user: ActiveUser & { revision: bigint | 'no_stream' },
  sessionId: string,
  mfa: TokenClaims['mfa'],
): string {
  const claims: TokenClaims = {
    sub: user.userId,
    acc: user.accountId,
    sid: sessionId,
    sv: user.sessionVersion,
    adm: user.isAdmin,
    dm: user.isDmAdmin,
    mfa,
    ...(typeof user.revision === 'bigint' ? { urv: Number(user.revision) } : {}),
  };
  return deps.app.jwt.sign(claims, { expiresIn: deps.config.SESSION_TTL_SECONDS });
}

/** A remembered device skips the MFA step for 30 days (DESIGN §5). */
function deviceRemembered(user: ActiveUser, token: string | undefined, now: Date): boolean {
  const device = user.rememberedDevice;
  return !!token && !!device && new Date(device.expiresAt) > now && secretMatches(token, device.tokenHash);
}

export function authHandlers(deps: CommandDeps) {
  const throttle = new Throttle(deps.pool, MESSAGES.tooManyAttempts, deps.clock);

  const login: Handler<Routes['login']> = async (req) => {
    const email = normaliseEmail(req.body.auth.email);
    const emailAndIp = `login-email-ip:${email}|${req.ip}`;
    const attempt = await throttle.take([
      [emailAndIp, LOGIN_THROTTLE.perEmailAndIp],
      [`login-email:${email}`, LOGIN_THROTTLE.perEmail],
      [`login-ip:${req.ip}`, LOGIN_THROTTLE.perIp],
    ]);
    const userId = await findUserIdByEmail(deps.store, email);
    const user = userId ? (await loadUser(deps.store, userId)).state : undefined;
    const passwordHash = user?.status === 'active' ? user.passwordHash : DUMMY_HASH;
    const matches = await verifyPassword(passwordHash, req.body.auth.password);
    if (!matches || !user || user.status !== 'active') throw unauthorized(MESSAGES.invalidCredentials);
    await attempt.succeeded([emailAndIp]);
    const { state: account } = await loadAccount(deps, user.accountId);
    if (account.status !== 'open') throw unauthorized(MESSAGES.invalidCredentials);

    const header = req.request.headers[REMEMBER_DEVICE_HEADER];
    const mfaRequired = mfaRequiredFor(user, account);
    const bypass =
      mfaRequired &&
      user.mfaSecret !== null &&
      deviceRemembered(user, typeof header === 'string' ? header : undefined, deps.clock.now());
    const mfa: TokenClaims['mfa'] = !mfaRequired || bypass ? 'ok' : 'pending';

    const sessionId = newId();
    await openSession(deps.pool, {
      id: sessionId,
      userId: user.userId,
      accountId: user.accountId,
      ttlSeconds: deps.config.SESSION_TTL_SECONDS,
      ip: req.ip,
      userAgent: req.userAgent,
    });
    const signedIn = await executeCommand(
      deps,
      userDecider,
      streams.user(user.userId),
      { type: 'SignIn', sessionId },
      { now: deps.clock.now() },
      metadataFor(req, { actorUserId: user.userId, actorAccountId: user.accountId }),
    );
    const { user: current, view } = await sessionUserFor(deps, user.userId, mfa === 'ok');
    return {
      data: { jwt: signToken(deps, current, sessionId, mfa), user: view, bypass_mfa: bypass },
      position: signedIn.position,
    };
  };

  const autoLogin: Handler<Routes['autoLogin']> = async (req) => {
    const actor: Actor = req.actor;
    const { user, view } = await sessionUserFor(deps, actor.userId, !actor.mfaPending);
    // A fresh token on every load keeps an active user signed in; the server session bounds it.
    return {
      data: { jwt: signToken(deps, user, actor.sessionId, actor.mfaPending ? 'pending' : 'ok'), user: view },
    };
  };

  const logout: Handler<Routes['logout']> = async (req) => {
    await closeSession(deps.pool, req.actor.sessionId);
    const result = await executeCommand(
      deps,
      userDecider,
      streams.user(req.actor.userId),
      { type: 'SignOut', sessionId: req.actor.sessionId },
      { now: deps.clock.now(), actor: req.actor },
      metadataFor(req),
    );
    return { data: { ok: true as const }, position: result.position };
  };

  const otpNewHandler: Handler<typeof otpNew> = async (req) => {
    const { state } = await loadUser(deps.store, req.actor.userId);
    if (state.status !== 'active') throw unauthorized();
    const secret = generateSecret();
    return {
      data: {
        otp_secret: secret,
        otp_url: generateURI({ issuer: deps.config.PRODUCT_NAME, label: state.email, secret }),
      },
    };
  };

  /** After a good code: optionally remember the device, then a token whose MFA step is done. */
  async function completeMfa(req: Parameters<Handler<typeof otpVerify>>[0], rememberDevice: boolean) {
    let rememberToken: string | null = null;
    if (rememberDevice) {
      rememberToken = newSecret();
      await executeCommand(
        deps,
        userDecider,
        streams.user(req.actor.userId),
        {
          type: 'RememberDevice',
          tokenHash: hashSecret(rememberToken),
          ip: req.ip,
          device: req.userAgent,
          expiresAt: new Date(deps.clock.now().getTime() + REMEMBER_DAYS * 86_400_000).toISOString(),
        },
        { now: deps.clock.now(), actor: req.actor },
        metadataFor(req),
      );
    }
    const { user, view } = await sessionUserFor(deps, req.actor.userId, true);
    return {
      data: {
        jwt: signToken(deps, user, req.actor.sessionId, 'ok'),
        user: view,
        remember_token: rememberToken,
      },
    };
  }

  async function checkCode(req: { ip: string; actor: Actor }, secret: string, code: string) {
    const perUser = `otp-user:${req.actor.userId}`;
    const attempt = await throttle.take([
      [perUser, OTP_THROTTLE.perUser],
      [`otp-ip:${req.ip}`, OTP_THROTTLE.perIp],
    ]);
    // ±1 time step (30 s) for clock drift between phone and server.
    const { valid } = await verify({
      secret,
      token: code,
      epochTolerance: 30,
      epoch: Math.floor(deps.clock.now().getTime() / 1000),
    });
    if (!valid) throw unauthorized(MFA_TEXTS.failed);
    await attempt.succeeded([perUser]);
  }

  const otpRegisterHandler: Handler<typeof otpRegister> = async (req) => {
    await checkCode(req, req.body.otp.otp_secret, req.body.otp.code);
    await executeCommand(
      deps,
      userDecider,
      streams.user(req.actor.userId),
      { type: 'EnableMfa', secret: req.body.otp.otp_secret },
      { now: deps.clock.now(), actor: req.actor },
      metadataFor(req),
    );
    return completeMfa(req as never, req.body.otp.remember_device);
  };

  const otpVerifyHandler: Handler<typeof otpVerify> = async (req) => {
    const { state } = await loadUser(deps.store, req.actor.userId);
    if (state.status !== 'active' || !state.mfaSecret) throw conflict(MFA_TEXTS.notEnabled);
    await checkCode(req, state.mfaSecret, req.body.otp.code);
    return completeMfa(req, req.body.otp.remember_device);
  };

  const dashboardUpdatesHandler: Handler<typeof dashboardUpdates> = async (req) => {
    const { view } = await sessionUserFor(deps, req.actor.userId, !req.actor.mfaPending);
    return { data: { user: view } };
  };

  return {
    login,
    autoLogin,
    logout,
    otpNew: otpNewHandler,
    otpRegister: otpRegisterHandler,
    otpVerify: otpVerifyHandler,
    dashboardUpdates: dashboardUpdatesHandler,
  };
}
