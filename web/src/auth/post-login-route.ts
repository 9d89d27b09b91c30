import type { SessionUser } from '@mrn/contracts';
import { PATHS } from '../routing/paths.ts';

export type SessionStepUser = Pick<
  SessionUser,
  'mfa_required' | 'mfa_enabled' | 'mfa_verified' | 'active_membership' | 'is_dm_admin' | 'agreed_to_terms'
>;

/** The first sign-in step the user still has to pass (core spec §4, steps 1–4), or null when done. */
export function pendingSessionStep(user: SessionStepUser, bypassMfa: boolean): string | null {
  if (user.mfa_required && !user.mfa_enabled) return PATHS.mfaRegistration;
  if (user.mfa_required && user.mfa_enabled && !user.mfa_verified && !bypassMfa) return PATHS.mfaVerification;
  if (!user.active_membership && !user.is_dm_admin) return PATHS.membership;
  if (user.agreed_to_terms === null) return PATHS.agreeToTerms;
  return null;
}

/** Where a user goes after signing in: the pending step, else the route first attempted, else the dashboard. */
export function postLoginRoute(
  user: SessionStepUser,
  bypassMfa: boolean,
  attemptedRoute: string | null,
): string {
  return pendingSessionStep(user, bypassMfa) ?? attemptedRoute ?? PATHS.dashboard;
}
