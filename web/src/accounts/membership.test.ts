import { describe, expect, it } from 'vitest';
import { MEMBERSHIP_FILTERS, membershipLabel, PLAN_FILTERS, readFilter, trialActions } from './membership.ts';

describe('membership', () => {
  it('labels every status', () => {
    expect(membershipLabel('none')).toBe('No membership');
    expect(membershipLabel('trialing')).toBe('Trial');
    expect(membershipLabel('canceled')).toBe('Cancelled');
  });

  it('offers Start Trial without a membership and Cancel Trial while trialing', () => {
    expect(trialActions('none')).toEqual({ canStart: true, canCancel: false });
    expect(trialActions('canceled')).toEqual({ canStart: true, canCancel: false });
    expect(trialActions('trialing')).toEqual({ canStart: false, canCancel: true });
    expect(trialActions('active')).toEqual({ canStart: false, canCancel: false });
  });

  it('reads list filters from the URL, defaulting to all', () => {
    expect(readFilter('active', MEMBERSHIP_FILTERS)).toBe('active');
    expect(readFilter('bogus', MEMBERSHIP_FILTERS)).toBe('');
    expect(readFilter(null, PLAN_FILTERS)).toBe('');
    expect(readFilter('PRO', PLAN_FILTERS)).toBe('PRO');
  });
});
