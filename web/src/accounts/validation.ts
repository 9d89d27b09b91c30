import { EMAIL_MAX, NEW_PASSWORD_MAX } from '@mrn/contracts/domain/session';
import { isEmail } from '@mrn/contracts/http/fields';
import { PASSWORD_MIN } from '@mrn/contracts/routes/users';

/** Errors of a form by field; a field without an entry is valid. */
export type Errors<F extends string> = Partial<Record<F, string>>;

export const isValid = (errors: object): boolean => Object.keys(errors).length === 0;

/** A required text: "{Label} is required", "{Label} must be at most {max} characters". */
export function textError(label: string, value: string, max: number, required = true): string | undefined {
  const trimmed = value.trim();
  if (!trimmed) return required ? `${label} is required` : undefined;
  if (trimmed.length > max) return `${label} must be at most ${max} characters`;
  return undefined;
}

/** A required e-mail address (required, valid, at most 64 by default: specs §5). */
export function emailError(
  label: string,
  value: string,
  max = EMAIL_MAX,
  required = true,
): string | undefined {
  const error = textError(label, value, max, required);
  if (error || !value.trim()) return error;
  return isEmail(value.trim()) ? undefined : `${label} is not a valid email address`;
}

/** Passwords are taken as typed (spaces count): required, at most 64. */
function passwordError(label: string, value: string, { min = 0 }: { min?: number } = {}): string | undefined {
  if (!value) return `${label} is required`;
  if (value.length > NEW_PASSWORD_MAX) return `${label} must be at most ${NEW_PASSWORD_MAX} characters`;
  if (value.length < min) return `${label} must be at least ${min} characters`;
  return undefined;
}

// ---- Passwords (core §5, accounts §5) ----

export interface ChangePasswordValues {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

export const PASSWORD_LABELS = {
  oldPassword: 'Old Password',
  newPassword: 'New Password',
  confirmPassword: 'Confirm Password',
} as const;

/** New and confirm password; the old one only in profile mode (an admin sets a member's without it). */
export function validateChangePassword(
  values: ChangePasswordValues,
  { requireOld }: { requireOld: boolean },
): Errors<keyof ChangePasswordValues> {
  const errors: Errors<keyof ChangePasswordValues> = {};
  if (requireOld) {
    const old = passwordError(PASSWORD_LABELS.oldPassword, values.oldPassword);
    if (old) errors.oldPassword = old;
  }
  const fresh = passwordError(PASSWORD_LABELS.newPassword, values.newPassword, { min: PASSWORD_MIN });
  if (fresh) errors.newPassword = fresh;
  const confirm = passwordError(PASSWORD_LABELS.confirmPassword, values.confirmPassword);
  if (confirm) errors.confirmPassword = confirm;
  else if (values.confirmPassword !== values.newPassword)
    errors.confirmPassword = `${PASSWORD_LABELS.confirmPassword} must match the new password`;
  return errors;
}

export interface PasswordResetValues {
  email: string;
  newPassword: string;
  confirmPassword: string;
}

export function validatePasswordReset(values: PasswordResetValues): Errors<keyof PasswordResetValues> {
  const errors: Errors<keyof PasswordResetValues> = {
    ...validateChangePassword({ oldPassword: '', ...values }, { requireOld: false }),
  };
  const email = emailError('Email', values.email);
  if (email) errors.email = email;
  return errors;
}

export function validateForgotPassword(values: { email: string }): Errors<'email'> {
  const email = emailError('Email', values.email);
  return email ? { email } : {};
}

// ---- MFA (core §5) ----

export const OTP_CODE_MESSAGE = 'Code must be 6 digits';

/** Exactly six digits (spaces typed by the user are ignored). */
export const otpCodeError = (code: string): string | undefined =>
  /^\d{6}$/.test(code.replace(/\s/g, '')) ? undefined : OTP_CODE_MESSAGE;

// ---- Funder / account (accounts §2, §5) ----

export interface AccountInfoValues {
  name: string;
  website: string;
  primary_contact_email: string;
  merchant_subscription_enabled: boolean;
  merchant_subscription_notification_email: string;
  merchant_subscription_notification_webhook: string;
}

export const ACCOUNT_LABELS = {
  name: 'Funder name',
  website: 'Website',
  primary_contact_email: 'Primary Contact Email',
  merchant_subscription_enabled: 'Merchant subscriptions enabled',
  merchant_subscription_notification_email: 'Subscription Notification Email',
  merchant_subscription_notification_webhook: 'Subscription Notification Webhook URL',
} as const;

// The server's rules (contracts' AccountFields): a host with a dot, optionally http(s)://.
const WEBSITE = /^(https?:\/\/)?[^\s.]+\.[^\s]{2,}$/i;
const WEBHOOK = /^https?:\/\/\S+$/i;

export function validateAccountInfo(
  values: AccountInfoValues,
  { subscriptionSettings }: { subscriptionSettings: boolean },
): Errors<keyof AccountInfoValues> {
  const errors: Errors<keyof AccountInfoValues> = {};
  const name = textError(ACCOUNT_LABELS.name, values.name, 120);
  if (name) errors.name = name;
  const website = textError(ACCOUNT_LABELS.website, values.website, 200);
  if (website) errors.website = website;
  else if (!WEBSITE.test(values.website.trim()))
    errors.website = `${ACCOUNT_LABELS.website} is not a valid website address`;
  const email = emailError(ACCOUNT_LABELS.primary_contact_email, values.primary_contact_email);
  if (email) errors.primary_contact_email = email;
  if (subscriptionSettings) {
    const notify = emailError(
      ACCOUNT_LABELS.merchant_subscription_notification_email,
      values.merchant_subscription_notification_email,
      64,
      false,
    );
    if (notify) errors.merchant_subscription_notification_email = notify;
    const hook = values.merchant_subscription_notification_webhook.trim();
    const label = ACCOUNT_LABELS.merchant_subscription_notification_webhook;
    if (values.merchant_subscription_enabled && hook) {
      if (hook.length > 500)
        errors.merchant_subscription_notification_webhook = `${label} must be at most 500 characters`;
      else if (!WEBHOOK.test(hook))
        errors.merchant_subscription_notification_webhook = `${label} must be an http(s) address`;
    }
  }
  return errors;
}

// ---- Members (accounts §2, §5) ----

export interface MemberValues {
  first_name: string;
  last_name: string;
  email: string;
}

export const MEMBER_LABELS = {
  first_name: 'First Name',
  last_name: 'Last Name',
  email: 'Email Address',
} as const;

export function validateMember(values: MemberValues): Errors<keyof MemberValues> {
  const errors: Errors<keyof MemberValues> = {};
  const first = textError(MEMBER_LABELS.first_name, values.first_name, 64);
  if (first) errors.first_name = first;
  const last = textError(MEMBER_LABELS.last_name, values.last_name, 64);
  if (last) errors.last_name = last;
  const email = emailError(MEMBER_LABELS.email, values.email);
  if (email) errors.email = email;
  return errors;
}

/** The member e-mail domain rule's text (accounts §5, §8), which belongs under the e-mail field. */
export const isDomainRuleMessage = (message: string): boolean =>
  /^Only email addresses ending in @\S+ are valid\.$/.test(message);
