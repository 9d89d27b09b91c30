import { describe, expect, it } from 'vitest';
import { addMonths, formatDay } from './calendar.ts';
import { prorate, prorationLines } from './proration.ts';

const JAN_1 = Date.UTC(2026, 0, 1) / 1000;
const FEB_1 = Date.UTC(2026, 1, 1) / 1000;

describe('proration', () => {
  it('takes the share of the period left, to the second, rounded to the cent', () => {
    const period = { start: JAN_1, end: FEB_1 };
    // 2,678,400 s in January; 1,443,833 s left after 15 Jan 06:56:07.
    expect(prorate(69_500, period, JAN_1 + 1_234_567)).toBe(37_465); // 37,465.05
    expect(prorate(94_500, period, JAN_1 + 1_234_567)).toBe(50_942); // 50,941.69
    expect(prorate(69_500, period, JAN_1)).toBe(69_500);
    expect(prorate(69_500, period, FEB_1)).toBe(0);
  });

  it('credits the old item and charges the new one, described as Stripe does', () => {
    const basic = { price: { id: 'price_b', unitAmount: 69_500, productName: 'BASIC' }, quantity: 1 };
    const pro = { price: { id: 'price_p', unitAmount: 94_500, productName: 'PRO' }, quantity: 1 };
    const at = JAN_1 + 15 * 86_400;
    const lines = prorationLines(basic, pro, { start: JAN_1, end: FEB_1 }, at);
    expect(lines).toEqual([
      {
        amount: -35_871,
        description: 'Unused time on BASIC after 16 Jan 2026',
        priceId: 'price_b',
        quantity: 1,
        period: { start: at, end: FEB_1 },
      },
      {
        amount: 48_774,
        description: 'Remaining time on PRO after 16 Jan 2026',
        priceId: 'price_p',
        quantity: 1,
        period: { start: at, end: FEB_1 },
      },
    ]);
  });
});

describe('calendar', () => {
  it('counts months from the anchor, so a 31st anchor comes back after short months', () => {
    const jan31 = Date.UTC(2026, 0, 31, 10) / 1000;
    expect(new Date(addMonths(jan31, 1) * 1000).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(new Date(addMonths(jan31, 2) * 1000).toISOString()).toBe('2026-03-31T10:00:00.000Z');
    expect(new Date(addMonths(jan31, 13) * 1000).toISOString()).toBe('2027-02-28T10:00:00.000Z');
    expect(formatDay(jan31)).toBe('31 Jan 2026');
  });
});
