import { MESSAGES } from '@mrn/contracts';
import { useCallback } from 'react';
import { IdleWarningBanner } from '../layout/IdleWarningBanner.tsx';
import { showError } from '../ui/toaster.ts';
import { useAuth } from './auth-context.ts';
import { useIdleLogout } from './use-idle-logout.ts';

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
