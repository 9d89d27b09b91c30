import { SCREENING_CSV_MAX_BYTES, SCREENING_TEXTS } from '@mrn/contracts';
import { describe, expect, it } from 'vitest';
import {
  checkScreeningFile,
  describeRejectedRow,
  exposureBars,
  formatPercent,
  progressOf,
  readReportFilters,
  screeningFileName,
  sourceLabel,
  watchBlockedReason,
  watchedText,
} from './screening.ts';

describe('checkScreeningFile', () => {
  it('takes a .csv or text/csv file up to the contract’s limit', () => {
    expect(checkScreeningFile({ name: 'portfolio.csv', size: 1200, type: '' })).toBeNull();
    expect(checkScreeningFile({ name: 'PORTFOLIO.CSV', size: SCREENING_CSV_MAX_BYTES })).toBeNull();
    expect(checkScreeningFile({ name: 'export', size: 10, type: 'text/csv' })).toBeNull();
  });

  it('names what is wrong: the type, an empty file, a file over the limit', () => {
    expect(checkScreeningFile({ name: 'portfolio.xlsx', size: 10, type: 'application/zip' })).toMatch(
      /^Choose a \.csv file/,
    );
    expect(checkScreeningFile({ name: 'portfolio.csv', size: 0 })).toBe('The file is empty.');
    expect(checkScreeningFile({ name: 'portfolio.csv', size: SCREENING_CSV_MAX_BYTES + 1 })).toBe(
      SCREENING_TEXTS.tooLarge,
    );
  });
});

describe('screeningFileName', () => {
  it('keeps a short name and cuts a long one to 255 characters, keeping its extension', () => {
    expect(screeningFileName(' q3.csv ')).toBe('q3.csv');
    const long = screeningFileName(`${'a'.repeat(300)}.csv`);
    expect(long).toHaveLength(255);
    expect(long.endsWith('….csv')).toBe(true);
  });
});

describe('what a screening shows', () => {
  it('describes a rejected row as the server named its problem', () => {
    expect(describeRejectedRow({ row: 7, problem: 'must be 9 digits, as 12-3456789' })).toBe(
      'row 7: must be 9 digits, as 12-3456789',
    );
  });

  it('gives the progress, indeterminate while queued', () => {
    expect(progressOf({ status: 'queued', total: 1000, screened: 0 })).toBeUndefined();
    expect(progressOf({ status: 'running', total: 1000, screened: 500 })).toBe(0.5);
    expect(progressOf({ status: 'done', total: 0, screened: 0 })).toBe(1);
  });

  it('names the source', () => {
    expect(sourceLabel({ source: 'csv', file_name: 'q3.csv' })).toBe('q3.csv');
    expect(sourceLabel({ source: 'subscriptions', file_name: null })).toBe('EINs we watch');
    expect(sourceLabel({ source: 'api', file_name: null })).toBe('Partner API');
  });

  it('formats shares of the merchants found', () => {
    expect(formatPercent(0)).toBe('0%');
    expect(formatPercent(0.05)).toBe('<0.1%');
    expect(formatPercent(100 / 3)).toBe('33.3%');
  });
});

describe('readReportFilters', () => {
  const from = (query: string) => {
    const params = new URLSearchParams(query);
    return readReportFilters((name) => params.get(name));
  };
  it('reads the known filters and leaves out the rest', () => {
    expect(from('outcome=found&category=slow_pay&window=90d')).toEqual({
      outcome: 'found',
      category: 'slow_pay',
      window: '90d',
    });
    expect(from('outcome=maybe&category=Slow%20Pay&window=week')).toEqual({ window: 'ever' });
  });
});

describe('exposureBars', () => {
  it('lists every group worst first, with the window’s merchants and their share of those found', () => {
    const bars = exposureBars(
      [
        { group: 'slow_pay', label: 'Slow Pay', last_90_days: 1, last_12_months: 3, ever: 4 },
        { group: 'default', label: 'Default / Default Account', last_90_days: 0, last_12_months: 2, ever: 5 },
      ],
      20,
      '12m',
    );
    expect(bars.map((b) => b.group)).toEqual([
      'default',
      'suspicious_activity',
      'stacking_history',
      'slow_pay',
      'split_payer',
      'criminal_history',
      'covid_19_hardship',
      'other',
    ]);
    expect(bars[0]).toMatchObject({ merchants: 2, percent: 10, category: 'Default' });
    expect(bars[3]).toMatchObject({ merchants: 3, percent: 15 });
    expect(bars[1]).toMatchObject({ merchants: 0, percent: 0 });
    expect(exposureBars([], 0, 'ever').every((b) => b.percent === 0)).toBe(true);
  });
});

describe('watch all hits', () => {
  const admin = {
    is_admin: true,
    is_dm_admin: false,
    account_merchant_subscription_enabled: true,
    plan_level: 'PRO' as const,
  };
  const done = { status: 'done' as const, found: 12 };

  it('is an account admin’s, with subscriptions on, once the screening is done and found something', () => {
    expect(watchBlockedReason(admin, done)).toBeNull();
    expect(watchBlockedReason({ ...admin, is_admin: false }, done)).toMatch(/^Only your account’s admins/);
    expect(watchBlockedReason({ ...admin, account_merchant_subscription_enabled: false }, done)).toMatch(
      /^Merchant subscriptions are not turned on/,
    );
    expect(watchBlockedReason(admin, { status: 'running', found: 3 })).toBe(
      'Available once every EIN is screened.',
    );
    expect(watchBlockedReason(admin, { status: 'done', found: 0 })).toBe(
      'This screening found no merchant to watch.',
    );
  });

  it('says how many were added and how many were already watched', () => {
    expect(watchedText({ added: 338, already_watched: 2 })).toBe(
      '338 merchants added to your watch list; 2 already watched.',
    );
    expect(watchedText({ added: 1, already_watched: 0 })).toBe('1 merchant added to your watch list.');
    expect(watchedText({ added: 0, already_watched: 4 })).toBe('All 4 merchants found were already watched.');
    expect(watchedText({ added: 0, already_watched: 1 })).toBe('The merchant found was already watched.');
  });
});
