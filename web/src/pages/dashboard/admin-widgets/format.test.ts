import { describe, expect, it } from 'vitest';
import { formatCount, formatUsdCents, recentMerchantsTitle } from './format.ts';

describe('admin widget formats', () => {
  it('shows cents as US dollars and counts with separators', () => {
    expect(formatUsdCents(164_000)).toBe('$1,640.00');
    expect(formatUsdCents(0)).toBe('$0.00');
    expect(formatUsdCents(94_550)).toBe('$945.50');
    expect(formatCount(1_000_000)).toBe('1,000,000');
  });

  it('names the Recently Reported table after its category', () => {
    expect(recentMerchantsTitle(undefined)).toBe('Recently Reported Merchants');
    expect(recentMerchantsTitle('Slow Pay')).toBe('Recently Reported Slow Pay Merchants');
  });
});
