import { PLANS, type PlanLevel } from '@mrn/contracts';

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const wholeDollars = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  maximumFractionDigits: 0,
});

/** Cents as dollars with cents (accounts spec §9: amounts are cents divided by 100): 94500 → "$945.00". */
export function formatCents(cents: number): string {
  return dollars.format(cents / 100);
}

/** A plan price as the cards show it: "$695", with cents only when there are some ("$695.50"). */
export function formatPrice(cents: number): string {
  return cents % 100 === 0 ? wholeDollars.format(cents / 100) : formatCents(cents);
}

export type PlanPrices = Record<PlanLevel, number>;

/** The prices the billing configuration names, else those of the plan table in contracts. */
export function planPrices(configured?: Partial<PlanPrices> | null): PlanPrices {
  const valid = (n: number | undefined): n is number => typeof n === 'number' && Number.isInteger(n) && n > 0;
  return {
    BASIC: valid(configured?.BASIC) ? configured.BASIC : PLANS.BASIC.priceCents,
    PRO: valid(configured?.PRO) ? configured.PRO : PLANS.PRO.priceCents,
  };
}

/**
 * What a plan change does to the next invoice: a positive proration is charged, a negative one
 * credited (the preview's `proration_amount`, cents).
 */
export function prorationText(prorationCents: number): string {
  if (prorationCents > 0) return `${formatCents(prorationCents)} charged on your next invoice`;
  if (prorationCents < 0) return `${formatCents(-prorationCents)} credited to your next invoice`;
  return 'Nothing is charged or credited for the rest of this period';
}
