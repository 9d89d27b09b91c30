import type { SessionUser } from '@mrn/contracts';
import { createContext, useContext } from 'react';

export type AuthState =
  | { status: 'restoring' }
  | { status: 'anonymous' }
  | { status: 'signed-in'; user: SessionUser; bypassMfa: boolean };

export interface SignInAnswer {
  jwt: string;
  user: SessionUser;
  bypass_mfa: boolean;
}

export interface AuthContextValue {
  state: AuthState;
  /** Stores the session of a successful login and continues with post-login routing. */
  signIn(answer: SignInAnswer): void;
  /** Replaces the session user (after MFA, terms or a dashboard update). */
  updateUser(user: SessionUser): void;
  /** Post-login routing from where the session stands now (after a sign-in step is passed). */
  continueAfterSignIn(user: SessionUser): void;
  logout(options?: { rememberCurrentRoute?: boolean }): Promise<void>;
  loggingOut: boolean;
}

export const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth needs an AuthProvider');
  return auth;
}

/** The session user, for screens that only render behind a sign-in guard. */
export function useSignedInUser(): SessionUser {
  const { state } = useAuth();
  if (state.status !== 'signed-in') throw new Error('useSignedInUser needs a signed-in session');
  return state.user;
}
