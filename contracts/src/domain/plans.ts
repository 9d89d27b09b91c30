/** Plans and their limits: the one place prices live (DESIGN §4: PRO is $945 everywhere). */
export const PLAN_LEVELS = ['BASIC', 'PRO'] as const;
export type PlanLevel = (typeof PLAN_LEVELS)[number];

export const PLANS = {
  BASIC: { priceCents: 69_500, dailySearchLimit: 3000, keywordMatchLimit: 5 },
  PRO: { priceCents: 94_500, dailySearchLimit: null, keywordMatchLimit: 25 },
} as const satisfies Record<
  PlanLevel,
  { priceCents: number; dailySearchLimit: number | null; keywordMatchLimit: number }
>;

/**
 * PRO data (search history, a note's submission source and broker name): PRO accounts and platform
 * administrators (core spec §6, accounts spec §1). Decided here once: the web page, the dashboard API
 * and the partner API must never disagree about who sees it.
 */
export const seesProData = (viewer: { planLevel: PlanLevel; isPlatformAdmin: boolean }): boolean =>
  viewer.planLevel === 'PRO' || viewer.isPlatformAdmin;

export const MEMBERSHIP_STATUSES = ['none', 'trialing', 'active', 'inactive', 'canceled'] as const;
export type MembershipStatus = (typeof MEMBERSHIP_STATUSES)[number];
export const hasActiveMembership = (status: MembershipStatus) => status === 'active' || status === 'trialing';

/** Minimum 90-day contribution percentage to search, and the display colour bands. */
export const MIN_CONTRIBUTION_PERCENT = 0.5;
export function contributionColour(percent: number): 'red' | 'orange' | 'green' {
  if (percent < MIN_CONTRIBUTION_PERCENT || percent === 0) return 'red';
  if (percent <= 1) return 'orange';
  return 'green';
}
