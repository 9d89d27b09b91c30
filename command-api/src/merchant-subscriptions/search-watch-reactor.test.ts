import { randomUUID } from 'node:crypto';
import type { DomainEvent, EventData } from '@mrn/contracts';
import { merchantAddedData } from '@mrn/contracts/testing';
import {
  createLogger,
  ManualClock,
  PgNotifications,
  type Position,
  PostgresEventStore,
  platformMigrations,
  SearchLog,
  SearchLogWriter,
  START,
} from '@mrn/platform';
import { createTestDatabase, type TestDatabase } from '@mrn/platform/testing';
import { allProjectors, ProjectionRunner, projectionMigrations } from '@mrn/projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_WATCH_CHECKPOINT, SearchWatchReactor } from './search-watch-reactor.ts';

// The "watch merchants we search" reactor over a real event store, search log and projections (it
// follows their feed of candidates, read.search_watch_candidates, issue 31): which searches watch what,
// as of the account's setting at the moment of the search, and exactly once across a crash and a second
// process.

let db: TestDatabase;
let store: PostgresEventStore;
let searchLog: SearchLog;
let searches: SearchLogWriter;
let projections: ProjectionRunner;
const clock = new ManualClock(new Date());
beforeAll(async () => {
  db = await createTestDatabase([...platformMigrations(), ...projectionMigrations()]);
  store = new PostgresEventStore(db.pool);
  searchLog = new SearchLog(db.pool);
  searches = new SearchLogWriter(db.pool);
  projections = new ProjectionRunner(
    { pool: db.pool, store, searches: searchLog, logger: createLogger('silent') },
    allProjectors,
  );
  await projections.start();
});
afterAll(async () => {
  await projections?.stop();
  await searchLog?.close();
  await store?.close();
  await db?.drop();
});

/** Until every projector has passed `position` (default: the event log's head). */
const projected = async (position?: Position) => {
  expect(await projections.waitFor(position ?? (await store.headPosition()), [], 20_000)).toBe(true);
};

const reactor = (extra: { notifications?: PgNotifications } = {}) =>
  new SearchWatchReactor({ store, pool: db.pool, clock, logger: createLogger('silent'), ...extra });
const append = (streamId: string, events: DomainEvent[]) =>
  store.appendToStream(
    streamId,
    events.map((e) => ({ id: randomUUID(), type: e.type, data: e.data, metadata: {} })),
    { expectedRevision: 'any' },
  );

async function openAccount(
  plan: 'PRO' | 'BASIC',
  settings: { enabled: boolean; watch: boolean; months?: number },
) {
  const accountId = randomUUID();
  await append(`account-${accountId}`, [
    {
      type: 'AccountOpened',
      data: {
        accountId,
        name: 'Summit',
        website: null,
        primaryContactEmail: 'ops@summit.example',
        planLevel: plan,
        membershipStatus: 'active',
        isPlatform: false,
      },
    },
  ]);
  await setWatch(accountId, settings);
  return accountId;
}
const setWatch = (accountId: string, s: { enabled: boolean; watch: boolean; months?: number }) =>
  append(`account-${accountId}`, [
    {
      type: 'AccountUpdated',
      data: {
        accountId,
        name: 'Summit',
        website: null,
        primaryContactEmail: 'ops@summit.example',
        merchantSubscriptionEnabled: s.enabled,
        merchantSubscriptionNotificationEmail: null,
        merchantSubscriptionNotificationWebhook: null,
        watchSearchedMerchants: s.watch,
        watchSearchedMonths: s.months ?? 12,
      },
    },
  ]);

async function addMerchant(fein: string) {
  const merchantId = randomUUID();
  await append(`merchant-${merchantId}`, [
    {
      type: 'MerchantAdded',
      data: merchantAddedData({
        merchantId,
        fein,
        legalName: 'Acme Coffee LLC',
        accountId: randomUUID(),
        userId: randomUUID(),
      }),
    } as DomainEvent,
  ]);
  return merchantId;
}

/**
 * A search recorded in the search log, as the query side's recorder writes it, once projections have
 * applied the event log (the account and merchant as they stand), and projected.
 */
async function search(accountId: string, term: string, merchantIds: string[], einSearch = /^\d/.test(term)) {
  await projected();
  const [position] = await searches.append([
    {
      accountId,
      userId: randomUUID(),
      source: 'web',
      term,
      einSearch,
      merchantIds,
      hit: merchantIds.length > 0,
    },
  ]);
  await projected(position);
  return position!;
}

async function added(accountId: string) {
  const { rows } = await db.pool.query<{ data: EventData<'MerchantSubscriptionsAdded'>; recorded_at: Date }>(
    `select data, recorded_at from events where stream_id = $1 and type = 'MerchantSubscriptionsAdded' order by revision`,
    [`subscriptions-${accountId}`],
  );
  return rows.map((r) => r.data);
}

