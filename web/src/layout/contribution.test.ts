import { describe, expect, it } from 'vitest';
import { contributionIntent, formatContribution } from './contribution.ts';

describe('contribution display', () => {
  it('formats with at most two decimals', () => {
    expect(formatContribution(0)).toBe('0%');
    expect(formatContribution(0.456)).toBe('0.46%');
    expect(formatContribution(100)).toBe('100%');
    expect(formatContribution(1234.5)).toBe('1,234.5%');
  });

  it('is red below 0.5 or at zero, orange up to 1, green above', () => {
    expect(contributionIntent(0)).toBe('danger');
    expect(contributionIntent(0.49)).toBe('danger');
    expect(contributionIntent(0.5)).toBe('warning');
    expect(contributionIntent(1)).toBe('warning');
    expect(contributionIntent(1.01)).toBe('success');
  });
});
