// The session token lives in localStorage so a reload or a new tab stays signed in (auto login).
const TOKEN_KEY = 'mrn.token';
// Whether the server let this session skip MFA verification (remembered device); kept beside the
// token because auto login answers only the user, and a reload must not send the user back to MFA.
const BYPASS_MFA_KEY = 'mrn.bypass_mfa';

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Storage can be unavailable (private mode, quota); the session then lasts for this page only.
  }
}

export const readToken = (): string | null => read(TOKEN_KEY);
export const storeToken = (token: string): void => write(TOKEN_KEY, token);
export const readBypassMfa = (): boolean => read(BYPASS_MFA_KEY) === 'true';
export const storeBypassMfa = (bypass: boolean): void => write(BYPASS_MFA_KEY, bypass ? 'true' : null);

export function clearToken(): void {
  write(TOKEN_KEY, null);
  write(BYPASS_MFA_KEY, null);
}
