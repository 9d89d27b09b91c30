/** Sign-in limits (core spec §5, §9; DESIGN §5). */
export const EMAIL_MAX = 64;
export const LOGIN_PASSWORD_MAX = 128;
export const NEW_PASSWORD_MAX = 64;
export const IDLE_LOGOUT_MS = 21_600_000;
export const IDLE_WARNING_MS = 30_000;
export const ACTIVITY_THROTTLE_MS = 500;

/**
 * Throttling of password guesses: failures allowed per window before the key is locked for the window.
 *
 * The spec's 5 per 15 minutes counts per (e-mail, ip), not per e-mail alone: five wrong passwords sent
 * from anywhere must not lock the owner out from their usual place. Against guessing spread over many
 * addresses, a per-e-mail ceiling 20 times higher still stops an account being tried more than 100 times
 * per window (9,600 a day, hopeless against a 12+ character password stored with argon2). We chose this
 * over exempting a remembered-device cookie: it also protects members without MFA, who have no device
 * cookie, and needs nothing from the browser.
 */
export const LOGIN_THROTTLE = {
  perEmailAndIp: { failures: 5, windowSeconds: 15 * 60 },
  perEmail: { failures: 100, windowSeconds: 15 * 60 },
  perIp: { failures: 20, windowSeconds: 15 * 60 },
} as const;

/** Wrong TOTP codes per signed-in user, and per address, per window. */
export const OTP_THROTTLE = {
  perUser: { failures: 5, windowSeconds: 15 * 60 },
  perIp: { failures: 20, windowSeconds: 15 * 60 },
} as const;
