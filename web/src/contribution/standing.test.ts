import type { ContributionView } from '@mrn/contracts';
import { describe, expect, it } from 'vitest';
import { noticeOf, standingOf, tooltipOf } from './standing.ts';

const fine: ContributionView = {
  account_id: 'a1',
  account_name: 'Harbor Business Advance',
  total_ninety_days_contribution_percentage: 833.33,
  total_month_contribution_percentage: 100,
  total_two_week_contribution_percentage: 100,
  total_week_contribution_percentage: 100,
  contribution_locked: false,
  contribution_warning_date: null,
  contribution_warning_expire_date: null,
  contribution_override: false,
  contribution_records_added: 50,
  contribution_merchants_searched: 6,
  contribution_records_needed: 0,
  search_locked: false,
};
const warned: ContributionView = {
  ...fine,
  total_ninety_days_contribution_percentage: 0.49,
  contribution_warning_date: '2026-11-01T15:04:00.000Z',
  contribution_warning_expire_date: '2026-11-15T15:04:00.000Z',
  contribution_records_added: 40,
  contribution_merchants_searched: 8_120,
  contribution_records_needed: 1,
};
const locked: ContributionView = { ...warned, contribution_locked: true, search_locked: true };

describe('where a funder stands with its contribution', () => {
  it('is warned below 0.5 % with a warning, locked when search is refused, fine at 0.5 % with a warning not yet lifted', () => {
    expect(standingOf(fine)).toBe('ok');
    expect(standingOf(warned)).toBe('warned');
    expect(standingOf(locked)).toBe('locked');
    expect(
      standingOf({
        ...warned,
        total_ninety_days_contribution_percentage: 0.5,
        contribution_records_needed: 0,
      }),
    ).toBe('ok');
    expect(standingOf({ ...warned, contribution_override: true })).toBe('overridden');
  });

  it('tells every member the figure, the deadline, what happens then and what avoids it', () => {
    expect(noticeOf(fine)).toBeNull();
    const notice = noticeOf(warned)!;
    expect(notice.title).toMatch(
      /^Search locks on 11\/1[45]\/2026 .* unless your contribution is back at 0.5%$/,
    );
    expect(notice.body).toContain(
      "Harbor Business Advance's 90-day contribution is 0.49%, below the 0.5% minimum",
    );
    expect(notice.body).toContain(
      'merchant search is locked for every member until it is back at 0.5% or a platform administrator overrides the requirement',
    );
    expect(notice.body).toContain('Adding 1 more merchant or note brings it back to 0.5% now.');
    const lock = noticeOf(locked)!;
    expect(lock.title).toBe('Merchant search is locked for Harbor Business Advance');
    expect(lock.body).toContain('Adding 1 more merchant or note brings it back to 0.5% now.');
  });

  it('explains a figure over 100 % in the pill’s tooltip, and the deadline while warned', () => {
    expect(tooltipOf(fine, 833.33)).toContain(
      '50 merchants and notes added for 6 distinct merchants searched in the last 90 days. Anything at or above 0.5% is fine.',
    );
    expect(tooltipOf(warned, 0.49)).toMatch(/^Below the 0.5% minimum: search locks on 11\/1[45]\/2026/);
    expect(tooltipOf(undefined, 12)).toBe('Minimum upload percentage to search is 0.5%.');
  });
});
