import type { SessionUser } from '@mrn/contracts';
import { type ReactNode, useEffect, useRef } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { forgetAttemptedRoute, rememberAttemptedRoute } from '../auth/attempted-route.ts';
import { useAuth, useSignedInUser } from '../auth/auth-context.ts';
import { merchantSubscriptionsAccess } from '../auth/permissions.ts';
import { pendingSessionStep } from '../auth/post-login-route.ts';
import { PATHS } from '../routing/paths.ts';
import { PageSpinner } from '../ui/PageSpinner.tsx';
import { BRIEF_ERROR_TOAST_MS, showError } from '../ui/toaster.ts';

/** Sends the visitor elsewhere, remembering this route to come back to after signing in. */
function RedirectRemembering({ to }: { to: string }) {
  const { pathname, search, hash } = useLocation();
  useEffect(() => rememberAttemptedRoute(pathname + search + hash), [pathname, search, hash]);
  return <Navigate to={to} replace />;
}

export const NO_ACCESS_MESSAGE = 'You do not have access to that page.';

/**
 * A role the route needs is missing. Signing out and in again cannot give the role and, with the route
 * remembered for after sign-in, looped (sign in → this route → sign out → sign in…). So the member lands
 * on the dashboard with a clear message, and the route is never replayed.
 */
function NoAccess() {
  const shown = useRef(false);
  useEffect(() => {
    forgetAttemptedRoute();
    if (shown.current) return;
    shown.current = true;
    showError(NO_ACCESS_MESSAGE, { timeoutMs: BRIEF_ERROR_TOAST_MS });
  }, []);
  return <Navigate to={PATHS.dashboard} replace />;
}

/** Signed in, sign-in steps possibly pending: the MFA, membership and terms screens. */
export function RequireSession() {
  const { state } = useAuth();
  if (state.status === 'restoring') return <PageSpinner label="Signing in" />;
  if (state.status === 'anonymous') return <RedirectRemembering to={PATHS.login} />;
  return <Outlet />;
}

/** Signed in with every sign-in step passed. */
export function RequireMember() {
  const { state } = useAuth();
  if (state.status === 'restoring') return <PageSpinner label="Signing in" />;
  if (state.status === 'anonymous') return <RedirectRemembering to={PATHS.login} />;
  const step = pendingSessionStep(state.user, state.bypassMfa);
  if (step) return <RedirectRemembering to={step} />;
  return <Outlet />;
}

/** A member with a role; nest inside RequireMember. */
export function RequireRole({ has }: { has: (user: SessionUser) => boolean }) {
  const user = useSignedInUser();
  return has(user) ? <Outlet /> : <NoAccess />;
}

export const isAccountAdmin = (user: SessionUser) => user.is_admin;
export const isPlatformAdmin = (user: SessionUser) => user.is_dm_admin;

/**
 * Merchant subscriptions: an account admin whose account has them. An admin whose account does not
 * (BASIC, or PRO with them not turned on), and any member of a BASIC account, sees `unavailable` at the
 * address asked for: what they are, what PRO gives and who can get it. A member of a PRO account is
 * told these pages are not theirs (their administrators').
 */
export function RequireMerchantSubscriptions({ unavailable }: { unavailable: ReactNode }) {
  const access = merchantSubscriptionsAccess(useSignedInUser());
  if (access === 'refuse') return <NoAccess />;
  if (access === 'explain') return unavailable;
  return <Outlet />;
}
