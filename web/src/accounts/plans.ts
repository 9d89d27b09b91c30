import { PLANS, type PlanLevel, type PlanOffer, PRO_FEATURES } from '@mrn/contracts';

const numberFormat = new Intl.NumberFormat('en-US');

/** "$945" from the one place prices live (DESIGN §4), or from the cents the billing configuration gives. */
export const monthlyPrice = (plan: PlanLevel, cents: number = PLANS[plan].priceCents): string =>
  `$${numberFormat.format(cents / 100)}`;

/**
 * The plan table of accounts spec §1, as rows of label, BASIC and PRO; prices in cents when known. The
 * features are contracts' `PRO_FEATURES`, the list every page that sells PRO reads (issue 32).
 */
export function planFeatureRows(prices?: Record<PlanLevel, number>): {
  feature: string;
  basic: PlanOffer;
  pro: PlanOffer;
}[] {
  return [
    {
      feature: 'Price',
      basic: `${monthlyPrice('BASIC', prices?.BASIC)} / month`,
      pro: `${monthlyPrice('PRO', prices?.PRO)} / month`,
    },
    { feature: 'Website access, merchant search, adding merchants and notes', basic: true, pro: true },
    ...PRO_FEATURES.map((f) => ({ feature: f.name, basic: f.basic, pro: f.pro })),
  ];
}
