import type { SessionUser } from '@mrn/contracts/routes/auth';
import { useEffect, useRef } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { rememberAttemptedRoute } from '../auth/attempted-route.ts';
import { useAuth, useSignedInUser } from '../auth/auth-context.ts';
import { canUseMerchantSubscriptions } from '../auth/permissions.ts';
import { pendingSessionStep } from '../auth/post-login-route.ts';
import { PageSpinner } from '../ui/PageSpinner.tsx';
import { PATHS } from './paths.ts';

/** Sends the visitor elsewhere, remembering this route to come back to after signing in. */
function RedirectRemembering({ to }: { to: string }) {
  const { pathname, search, hash } = useLocation();
  useEffect(() => rememberAttemptedRoute(pathname + search + hash), [pathname, search, hash]);
  return <Navigate to={to} replace />;
}

/** A role the route needs is missing: log out and sign in again (core spec §4). */
function LogoutAndSignIn() {
  const { logout } = useAuth();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void logout({ rememberCurrentRoute: true });
  }, [logout]);
  return <PageSpinner label="Signing out" />;
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
  return has(user) ? <Outlet /> : <LogoutAndSignIn />;
}

export const isAccountAdmin = (user: SessionUser) => user.is_admin;
export const isPlatformAdmin = (user: SessionUser) => user.is_dm_admin;

/** Merchant subscriptions: an account admin (else log out) whose account has them (else the dashboard). */
export function RequireMerchantSubscriptions() {
  const user = useSignedInUser();
  if (!user.is_admin) return <LogoutAndSignIn />;
  if (!canUseMerchantSubscriptions(user)) return <Navigate to={PATHS.dashboard} replace />;
  return <Outlet />;
}