describe('the search watch reactor', () => {
  it('watches the EIN of an EIN search that found the merchant, until the search time plus the months', async () => {
    const account = await openAccount('PRO', { enabled: true, watch: true, months: 3 });
    const merchant = await addMerchant('123456789');
    await search(account, '12-3456789', [merchant]);
    await reactor().runOnce();
    const [watch, ...rest] = await added(account);
    expect(rest).toEqual([]);
    expect(watch).toMatchObject({ feins: ['123456789'], source: 'search' });
    const { rows } = await db.pool.query<{ searched_at: Date }>(
      'select searched_at from search_log where account_id = $1',
      [account],
    );
    // Through the whole UTC day three months after the search day.
    const day = rows[0]!.searched_at.toISOString().slice(0, 10);
    const end = new Date(`${day}T00:00:00.000Z`);
    end.setUTCMonth(end.getUTCMonth() + 3);
    end.setUTCDate(end.getUTCDate() + 1);
    // (The search ran today: end-of-month clamping can move it by at most 3 days.)
    expect(Math.abs(Date.parse(watch!.watchUntil!) - end.getTime())).toBeLessThanOrEqual(3 * 86_400_000);
    expect(watch!.watchUntil).toMatch(/T00:00:00\.000Z$/);
  });

  it('watches the one merchant a keyword search found, and nothing for a list or a miss', async () => {
    const account = await openAccount('PRO', { enabled: true, watch: true });
    const one = await addMerchant('223456789');
    const two = await addMerchant('323456789');
    await search(account, 'acme', [one]);
    await search(account, 'coffee', [one, two]);
    await search(account, '42-0000000', []);
    await reactor().runOnce();
    expect((await added(account)).map((d) => d.feins)).toEqual([['223456789']]);
  });

  it('does nothing with the setting off, on BASIC, or with subscriptions not enabled', async () => {
    const merchant = await addMerchant('423456789');
    const accounts = [
      await openAccount('PRO', { enabled: true, watch: false }),
      await openAccount('BASIC', { enabled: false, watch: true }),
      await openAccount('PRO', { enabled: false, watch: true }),
    ];
    for (const a of accounts) await search(a, '423456789', [merchant]);
    await reactor().runOnce();
    for (const a of accounts) expect(await added(a)).toEqual([]);
  });

  it('judges a search by the setting as it was then: switched on later, it does not reach back', async () => {
    const account = await openAccount('PRO', { enabled: true, watch: false });
    const before = await addMerchant('523456789');
    const after = await addMerchant('623456789');
    await search(account, '523456789', [before]);
    await setWatch(account, { enabled: true, watch: true });
    await search(account, '623456789', [after]);
    await reactor().runOnce();
    expect((await added(account)).map((d) => d.feins)).toEqual([['623456789']]);
  });

  it('writes once for searches of a day, handled again after a crash and by a second process at once', async () => {
    const account = await openAccount('PRO', { enabled: true, watch: true });
    const merchant = await addMerchant('723456789');
    await search(account, '723456789', [merchant]);
    await search(account, '72-3456789', [merchant]);
    const { rows } = await db.pool.query<{ position: string }>(
      'select position from subscription_checkpoints where name = $1',
      [SEARCH_WATCH_CHECKPOINT],
    );
    await reactor().runOnce();
    // A crash after the appends, before the checkpoint moved: the log is handled again, twice at once.
    await db.pool.query('update subscription_checkpoints set position = $2 where name = $1', [
      SEARCH_WATCH_CHECKPOINT,
      rows[0]?.position ?? START,
    ]);
    await Promise.all([reactor().runOnce(), reactor().runOnce()]);
    expect((await added(account)).map((d) => d.feins)).toEqual([['723456789']]);
  });

  it('follows the feed live once started, woken by the projections’ progress', async () => {
    const account = await openAccount('PRO', { enabled: true, watch: true });
    const merchant = await addMerchant('823456789');
    const notifications = new PgNotifications(db.url);
    const live = reactor({ notifications }).start();
    try {
      await search(account, '823456789', [merchant]);
      await expect.poll(async () => (await added(account)).length, { timeout: 10_000 }).toBe(1);
    } finally {
      await live.stop();
      await notifications.close();
    }
  });

  it('moves its checkpoint past searches that feed it nothing, to where the feed is complete', async () => {
    const account = await openAccount('PRO', { enabled: true, watch: false });
    const merchant = await addMerchant('923456789');
    const live = reactor().start();
    try {
      const position = await search(account, '923456789', [merchant]);
      await expect
        .poll(async () => (await live.readCheckpoint()) >= position, { timeout: 10_000 })
        .toBe(true);
      expect(await added(account)).toEqual([]);
    } finally {
      await live.stop();
    }
  });
});
