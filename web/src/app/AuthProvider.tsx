import { MESSAGES, routes, type SessionUser } from '@mrn/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, startTransition, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { appSettingsQuery } from '../api/app-settings.ts';
import { call } from '../api/client.ts';
import { clearToken, readBypassMfa, readToken, storeBypassMfa, storeToken } from '../api/token-store.ts';
import { setUnauthorizedHandler } from '../api/unauthorized.ts';
import { forgetAttemptedRoute, readAttemptedRoute, rememberAttemptedRoute } from '../auth/attempted-route.ts';
import {
  AuthContext,
  type AuthContextValue,
  type AuthState,
  type SignInAnswer,
} from '../auth/auth-context.ts';
import { pendingSessionStep, postLoginRoute } from '../auth/post-login-route.ts';
import { prefetchDashboard } from '../pages/dashboard/dashboard-data.ts';
import { PRODUCT_NAME } from '../product.ts';
import { PATHS } from '../routing/paths.ts';
import { showError, showSuccess } from '../ui/toaster.ts';

const DASHBOARDS: string[] = [PATHS.dashboard, PATHS.dashboardOld];

const currentRoute = () => window.location.pathname + window.location.search + window.location.hash;

/**
 * The router applies navigations as transitions; a session change made in the same transition
 * renders together with its new route, so no guard sees the new session on the old route (which
 * would remember that route or redirect a second time).
 */
const withNavigation = (update: () => void) => startTransition(update);

export function AuthProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [state, setState] = useState<AuthState>(() =>
    readToken() ? { status: 'restoring' } : { status: 'anonymous' },
  );
  const [loggingOut, setLoggingOut] = useState(false);
  // While logging out, the logout call's own 401 must not start a second logout.
  const loggingOutRef = useRef(false);

  // Bumped when a session ends, so a restore still under way when the user logs out (a direct visit
  // to /logout) gives up instead of storing its token again and failing on a closed session.
  const sessionEpoch = useRef(0);

  const endSession = useCallback(() => {
    sessionEpoch.current += 1;
    clearToken();
    queryClient.clear();
    withNavigation(() => {
      navigate(PATHS.login, { replace: true });
      setState({ status: 'anonymous' });
    });
  }, [navigate, queryClient]);

  const logout = useCallback(
    async ({ rememberCurrentRoute = false }: { rememberCurrentRoute?: boolean } = {}) => {
      if (rememberCurrentRoute) rememberAttemptedRoute(currentRoute());
      loggingOutRef.current = true;
      setLoggingOut(true);
      try {
        if (readToken()) await call(routes.logout).catch(() => undefined);
      } finally {
        loggingOutRef.current = false;
        setLoggingOut(false);
        endSession();
      }
    },
    [endSession],
  );

  useEffect(() => {
    setUnauthorizedHandler(() => {
      if (loggingOutRef.current) return;
      rememberAttemptedRoute(currentRoute());
      endSession();
    });
    return () => setUnauthorizedHandler(null);
  }, [endSession]);

  const goAfterSignIn = useCallback(
    (user: SessionUser, bypassMfa: boolean) => {
      const attempted = readAttemptedRoute();
      const target = postLoginRoute(user, bypassMfa, attempted);
      if (target === attempted) forgetAttemptedRoute();
      // Its data is asked for now, while the dashboard renders, not once it has.
      if (target === PATHS.dashboard) prefetchDashboard(queryClient, user);
      navigate(target, { replace: true });
    },
    [navigate, queryClient],
  );

  const signIn = useCallback(
    (answer: SignInAnswer) => {
      storeToken(answer.jwt);
      storeBypassMfa(answer.bypass_mfa);
      showSuccess(MESSAGES.loggedIn(PRODUCT_NAME));
      withNavigation(() => {
        setState({ status: 'signed-in', user: answer.user, bypassMfa: answer.bypass_mfa });
        goAfterSignIn(answer.user, answer.bypass_mfa);
      });
    },
    [goAfterSignIn],
  );

  const updateUser = useCallback((user: SessionUser) => {
    setState((previous) => (previous.status === 'signed-in' ? { ...previous, user } : previous));
  }, []);

  const continueAfterSignIn = useCallback(
    (user: SessionUser) => {
      withNavigation(() => {
        updateUser(user);
        goAfterSignIn(user, readBypassMfa());
      });
    },
    [goAfterSignIn, updateUser],
  );

  // On load a stored token becomes the session user (auto login), then app settings are loaded;
  // failure of either ends the session (core spec §4).
  const restoreStarted = useRef(false);
  useEffect(() => {
    if (restoreStarted.current || state.status !== 'restoring') return;
    restoreStarted.current = true;
    const epoch = sessionEpoch.current;
    const ended = () => sessionEpoch.current !== epoch || loggingOutRef.current;
    void (async () => {
      // Both at once, with the stored token: the app settings need the session, not its new token,
      // and waiting for one before the other put a round trip on every reload.
      const settings = queryClient.fetchQuery(appSettingsQuery()).then(
        () => true,
        () => false,
      );
      let restored: { jwt: string; user: SessionUser };
      try {
        restored = (await call(routes.autoLogin)).data;
      } catch {
        if (ended()) return;
        await logout({ rememberCurrentRoute: true });
        return;
      }
      if (ended()) return;
      storeToken(restored.jwt);
      // A reload of the dashboard asks for its data now, not once the settings are in and it has rendered.
      if (
        DASHBOARDS.includes(window.location.pathname) &&
        !pendingSessionStep(restored.user, readBypassMfa())
      )
        prefetchDashboard(queryClient, restored.user);
      if (!(await settings)) {
        if (ended()) return;
        showError(MESSAGES.appSettingsFailed);
        await logout({ rememberCurrentRoute: true });
        return;
      }
      if (ended()) return;
      // A reload or a deep link restores the session quietly: the welcome is for an actual sign-in.
      setState({ status: 'signed-in', user: restored.user, bypassMfa: readBypassMfa() });
    })();
  }, [state.status, logout, queryClient]);

  const value = useMemo<AuthContextValue>(
    () => ({ state, signIn, updateUser, continueAfterSignIn, logout, loggingOut }),
    [state, signIn, updateUser, continueAfterSignIn, logout, loggingOut],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
