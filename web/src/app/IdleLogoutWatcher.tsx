import { MESSAGES } from '@mrn/contracts';
import { useCallback } from 'react';
import { useAuth } from '../auth/auth-context.ts';
import { useIdleLogout } from '../auth/use-idle-logout.ts';
import { IdleWarningBanner } from '../layout/IdleWarningBanner.tsx';
import { showError } from '../ui/toaster.ts';

/** Signs an idle session out after 6 hours, warning 30 seconds before (core spec §9). */
export function IdleLogoutWatcher() {
  const { state, logout } = useAuth();
  const onExpire = useCallback(() => {
    showError(MESSAGES.sessionEnded);
    void logout({ rememberCurrentRoute: true });
  }, [logout]);
  const { secondsLeft, stayActive } = useIdleLogout(state.status === 'signed-in', onExpire);
  return secondsLeft === null ? null : <IdleWarningBanner secondsLeft={secondsLeft} onStay={stayActive} />;
}
