import { LOGIN_THROTTLE, MESSAGES, type Routes, streams } from '@mrn/contracts';
import { type Actor, DomainError, type Handler, newId, type TokenClaims, unauthorized } from '@mrn/platform';
import { DUMMY_HASH, verifyPassword } from '../auth/passwords.ts';
import { toSessionUser } from '../auth/session-user.ts';
import { closeSession, openSession } from '../auth/sessions.ts';
import { Throttle } from '../auth/throttle.ts';
import { executeCommand } from '../command-handler.ts';
import { type CommandDeps, metadataFor } from '../context.ts';
import { userDecider } from '../domain/user/user.ts';
import { loadAccount } from '../services/accounts.ts';
import { findUserIdByEmail, loadUser, normaliseEmail } from '../services/users.ts';

async function contributionOf(deps: CommandDeps, accountId: string): Promise<number> {
  const { rows } = await deps.pool.query<{ c: string }>(
    'select ninety_day_contribution as c from read.accounts where id = $1',
    [accountId],
  );
  return rows[0] ? Number(rows[0].c) : 100;
}

/** The signed-in user's current view, from the event store (never stale after a change of their own). */
async function sessionUserFor(deps: CommandDeps, userId: string, mfaVerified: boolean) {
  const { state: user } = await loadUser(deps.store, userId);
  if (user.status !== 'active') throw unauthorized(MESSAGES.sessionEnded);
  const { state: account } = await loadAccount(deps, user.accountId);
  if (account.status !== 'open') throw unauthorized(MESSAGES.sessionEnded);
  return {
    user,
    account,
    view: toSessionUser(user, account, {
      contributionPercent: await contributionOf(deps, account.accountId),
      mfaVerified,
    }),
  };
}

function signToken(deps: CommandDeps, claims: TokenClaims): string {
  return deps.app.jwt.sign(claims, { expiresIn: deps.config.SESSION_TTL_SECONDS });
}

export function authHandlers(deps: CommandDeps) {
  const throttle = new Throttle(deps.pool, MESSAGES.tooManyAttempts);

  const login: Handler<Routes['login']> = async (req) => {
    const email = normaliseEmail(req.body.auth.email);
    const keys: [string, (typeof LOGIN_THROTTLE)['perEmail' | 'perIp']][] = [
      [`login-email:${email}`, LOGIN_THROTTLE.perEmail],
      [`login-ip:${req.ip}`, LOGIN_THROTTLE.perIp],
    ];
    await throttle.check(keys);
    const userId = await findUserIdByEmail(deps.store, email);
    const user = userId ? (await loadUser(deps.store, userId)).state : undefined;
    const passwordHash = user?.status === 'active' ? user.passwordHash : DUMMY_HASH;
    const matches = await verifyPassword(passwordHash, req.body.auth.password);
    if (!matches || !user || user.status !== 'active') {
      await throttle.recordFailure(keys);
      throw new DomainError(401, MESSAGES.invalidCredentials);
    }
    await throttle.reset([keys[0]![0]]);
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
      { now: new Date() },
      metadataFor(req, { actorUserId: user.userId, actorAccountId: user.accountId }),
    );
    const { view } = await sessionUserFor(deps, user.userId, true);
    const jwt = signToken(deps, {
      sub: user.userId,
      acc: user.accountId,
      sid: sessionId,
      sv: user.sessionVersion,
      adm: user.isAdmin,
      dm: user.isDmAdmin,
      mfa: 'ok',
    });
    return { data: { jwt, user: view, bypass_mfa: false }, position: signedIn.position };
  };

  const autoLogin: Handler<Routes['autoLogin']> = async (req) => {
    const actor: Actor = req.actor;
    const { user, view } = await sessionUserFor(deps, actor.userId, !actor.mfaPending);
    // A fresh token on every load keeps an active user signed in; the server session bounds it.
    const jwt = signToken(deps, {
      sub: user.userId,
      acc: user.accountId,
      sid: actor.sessionId,
      sv: user.sessionVersion,
      adm: user.isAdmin,
      dm: user.isDmAdmin,
      mfa: actor.mfaPending ? 'pending' : 'ok',
    });
    return { data: { jwt, user: view } };
  };

  const logout: Handler<Routes['logout']> = async (req) => {
    await closeSession(deps.pool, req.actor.sessionId);
    const result = await executeCommand(
      deps,
      userDecider,
      streams.user(req.actor.userId),
      { type: 'SignOut', sessionId: req.actor.sessionId },
      { now: new Date(), actor: req.actor },
      metadataFor(req),
    );
    return { data: { ok: true as const }, position: result.position };
  };

  return { login, autoLogin, logout };
}
