/** Sign-in limits (core spec §5, §9; DESIGN §5). */
export const EMAIL_MAX = 64;
export const LOGIN_PASSWORD_MAX = 128;
export const NEW_PASSWORD_MAX = 64;
export const IDLE_LOGOUT_MS = 21_600_000;
export const IDLE_WARNING_MS = 30_000;
export const ACTIVITY_THROTTLE_MS = 500;

/** Throttling of password guesses: failures allowed per window before the key is locked for the window. */
export const LOGIN_THROTTLE = {
  perEmail: { failures: 5, windowSeconds: 15 * 60 },
  perIp: { failures: 20, windowSeconds: 15 * 60 },
} as const;
