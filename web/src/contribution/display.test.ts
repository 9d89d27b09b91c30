import { describe, expect, it } from 'vitest';
import { contributionIntent, formatContribution, hasOwnContribution } from './display.ts';

describe('contribution display', () => {
  it('says "Over 100%" above 100, and rounds so that nothing below 0.5 % reads as 0.5 %', () => {
    expect(formatContribution(0)).toBe('0%');
    expect(formatContribution(0.49)).toBe('0.49%');
    expect(formatContribution(0.5)).toBe('0.5%');
    expect(formatContribution(0.456)).toBe('0.46%');
    expect(formatContribution(3.87)).toBe('3.9%');
    expect(formatContribution(42.4)).toBe('42%');
    expect(formatContribution(100)).toBe('100%');
    expect(formatContribution(100.01)).toBe('Over 100%');
    expect(formatContribution(833.33)).toBe('Over 100%');
    expect(formatContribution(1050)).toBe('Over 100%');
  });

  it('is red below 0.5 or at zero, orange up to 1, green above', () => {
    expect(contributionIntent(0)).toBe('danger');
    expect(contributionIntent(0.49)).toBe('danger');
    expect(contributionIntent(0.5)).toBe('warning');
    expect(contributionIntent(1)).toBe('warning');
    expect(contributionIntent(1.01)).toBe('success');
  });
});

describe('whose contribution is shown', () => {
  it('shows funder members their contribution, never platform administrators (issue 32)', () => {
    expect(hasOwnContribution({ is_dm_admin: false })).toBe(true);
    expect(hasOwnContribution({ is_dm_admin: true })).toBe(false);
  });
});
