import {
  AccountFields,
  adminChangePassword,
  changePassword,
  forgotPassword,
  passwordReset,
  UserFields,
  type WebhookEventType,
} from '@mrn/contracts';
import { type FieldErrors, schemaErrors } from '../forms/validate.ts';

// Every account form is checked with the server's own schema from the route table (forms/validate.ts).

/** Errors of a form by field; a field without an entry is valid. */
export type Errors<F extends string> = FieldErrors<F>;

export const isValid = (errors: object): boolean => Object.keys(errors).length === 0;

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

const PASSWORD_FIELDS = {
  old_password: 'oldPassword',
  new_password: 'newPassword',
  confirm_password: 'confirmPassword',
} as const;
const passwordField = (path: string) => PASSWORD_FIELDS[path as keyof typeof PASSWORD_FIELDS];

/** New and confirm password; the old one only in profile mode (an admin sets a member's without it). */
export function validateChangePassword(
  values: ChangePasswordValues,
  { requireOld }: { requireOld: boolean },
): Errors<keyof ChangePasswordValues> {
  const body = { new_password: values.newPassword, confirm_password: values.confirmPassword };
  return requireOld
    ? schemaErrors(
        changePassword.body,
        { ...body, old_password: values.oldPassword },
        PASSWORD_LABELS,
        passwordField,
      )
    : schemaErrors(adminChangePassword.body, body, PASSWORD_LABELS, passwordField);
}

export interface PasswordResetValues {
  email: string;
  newPassword: string;
  confirmPassword: string;
}

const RESET_LABELS = {
  email: 'Email',
  newPassword: PASSWORD_LABELS.newPassword,
  confirmPassword: PASSWORD_LABELS.confirmPassword,
};

/** The reset form: the token comes with the link, not from the user, so it is not a field here. */
export function validatePasswordReset(values: PasswordResetValues): Errors<keyof PasswordResetValues> {
  return schemaErrors(
    passwordReset.body,
    {
      email: values.email,
      reset_token: 'from-the-link',
      new_password: values.newPassword,
      confirm_password: values.confirmPassword,
    },
    RESET_LABELS,
    (path) => {
      const field = path === 'email' ? 'email' : passwordField(path);
      return field === 'oldPassword' ? undefined : field;
    },
  );
}

export function validateForgotPassword(values: { email: string }): Errors<'email'> {
  return schemaErrors(forgotPassword.body, values, { email: 'Email' });
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
  watch_searched_merchants: boolean;
  watch_searched_months: number;
  shopped_alert_threshold: number | null;
  webhook_event_types: WebhookEventType[];
}

export const ACCOUNT_LABELS = {
  name: 'Funder name',
  website: 'Website',
  primary_contact_email: 'Primary Contact Email',
  merchant_subscription_enabled: 'Merchant subscriptions enabled',
  merchant_subscription_notification_email: 'Subscription Notification Email',
  merchant_subscription_notification_webhook: 'Subscription Notification Webhook URL',
  watch_searched_merchants: 'Watch merchants we search',
  watch_searched_months: 'Watch searched merchants for',
  shopped_alert_threshold: 'Being shopped: other funders in 7 days',
  webhook_event_types: 'Event types the webhook receives',
} as const;

/** Funder details; the subscription settings only where the form shows them (PRO). */
export function validateAccountInfo(
  values: AccountInfoValues,
  { subscriptionSettings }: { subscriptionSettings: boolean },
): Errors<keyof AccountInfoValues> {
  const { name, website, primary_contact_email } = values;
  const body = subscriptionSettings ? values : { name, website, primary_contact_email };
  return schemaErrors(AccountFields, body, ACCOUNT_LABELS);
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
  return schemaErrors(UserFields, values, MEMBER_LABELS);
}

/** The member e-mail domain rule's text (accounts §5, §8), which belongs under the e-mail field. */
export const isDomainRuleMessage = (message: string): boolean =>
  /^Only email addresses ending in @\S+ are valid\.$/.test(message);
