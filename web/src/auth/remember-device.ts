// Remember-device tokens (DESIGN §5): the OTP register and verify answers carry one when "Remember
// this device" was ticked; sign-in presents it in the x-remember-device header so the server can skip
// the MFA step. One browser may be shared by several people, so tokens are kept per e-mail address.
const STORAGE_KEY = 'mrn.remember_device';

export type DeviceTokens = Readonly<Record<string, string>>;

const keyOf = (email: string) => email.trim().toLowerCase();

/** The stored map, tolerating anything unreadable (another version, a hand edit) as empty. */
export function parseDeviceTokens(raw: string | null): DeviceTokens {
  if (!raw) return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(
      Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
  } catch {
    return {};
  }
}

/** The map with the token of one address set, or removed when `token` is null. */
export function withDeviceToken(tokens: DeviceTokens, email: string, token: string | null): DeviceTokens {
  const { [keyOf(email)]: _previous, ...rest } = tokens;
  return token ? { ...rest, [keyOf(email)]: token } : rest;
}

export const deviceTokenIn = (tokens: DeviceTokens, email: string): string | null =>
  tokens[keyOf(email)] ?? null;

function load(): DeviceTokens {
  try {
    return parseDeviceTokens(window.localStorage.getItem(STORAGE_KEY));
  } catch {
    return {};
  }
}

function save(tokens: DeviceTokens): void {
  try {
    if (Object.keys(tokens).length === 0) window.localStorage.removeItem(STORAGE_KEY);
    else window.localStorage.setItem(STORAGE_KEY, JSON.stringify(tokens));
  } catch {
    // Without storage the device is simply not remembered.
  }
}

export const readDeviceToken = (email: string): string | null => deviceTokenIn(load(), email);

export function storeDeviceToken(email: string, token: string | null): void {
  save(withDeviceToken(load(), email, token));
}
