import type { ApiError } from '../api/api-error.ts';
import { serverFieldErrors } from '../merchants/server-fields.ts';
import {
  ACCOUNT_LABELS,
  type AccountInfoValues,
  type Errors,
  isDomainRuleMessage,
  MEMBER_LABELS,
  type MemberValues,
} from './validation.ts';

/**
 * Field errors of a failed member save: the 400's named fields under `user`, and the e-mail domain
 * rule's text under the e-mail field (accounts §5). Null when the failure belongs in a toast.
 */
export function memberSaveErrors(error: ApiError): Errors<keyof MemberValues> | null {
  if (error.status !== 400) return null;
  if (isDomainRuleMessage(error.message)) return { email: error.message };
  const fields = serverFieldErrors(error.body, 'user', MEMBER_LABELS);
  return Object.keys(fields).length > 0 ? fields : null;
}

/** Field errors of a failed funder save: the 400's named fields under `account`. */
export function accountSaveErrors(error: ApiError): Errors<keyof AccountInfoValues> | null {
  if (error.status !== 400) return null;
  const { merchant_subscription_enabled: _enabled, ...labels } = ACCOUNT_LABELS;
  const fields = serverFieldErrors(error.body, 'account', labels);
  return Object.keys(fields).length > 0 ? fields : null;
}
