/**
 * The plan levels and membership statuses, alone: the event catalogue names them in its schemas, and
 * the plans' rules (plans.ts) read the catalogue's shapes through the inquiry rules, so these live apart
 * to keep the two from importing each other.
 */
export const PLAN_LEVELS = ['BASIC', 'PRO'] as const;
export type PlanLevel = (typeof PLAN_LEVELS)[number];

export const MEMBERSHIP_STATUSES = ['none', 'trialing', 'active', 'inactive', 'canceled'] as const;
export type MembershipStatus = (typeof MEMBERSHIP_STATUSES)[number];
