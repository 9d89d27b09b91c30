import { Intent, OverlayToaster, Position, type Toaster } from '@blueprintjs/core';
import './toaster.css';

/** Toast timings of core spec §9 and DESIGN §6. */
export const SUCCESS_TOAST_MS = 6_000;
/** Payment, upgrade and downgrade successes, and "Your payment method has been updated." (accounts §8, §9). */
export const LONG_SUCCESS_TOAST_MS = 10_000;
export const BRIEF_ERROR_TOAST_MS = 10_000;
const PERSISTENT = 0;

/**
 * Where every toast opens: the bottom right corner of the window (toaster.css), errors as successes
 * (issue 32). At the top, even below the top bar, a toast covered what a page opens with for as long as
 * it showed (an error until dismissed): the dashboard's welcome heading, the contribution warning and
 * lock banners, a page's title and its buttons, at 1280 px as on a phone.
 */
const TOAST_POSITION = Position.BOTTOM_RIGHT;

let toaster: Promise<Toaster> | null = null;
const getToaster = () => {
  toaster ??= OverlayToaster.create({ position: TOAST_POSITION, maxToasts: 5, className: 'mrn-toaster' });
  return toaster;
};

export function showSuccess(
  message: string,
  { timeoutMs = SUCCESS_TOAST_MS }: { timeoutMs?: number } = {},
): void {
  void getToaster().then((t) =>
    t.show({ message, intent: Intent.SUCCESS, icon: 'tick-circle', timeout: timeoutMs }),
  );
}

/** A shown toast, to dismiss once it no longer applies. */
export type ToastKey = Promise<string>;

/** Errors stay until dismissed, unless a shorter life is asked for (sign-in and MFA failures: 10 s). */
export function showError(
  message: string,
  { timeoutMs = PERSISTENT }: { timeoutMs?: number } = {},
): ToastKey {
  return getToaster().then((t) =>
    t.show({ message, intent: Intent.DANGER, icon: 'error', timeout: timeoutMs }),
  );
}

export function dismissToast(key: ToastKey): void {
  void Promise.all([getToaster(), key]).then(([t, resolvedKey]) => t.dismiss(resolvedKey));
}
