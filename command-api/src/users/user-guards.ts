import { type Actor, forbidden, gone, notFound } from '@mrn/platform';
import type { CommandContext } from '../decider.ts';
import type { ActiveUser, UserState } from './user-state.ts';

// Which member a command acts on and who may ask, for user.ts and every concern file beside it: kept
// out of user.ts, which imports those files, so that they take only types from it (no import cycle).

export const GUARD_TEXTS = {
  notFound: 'Member not found.',
  archived: 'This member has been archived.',
} as const;

export function active(state: UserState): ActiveUser & { status: 'active' } {
  if (state.status === 'none') throw notFound(GUARD_TEXTS.notFound);
  if (state.status === 'archived') throw gone(GUARD_TEXTS.archived);
  return state as ActiveUser & { status: 'active' };
}

/** Platform admins manage everyone; account admins manage the members of their own account. */
export function canManage(actor: Actor | undefined, user: ActiveUser): boolean {
  if (!actor) return false;
  if (actor.isDmAdmin) return true;
  return actor.isAdmin && actor.accountId === user.accountId && !user.isDmAdmin;
}

/**
 * Another funder's member answers exactly as a member that does not exist (404), so a refusal reveals
 * nothing of the other funder; within one's own funder a refusal is a plain 403.
 */
const hiddenFrom = (actor: Actor | undefined, user: ActiveUser): boolean =>
  !actor || (!actor.isDmAdmin && actor.accountId !== user.accountId);
const refuse = (ctx: CommandContext, user: ActiveUser): never => {
  if (hiddenFrom(ctx.actor, user)) throw notFound(GUARD_TEXTS.notFound);
  throw forbidden();
};

export const assertManager = (ctx: CommandContext, user: ActiveUser): void => {
  if (!canManage(ctx.actor, user)) refuse(ctx, user);
};
export const assertSelfOrManager = (ctx: CommandContext, user: ActiveUser): void => {
  if (ctx.actor?.userId !== user.userId && !canManage(ctx.actor, user)) refuse(ctx, user);
};
/** The member's own acts (their authenticator, their consent, their password from the profile). */
export const assertSelf = (ctx: CommandContext, user: ActiveUser): void => {
  if (ctx.actor?.userId !== user.userId) throw forbidden();
};
