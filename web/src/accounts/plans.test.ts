import { describe, expect, it } from 'vitest';
import { monthlyPrice, planFeatureRows } from './plans.ts';

describe('plans', () => {
  it('prices BASIC at $695 and PRO at $945 a month', () => {
    expect(monthlyPrice('BASIC')).toBe('$695');
    expect(monthlyPrice('PRO')).toBe('$945');
  });

  it('lists the accounts spec §1 differences', () => {
    const rows = Object.fromEntries(planFeatureRows().map((r) => [r.feature, [r.basic, r.pro]]));
    expect(rows['Searches per day']).toEqual(['Up to 3,000', 'Unlimited']);
    expect(rows['Keyword search matches']).toEqual(['Up to 5', 'Up to 25']);
    expect(rows['EIN search history']).toEqual([false, true]);
    expect(rows['Merchant subscriptions (e-mail and webhook alerts)']).toEqual([false, true]);
  });

  it('lists the PRO signals, linked merchants in both plans and portfolio screening as a PRO feature (issue 32)', () => {
    const rows = Object.fromEntries(planFeatureRows().map((r) => [r.feature, [r.basic, r.pro]]));
    expect(rows['Inquiry velocity']).toEqual([false, true]);
    expect(rows['Being-shopped alerts']).toEqual([false, true]);
    expect(rows['Risk-signal alerts']).toEqual([false, true]);
    expect(rows['Broker records']).toEqual([false, true]);
    expect(rows['Linked merchants (possibly the same business)']).toEqual([true, true]);
    expect(rows['Portfolio screening']).toEqual([false, true]);
  });
});
