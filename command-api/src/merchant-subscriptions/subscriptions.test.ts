import { describe, it } from 'vitest';
import { specFor } from '../testing.ts';
import { SUBSCRIBE_BATCH, type SubscriptionEvent, subscriptionsDecider } from './subscriptions.ts';

// Merchant subscriptions (accounts spec §3, §7): an EIN is watched once; an import queues, runs and
// finishes once; large subscriptions are recorded in batches of EINs, not one event per EIN.

const at = () => specFor(subscriptionsDecider, { now: new Date('2026-11-01T00:00:00Z') });
const added = (feins: string[], source: 'web' | 'import' = 'web'): SubscriptionEvent => ({
  type: 'MerchantSubscriptionsAdded',
  data: { accountId: 'a1', feins, source },
});
const subscribe = (feins: string[], source: 'web' | 'import' = 'web') => ({
  type: 'Subscribe' as const,
  accountId: 'a1',
  feins,
  source,
});
const queued: SubscriptionEvent = {
  type: 'SubscriptionImportQueued',
  data: { accountId: 'a1', importId: 'i1', fileName: 'eins.csv', fileSize: 40 },
};
const started: SubscriptionEvent = {
  type: 'SubscriptionImportStarted',
  data: { accountId: 'a1', importId: 'i1' },
};
const counts = { processed: 3, imported: 2, skipped: 1, errors: 0 };

describe('subscriptions decider', () => {
  it('subscribes only EINs not watched yet, each once', () => {
    at()
      .given([])
      .when(subscribe(['123456789']))
      .thenEvents([added(['123456789'])]);
    at()
      .given([added(['123456789'])])
      .when(subscribe(['123456789', '987654321', '987654321']))
      .thenEvents([added(['987654321'])]);
    at()
      .given([added(['123456789'])])
      .when(subscribe(['123456789']))
      .thenEvents([]);
  });

  it('records a large subscription in batches of EINs', () => {
    const feins = Array.from({ length: SUBSCRIBE_BATCH * 2 + 1 }, (_, i) => String(100_000_000 + i));
    at()
      .given([])
      .when(subscribe(feins, 'import'))
      .thenEvents([
        added(feins.slice(0, SUBSCRIBE_BATCH), 'import'),
        added(feins.slice(SUBSCRIBE_BATCH, SUBSCRIBE_BATCH * 2), 'import'),
        added(feins.slice(SUBSCRIBE_BATCH * 2), 'import'),
      ]);
  });

  it('unsubscribes only watched EINs; nothing watched is no event', () => {
    at()
      .given([added(['123456789', '987654321'])])
      .when({ type: 'Unsubscribe', accountId: 'a1', feins: ['123456789', '555555555'] })
      .thenEvents([
        { type: 'MerchantSubscriptionsRemoved', data: { accountId: 'a1', feins: ['123456789'] } },
      ]);
    at()
      .given([])
      .when({ type: 'Unsubscribe', accountId: 'a1', feins: ['123456789'] })
      .thenEvents([]);
    at()
      .given([
        added(['123456789']),
        { type: 'MerchantSubscriptionsRemoved', data: { accountId: 'a1', feins: ['123456789'] } },
      ])
      .when(subscribe(['123456789']))
      .thenEvents([added(['123456789'])]);
  });

  it('queues an import once, starts it once and finishes it once', () => {
    const queue = {
      type: 'QueueImport' as const,
      accountId: 'a1',
      importId: 'i1',
      fileName: 'eins.csv',
      fileSize: 40,
    };
    at().given([]).when(queue).thenEvents([queued]);
    at().given([queued]).when(queue).thenRefuses('conflict');
    at().given([queued]).when({ type: 'StartImport', importId: 'i1' }).thenEvents([started]);
    at().given([queued, started]).when({ type: 'StartImport', importId: 'i1' }).thenEvents([]);
    at()
      .given([queued, started])
      .when({ type: 'FinishImport', importId: 'i1', counts })
      .thenEvents([
        { type: 'SubscriptionImportFinished', data: { accountId: 'a1', importId: 'i1', ...counts } },
      ]);
    const finished: SubscriptionEvent = {
      type: 'SubscriptionImportFinished',
      data: { accountId: 'a1', importId: 'i1', ...counts },
    };
    at()
      .given([queued, started, finished])
      .when({ type: 'FinishImport', importId: 'i1', counts })
      .thenEvents([]);
    at()
      .given([queued, started, finished])
      .when({ type: 'FailImport', importId: 'i1', reason: 'x' })
      .thenEvents([]);
    at().given([]).when({ type: 'StartImport', importId: 'nope' }).thenRefuses('not_found');
  });

  it('fails a running import', () => {
    at()
      .given([queued, started])
      .when({ type: 'FailImport', importId: 'i1', reason: 'The file could not be imported.' })
      .thenEvents([
        {
          type: 'SubscriptionImportFailed',
          data: { accountId: 'a1', importId: 'i1', reason: 'The file could not be imported.' },
        },
      ]);
  });
});
