import { PLANS, type PlanLevel } from '@mrn/contracts';

const numberFormat = new Intl.NumberFormat('en-US');

/** "$945" from the one place prices live (DESIGN §4), or from the cents the billing configuration gives. */
export const monthlyPrice = (plan: PlanLevel, cents: number = PLANS[plan].priceCents): string =>
  `$${numberFormat.format(cents / 100)}`;

/** The plan table of accounts spec §1, as rows of label, BASIC and PRO; prices in cents when known. */
export function planFeatureRows(prices?: Record<PlanLevel, number>): {
  feature: string;
  basic: string | boolean;
  pro: string | boolean;
}[] {
  const searches = (plan: PlanLevel) => {
    const limit = PLANS[plan].dailySearchLimit;
    return limit === null ? 'Unlimited' : `Up to ${numberFormat.format(limit)}`;
  };
  return [
    {
      feature: 'Price',
      basic: `${monthlyPrice('BASIC', prices?.BASIC)} / month`,
      pro: `${monthlyPrice('PRO', prices?.PRO)} / month`,
    },
    { feature: 'Website access, merchant search, adding merchants and notes', basic: true, pro: true },
    { feature: 'Searches per day', basic: searches('BASIC'), pro: searches('PRO') },
    {
      feature: 'Keyword search matches',
      basic: `Up to ${PLANS.BASIC.keywordMatchLimit}`,
      pro: `Up to ${PLANS.PRO.keywordMatchLimit}`,
    },
    { feature: 'API access', basic: 'Limited', pro: true },
    { feature: 'Merchant subscriptions (e-mail and webhook alerts)', basic: false, pro: true },
    { feature: 'Submission source data', basic: false, pro: true },
    { feature: 'EIN search history', basic: false, pro: true },
  ];
}
