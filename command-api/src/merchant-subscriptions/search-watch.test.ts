import { addMonthsUtc, searchWatchEnd } from '@mrn/contracts';
import { describe, expect, it } from 'vitest';
import { specFor } from '../testing.ts';
import { type SubscriptionEvent, subscriptionsDecider } from './subscriptions.ts';

// Watches made by "watch merchants we search": they end at a date, a later search makes them longer
// (never shorter), a person's subscription is never turned into one that ends, a person subscribing an
// EIN a search watches makes it permanent, and the daily pass removes what has ended.

const at = (now: string) => specFor(subscriptionsDecider, { now: new Date(now) });
const JUNE = '2027-06-01T10:00:00.000Z';
const JULY = '2027-07-01T10:00:00.000Z';
const added = (feins: string[], source: 'web' | 'search', watchUntil?: string): SubscriptionEvent => ({
  type: 'MerchantSubscriptionsAdded',
  data: { accountId: 'a1', feins, source, ...(watchUntil ? { watchUntil } : {}) },
});
const watch = (feins: string[], watchUntil: string) => ({
  type: 'WatchSearched' as const,
  accountId: 'a1',
  feins,
  watchUntil,
});

describe('subscriptions decider: search watches', () => {
  it('watches a searched EIN until the given end', () => {
    at('2026-06-01T00:00:00Z')
      .given([])
      .when(watch(['123456789'], JUNE))
      .thenEvents([added(['123456789'], 'search', JUNE)]);
  });

  it('makes a search watch longer on a later search, and writes nothing for the same or an earlier end', () => {
    const given = [added(['123456789'], 'search', JUNE)];
    at('2026-07-01T00:00:00Z')
      .given(given)
      .when(watch(['123456789'], JULY))
      .thenEvents([added(['123456789'], 'search', JULY)]);
    // The same search decided again (a reactor replaying after a crash): exactly once.
    at('2026-07-01T00:00:00Z')
      .given(given)
      .when(watch(['123456789'], JUNE))
      .thenEvents([]);
    at('2026-07-01T00:00:00Z')
      .given(given)
      .when(watch(['123456789'], '2027-05-01T00:00:00.000Z'))
      .thenEvents([]);
  });

  it('never turns a subscription a person made into one that ends', () => {
    at('2026-06-01T00:00:00Z')
      .given([added(['123456789'], 'web')])
      .when(watch(['123456789', '987654321'], JUNE))
      .thenEvents([added(['987654321'], 'search', JUNE)]);
  });

  it('makes a search watch permanent when a person subscribes the EIN', () => {
    const given = [added(['123456789'], 'search', JUNE)];
    at('2026-06-01T00:00:00Z')
      .given(given)
      .when({ type: 'Subscribe', accountId: 'a1', feins: ['123456789'], source: 'web' })
      .thenEvents([added(['123456789'], 'web')]);
    // …after which neither a search nor the daily pass touches it.
    const permanent = [...given, added(['123456789'], 'web')];
    at('2026-06-01T00:00:00Z')
      .given(permanent)
      .when(watch(['123456789'], JULY))
      .thenEvents([]);
    at('2028-01-01T00:00:00Z').given(permanent).when({ type: 'ExpireWatches' }).thenEvents([]);
  });

  it('removes the search watches that ended by now, with the reason, and only those', () => {
    const given = [
      added(['111111111'], 'web'),
      added(['222222222'], 'search', JUNE),
      added(['333333333'], 'search', JULY),
    ];
    at('2027-05-31T23:59:59Z').given(given).when({ type: 'ExpireWatches' }).thenEvents([]);
    at(JUNE)
      .given(given)
      .when({ type: 'ExpireWatches' })
      .thenEvents([
        {
          type: 'MerchantSubscriptionsRemoved',
          data: { accountId: 'a1', feins: ['222222222'], reason: 'expired' },
        },
      ]);
    // Once removed, the same pass again writes nothing.
    const removed: SubscriptionEvent = {
      type: 'MerchantSubscriptionsRemoved',
      data: { accountId: 'a1', feins: ['222222222'], reason: 'expired' },
    };
    at(JUNE)
      .given([...given, removed])
      .when({ type: 'ExpireWatches' })
      .thenEvents([]);
  });

  it('forgets the end of a watch a person deleted: a later search starts a new one', () => {
    at('2026-06-01T00:00:00Z')
      .given([
        added(['123456789'], 'search', JULY),
        { type: 'MerchantSubscriptionsRemoved', data: { accountId: 'a1', feins: ['123456789'] } },
      ])
      .when(watch(['123456789'], JUNE))
      .thenEvents([added(['123456789'], 'search', JUNE)]);
  });
});

describe('the end of a search watch', () => {
  it('is the same day N calendar months later, or the last day of a shorter month', () => {
    expect(addMonthsUtc(new Date('2026-03-15T08:30:00Z'), 12).toISOString()).toBe('2027-03-15T08:30:00.000Z');
    expect(addMonthsUtc(new Date('2026-01-31T12:00:00Z'), 1).toISOString()).toBe('2026-02-28T12:00:00.000Z');
    expect(addMonthsUtc(new Date('2027-11-30T00:00:00Z'), 3).toISOString()).toBe('2028-02-29T00:00:00.000Z');
    expect(addMonthsUtc(new Date('2026-12-31T23:00:00Z'), 24).toISOString()).toBe('2028-12-31T23:00:00.000Z');
  });
});

describe('the end of a watch a search made', () => {
  it('covers the whole UTC day N months after the search day, so a day of searches is one watch', () => {
    const end = (at: string) => searchWatchEnd(new Date(at), 12).toISOString();
    expect(end('2026-03-15T00:00:01Z')).toBe('2027-03-16T00:00:00.000Z');
    expect(end('2026-03-15T23:59:59Z')).toBe('2027-03-16T00:00:00.000Z');
    expect(searchWatchEnd(new Date('2026-01-31T18:00:00Z'), 1).toISOString()).toBe(
      '2026-03-01T00:00:00.000Z',
    );
  });
});
