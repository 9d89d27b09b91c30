import { Intent, OverlayToaster, Position, type Toaster } from '@blueprintjs/core';
import './toaster.css';

/** Toast timings of core spec §9 and DESIGN §6. */
export const SUCCESS_TOAST_MS = 6_000;
/** Payment, upgrade and downgrade successes, and "Your payment method has been updated." (accounts §8, §9). */
export const LONG_SUCCESS_TOAST_MS = 10_000;
export const BRIEF_ERROR_TOAST_MS = 10_000;
const PERSISTENT = 0;

let toaster: Promise<Toaster> | null = null;
const getToaster = () => {
  // Errors: top centre, below the top bar (toaster.css), where they are seen; at the very top a toast
  // covered the bar's contribution figure and search, at 1280 px as on a phone.
  toaster ??= OverlayToaster.create({ position: Position.TOP, maxToasts: 5, className: 'mrn-toaster' });
  return toaster;
};

let successToaster: Promise<Toaster> | null = null;
const getSuccessToaster = () => {
  // Successes: in the bottom right corner of the window (toaster.css), out of the way. At the top they
  // covered what sits under the top bar for their 6 seconds, longer while the pointer rested on them:
  // the merchant page's Subscription Enabled switch just pressed, the dashboard's welcome heading, the
  // contribution banner.
  successToaster ??= OverlayToaster.create({
    position: Position.BOTTOM_RIGHT,
    maxToasts: 5,
    className: 'mrn-toaster-success',
  });
  return successToaster;
};

export function showSuccess(
  message: string,
  { timeoutMs = SUCCESS_TOAST_MS }: { timeoutMs?: number } = {},
): void {
  void getSuccessToaster().then((t) =>
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
