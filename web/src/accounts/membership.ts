import { Intent } from '@blueprintjs/core';
import { hasActiveMembership, type MembershipStatus } from '@mrn/contracts';

const LABELS: Record<MembershipStatus, string> = {
  none: 'No membership',
  trialing: 'Trial',
  active: 'Active',
  inactive: 'Inactive',
  canceled: 'Cancelled',
};

export const membershipLabel = (status: MembershipStatus): string => LABELS[status];

export const membershipIntent = (status: MembershipStatus): Intent =>
  status === 'active' ? Intent.SUCCESS : status === 'trialing' ? Intent.PRIMARY : Intent.NONE;

/** Which trial buttons a platform administrator gets (accounts §4: none → trial → cancelled or active). */
export function trialActions(status: MembershipStatus): { canStart: boolean; canCancel: boolean } {
  return { canStart: !hasActiveMembership(status), canCancel: status === 'trialing' };
}

/** The funders list's Membership Status filter (accounts §2): label → query value. */
export const MEMBERSHIP_FILTERS = [
  { value: '', label: 'All' },
  { value: 'active', label: 'Active Membership' },
  { value: 'canceled', label: 'Inactive/Deleted' },
] as const;
export type MembershipFilter = (typeof MEMBERSHIP_FILTERS)[number]['value'];

export const PLAN_FILTERS = [
  { value: '', label: 'Any' },
  { value: 'BASIC', label: 'BASIC' },
  { value: 'PRO', label: 'PRO' },
] as const;
export type PlanFilter = (typeof PLAN_FILTERS)[number]['value'];

/** A filter value from the URL, or the "all" choice when it is not one of the list's. */
export function readFilter<T extends string>(raw: string | null, choices: readonly { value: T }[]): T {
  const found = choices.find((c) => c.value === raw);
  return found ? found.value : (choices[0]?.value as T);
}
