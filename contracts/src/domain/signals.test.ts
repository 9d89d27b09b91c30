import { describe, expect, it } from 'vitest';
import { type SignalSummary, signalChange, signalsFrom, signalWindowStarts, worstGroup } from './signals.ts';

// Risk signals (issue 32) counted as of a read: the windows' edges, cured defaults and the order.

const AS_OF = new Date('2026-11-28T12:00:00.000Z');
const ms = (iso: string) => Date.parse(iso);
const NONE = { open: 0, resolved: 0 };
const summary = (reports: SignalSummary['reports'], funders = 1): SignalSummary => ({ funders, reports });

describe('risk signals', () => {
  it('counts a note 90 days less a second ago in the 90 days, and one 90 days and a second ago only in 12 months', () => {
    const signals = signalsFrom(
      summary({ slow_pay: [ms('2026-08-30T12:00:00.000Z'), ms('2026-08-30T12:00:01.000Z')] }),
      NONE,
      AS_OF,
    );
    // 2026-11-28 less 90 days is 2026-08-30T12:00:00Z: that instant is outside, a second after is inside.
    expect(signals.categories).toEqual([
      {
        group: 'slow_pay',
        label: 'Slow Pay',
        last_90_days: 1,
        last_12_months: 2,
        ever: 2,
        last_reported_at: '2026-08-30T12:00:01.000Z',
      },
    ]);
  });

  it('counts 12 months from the same day a year before, to the second', () => {
    const signals = signalsFrom(
      summary({
        default: [
          ms('2025-11-28T11:59:59.000Z'),
          ms('2025-11-28T12:00:00.000Z'),
          ms('2025-11-28T12:00:01.000Z'),
        ],
      }),
      NONE,
      AS_OF,
    );
    expect(signals.categories[0]).toMatchObject({
      group: 'default',
      last_90_days: 0,
      last_12_months: 1,
      ever: 3,
    });
  });

  it('starts 12 months before 29 February on 28 February', () => {
    expect(new Date(signalWindowStarts(new Date('2028-02-29T12:00:00.000Z'))['12m']).toISOString()).toBe(
      '2027-02-28T12:00:00.000Z',
    );
  });

  it('leaves out notes dated after the read (a clock behind the log)', () => {
    const signals = signalsFrom(summary({ other: [ms('2026-11-28T12:00:01.000Z')] }), NONE, AS_OF);
    expect(signals.categories).toEqual([]);
  });

  it('lists the groups worst first, whatever order they were reported in', () => {
    const t = ms('2026-11-01T00:00:00.000Z');
    const signals = signalsFrom(
      summary(
        { other: [t], slow_pay: [t], suspicious_activity: [t], default: [t], covid_19_hardship: [t] },
        3,
      ),
      NONE,
      AS_OF,
    );
    expect(signals.categories.map((c) => c.group)).toEqual([
      'default',
      'suspicious_activity',
      'slow_pay',
      'covid_19_hardship',
      'other',
    ]);
    expect(signals.funders).toBe(3);
  });

  it('shows a default as cured when a Default Satisfied came after the latest default, with its date', () => {
    const cured = signalsFrom(
      summary({ default: [ms('2026-01-10T00:00:00.000Z')], satisfied: [ms('2026-03-01T09:30:00.000Z')] }),
      NONE,
      AS_OF,
    );
    expect(cured.cured_at).toBe('2026-03-01T09:30:00.000Z');
    // A new default after the satisfaction is not cured.
    const again = signalsFrom(
      summary({
        default: [ms('2026-01-10T00:00:00.000Z'), ms('2026-06-01T00:00:00.000Z')],
        satisfied: [ms('2026-03-01T09:30:00.000Z')],
      }),
      NONE,
      AS_OF,
    );
    expect(again.cured_at).toBeNull();
    // A satisfaction with no default on record cures nothing, and is no category of its own.
    const alone = signalsFrom(summary({ satisfied: [ms('2026-03-01T09:30:00.000Z')] }, 0), NONE, AS_OF);
    expect(alone.cured_at).toBeNull();
    expect(alone.categories).toEqual([]);
  });

  it('answers a merchant nobody reported with zeros, and its disputes as given', () => {
    expect(signalsFrom(null, { open: 1, resolved: 2 }, AS_OF)).toEqual({
      funders: 0,
      categories: [],
      cured_at: null,
      disputes: { open: 1, resolved: 2 },
    });
  });

  it('names the worst group of those reported', () => {
    expect(worstGroup(['other', 'stacking_history', 'satisfied'])).toBe('stacking_history');
    expect(worstGroup(['satisfied'])).toBeNull();
    expect(worstGroup([])).toBeNull();
  });

  it('tells a change of a new group or a new funder, not a further note of both already counted', () => {
    const [a, b] = ['account-a', 'account-b'];
    const before = [{ kind: 'slow_pay' as const, accountId: a, at: 1 }];
    expect(signalChange(before, [...before, { kind: 'slow_pay', accountId: a, at: 2 }])).toEqual({
      newGroups: [],
      newFunder: false,
    });
    expect(signalChange(before, [...before, { kind: 'default', accountId: a, at: 2 }])).toEqual({
      newGroups: ['default'],
      newFunder: false,
    });
    expect(signalChange(before, [...before, { kind: 'slow_pay', accountId: b, at: 2 }])).toEqual({
      newGroups: [],
      newFunder: true,
    });
    // A Default Satisfied or a Merchant Dispute note is no group, and its funder is not a reporter.
    expect(signalChange(before, [...before, { kind: 'satisfied', accountId: b, at: 2 }])).toEqual({
      newGroups: [],
      newFunder: false,
    });
    expect(signalChange(before, [...before, { kind: null, accountId: b, at: 2 }])).toEqual({
      newGroups: [],
      newFunder: false,
    });
  });
});
