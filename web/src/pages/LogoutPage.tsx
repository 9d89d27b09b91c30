import { useEffect, useRef } from 'react';
import { useAuth } from '../auth/auth-context.ts';
import { PageSpinner } from '../ui/PageSpinner.tsx';

/** /logout ends the session and lands on /login. */
export function LogoutPage() {
  const { logout } = useAuth();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void logout();
  }, [logout]);
  return <PageSpinner label="Signing out" />;
}
