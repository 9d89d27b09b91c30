import { describe, expect, it } from 'vitest';
import { formatCents, formatPrice, planPrices, prorationText } from './money.ts';

describe('money from cents', () => {
  it('divides by 100 and shows dollars with cents', () => {
    expect(formatCents(94_500)).toBe('$945.00');
    expect(formatCents(69_550)).toBe('$695.50');
    expect(formatCents(5)).toBe('$0.05');
    expect(formatCents(0)).toBe('$0.00');
    expect(formatCents(123_456_789)).toBe('$1,234,567.89');
    expect(formatCents(-2_500)).toBe('-$25.00');
  });

  it('shows plan prices without cents unless there are some', () => {
    expect(formatPrice(69_500)).toBe('$695');
    expect(formatPrice(99_500)).toBe('$995');
    expect(formatPrice(69_550)).toBe('$695.50');
  });

  it('takes the configured prices and falls back to the plan table', () => {
    expect(planPrices({ BASIC: 70_000, PRO: 99_500 })).toEqual({ BASIC: 70_000, PRO: 99_500 });
    expect(planPrices(undefined)).toEqual({ BASIC: 69_500, PRO: 94_500 });
    expect(planPrices({ BASIC: 0, PRO: Number.NaN })).toEqual({ BASIC: 69_500, PRO: 94_500 });
  });
});

describe('proration text', () => {
  it('says what is charged on the next invoice for an upgrade', () => {
    expect(prorationText(12_345)).toBe('$123.45 charged on your next invoice');
  });

  it('says what is credited for a downgrade', () => {
    expect(prorationText(-8_333)).toBe('$83.33 credited to your next invoice');
  });

  it('says when nothing changes', () => {
    expect(prorationText(0)).toBe('Nothing is charged or credited for the rest of this period');
  });
});
