/** What the user decider knows of a member: its parts (sessions, credentials, API access, guards) share it. */
export interface RememberedDevice {
  tokenHash: string;
  ip: string | null;
  device: string | null;
  expiresAt: string;
}

export interface ActiveUser {
  status: 'active' | 'archived';
  userId: string;
  accountId: string;
  email: string;
  firstName: string;
  lastName: string;
  isAdmin: boolean;
  isDmAdmin: boolean;
  passwordHash: string;
  /** The current hash first, then earlier ones: the no-reuse rule looks at PASSWORD_HISTORY of them. */
  passwordHistory: string[];
  sessionVersion: number;
  agreedToTermsAt: string | null;
  openSessions: string[];
  mfaRequired: boolean;
  mfaSecret: string | null;
  rememberedDevice: RememberedDevice | null;
  api: { token: string; keyHash: string } | null;
  resetToken: { hash: string; expiresAt: string } | null;
}

export type UserState = { status: 'none' } | ActiveUser;
