const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const count = new Intl.NumberFormat('en-US');

/** An amount in US cents, as the API and Stripe count it, shown in dollars (accounts spec §9). */
export const formatUsdCents = (cents: number): string => usd.format(cents / 100);

export const formatCount = (n: number): string => count.format(n);

/** "Recently Reported Slow Pay Merchants"; every category (no filter): "Recently Reported Merchants". */
export const recentMerchantsTitle = (category: string | undefined): string =>
  `Recently Reported ${category ? `${category} ` : ''}Merchants`;
