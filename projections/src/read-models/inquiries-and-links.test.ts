import { randomUUID } from 'node:crypto';
import type { DomainEvent, EventData } from '@mrn/contracts';
import { platformMigrations, type RecordedEvent } from '@mrn/platform';
import { createTestDatabase, type TestDatabase } from '@mrn/platform/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectionMigrations } from '../migrations.ts';
import { applyBatch } from '../runner.ts';
import { recorded } from '../testing/recorded-events.ts';
import { snapshotTables } from '../testing/replay-equality.ts';
import { merchantInquiriesProjector } from './merchant-inquiries.ts';
import { merchantLinksProjector } from './merchant-links.ts';
import { merchantSearchesProjector } from './merchant-searches.ts';

// Issue 24's figures, fed events with chosen times and read back through what query-api reads:
// read.inquiry_velocity() at a fixed clock, and the link keys two merchants share.

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase([...platformMigrations(), ...projectionMigrations()]);
});
afterAll(async () => {
  await db?.drop();
});
beforeEach(async () => {
  await db.pool.query(
    `truncate ${[...merchantInquiriesProjector.tables, ...merchantLinksProjector.tables].join(', ')}`,
  );
});

const AS_OF = new Date('2026-11-26T12:00:00.000Z');
const DAY = 86_400_000;
/** `days` days and `seconds` seconds before AS_OF. */
const before = (days: number, seconds = 0) => new Date(AS_OF.getTime() - days * DAY - seconds * 1000);

const user = randomUUID();
const searched = (
  accountId: string,
  merchantIds: string[],
  at: Date,
  extra: Partial<EventData<'MerchantSearched'>> = {},
) =>
  recorded(
    {
      type: 'MerchantSearched',
      data: {
        accountId,
        userId: user,
        source: 'web',
        term: '123456789',
        einSearch: true,
        merchantIds,
        hit: merchantIds.length > 0,
        ...extra,
      },
    },
    at,
  );

const velocity = async (merchant: string, viewer: string, asOf = AS_OF) =>
  (await db.pool.query('select * from read.inquiry_velocity($1, $2, $3)', [merchant, viewer, asOf])).rows[0];

describe('inquiry velocity', () => {
  const M = randomUUID();
  const OTHER_MERCHANT = randomUUID();
  const viewer = randomUUID();
  const [b, c, d, e, f, g, admin] = [
    randomUUID(),
    randomUUID(),
    randomUUID(),
    randomUUID(),
    randomUUID(),
    randomUUID(),
    randomUUID(),
  ];

  const log = (): RecordedEvent[] => [
    // At each window's edge, one second inside and one second outside.
    searched(b, [M], before(7, -1)),
    searched(c, [M], before(7, 1)),
    searched(d, [M], before(30, -1)),
    searched(e, [M], before(30, 1)),
    searched(f, [M], before(90, -1)),
    searched(g, [M], before(90, 1)),
    // b again, earlier: still one funder, counted by its latest search.
    searched(b, [M], before(60)),
    // The viewer's own searches never count toward its view.
    searched(viewer, [M], before(0, 60)),
    // A platform administrator's search, a keyword list of several, and a miss count for no one.
    searched(admin, [M], before(1), { platformAdmin: true }),
    searched(admin, [M, OTHER_MERCHANT, randomUUID()], before(1), {
      einSearch: false,
      term: 'acme',
    }),
    searched(randomUUID(), [], before(1)),
    // A keyword search that found this merchant alone looked it up.
    searched(randomUUID(), [OTHER_MERCHANT], before(2), { einSearch: false, term: 'acme' }),
  ];

  it('counts distinct other funders in the last 7, 30 and 90 days, exact at each edge', async () => {
    await applyBatch(db.pool, merchantInquiriesProjector, log());
    // 7 days: b (7 d − 1 s). 30 days: + c (7 d + 1 s), d (30 d − 1 s). 90 days: + e (30 d + 1 s), f (90 d − 1 s).
    expect(await velocity(M, viewer)).toEqual({ last_7_days: 1, last_30_days: 3, last_90_days: 5 });
  });

  it("counts the viewer's searches for everyone else, and never names or leaks across merchants", async () => {
    await applyBatch(db.pool, merchantInquiriesProjector, log());
    // b's view of M: the viewer (1 minute ago) but not b itself; c, d, e, f as before.
    expect(await velocity(M, b)).toEqual({ last_7_days: 1, last_30_days: 3, last_90_days: 5 });
    // The other merchant: one funder's keyword search that found it alone; the admin's list is not counted.
    expect(await velocity(OTHER_MERCHANT, viewer)).toEqual({
      last_7_days: 1,
      last_30_days: 1,
      last_90_days: 1,
    });
    // A merchant nobody searched.
    expect(await velocity(randomUUID(), viewer)).toEqual({
      last_7_days: 0,
      last_30_days: 0,
      last_90_days: 0,
    });
  });

  it('moves with the clock: two seconds later each edge search inside has left its window', async () => {
    await applyBatch(db.pool, merchantInquiriesProjector, log());
    const later = new Date(AS_OF.getTime() + 2000);
    expect(await velocity(M, viewer, later)).toEqual({ last_7_days: 0, last_30_days: 2, last_90_days: 4 });
  });

  it('marks in the searches read model which search counted as a look-up (the audit reads it)', async () => {
    await db.pool.query(`truncate ${merchantSearchesProjector.tables.join(', ')}`);
    await applyBatch(db.pool, merchantSearchesProjector, log());
    const { rows } = await db.pool.query(
      'select account_id, looked_up from read.merchant_searches where merchant_id = $1 order by searched_at, account_id',
      [M],
    );
    const lookedUp = (account: string) =>
      rows.filter((r) => r.account_id === account).map((r) => r.looked_up);
    expect(lookedUp(b)).toEqual([true, true]);
    expect(lookedUp(viewer)).toEqual([true]);
    // The administrator: an EIN search (not counted) and a list of three (not a look-up).
    expect(lookedUp(admin)).toEqual([false, false]);
    expect(rows).toHaveLength(10);
  });

  it('gives the same rows whatever the batches: one by one, in threes, all at once, in reverse', async () => {
    const events = log();
    await applyBatch(db.pool, merchantInquiriesProjector, events);
    const once = await snapshotTables(db.pool, merchantInquiriesProjector);
    expect(once['read.merchant_inquiries']).toHaveLength(8);
    for (const order of [
      events.map((x) => [x]),
      [events.slice(0, 3), events.slice(3, 6), events.slice(6, 9), events.slice(9)],
      [...events].reverse().map((x) => [x]),
    ]) {
      await db.pool.query('truncate read.merchant_inquiries');
      for (const batch of order) await applyBatch(db.pool, merchantInquiriesProjector, batch);
      expect(await snapshotTables(db.pool, merchantInquiriesProjector)).toEqual(once);
    }
  });
});

describe('linked merchants', () => {
  const account = randomUUID();
  const added = (
    merchantId: string,
    fields: Partial<EventData<'MerchantAdded'>>,
    at = before(1),
  ): RecordedEvent =>
    recorded(
      {
        type: 'MerchantAdded',
        data: {
          merchantId,
          fein: '123456789',
          legalName: 'Any LLC',
          dba: null,
          street1: null,
          street2: null,
          city: 'Tulsa',
          state: 'OK',
          businessPhone: null,
          businessStartdate: null,
          industry: null,
          accountId: account,
          userId: user,
          ...fields,
        },
      },
      at,
    );
  const event = (e: DomainEvent, at = before(0)) => recorded(e, at);

  /** The other merchants sharing a key with `id`, and what they share (as query-api lists them). */
  const linkedTo = async (id: string) =>
    (
      await db.pool.query(
        `select o.merchant_id, array_agg(distinct o.kind order by o.kind) as shared
           from read.merchant_link_keys mine
           join read.merchant_link_keys o on o.kind = mine.kind and o.key = mine.key and o.merchant_id <> mine.merchant_id
          where mine.merchant_id = $1 group by 1 order by 1`,
        [id],
      )
    ).rows;

  const [m1, m2, m3, m4] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()].sort() as [
    string,
    string,
    string,
    string,
  ];
  const log = (): RecordedEvent[] => [
    added(m1, { businessPhone: '(918) 555-0142', street1: '200 West Main Street', city: 'Tulsa' }),
    // The same phone typed otherwise, elsewhere.
    added(m2, { businessPhone: '918.555.0142 ext. 3', street1: '9 Elm Ave', city: 'Tulsa' }),
    // The same street address typed otherwise, with a suite, and another phone.
    added(m3, { businessPhone: '+1 918 555 0199', street1: '200 W. Main St. Suite 4', city: 'TULSA' }),
    // The same street in another city, and a phone that is not a number: linked to nothing.
    added(m4, { businessPhone: 'n/a', street1: '200 W Main St', city: 'Broken Arrow' }),
  ];

  it('links EINs sharing a normalised phone or street address, saying what they share', async () => {
    await applyBatch(db.pool, merchantLinksProjector, log());
    expect(await linkedTo(m1)).toEqual(
      [
        { merchant_id: m2, shared: ['phone'] },
        { merchant_id: m3, shared: ['address'] },
      ].sort((a, b) => a.merchant_id.localeCompare(b.merchant_id)),
    );
    expect(await linkedTo(m4)).toEqual([]);
  });

  it('follows an update of the phone and drops an archived merchant from every list', async () => {
    await applyBatch(db.pool, merchantLinksProjector, [
      ...log(),
      event({
        type: 'MerchantUpdated',
        data: {
          merchantId: m2,
          fein: '123456789',
          legalName: 'Any LLC',
          dba: null,
          street1: '9 Elm Ave',
          street2: null,
          city: 'Tulsa',
          state: 'OK',
          businessPhone: '918 555 0199',
          businessStartdate: null,
          industry: null,
        },
      }),
    ]);
    expect(await linkedTo(m2)).toEqual([{ merchant_id: m3, shared: ['phone'] }]);
    expect(await linkedTo(m1)).toEqual([{ merchant_id: m3, shared: ['address'] }]);
    await applyBatch(db.pool, merchantLinksProjector, [
      event({ type: 'MerchantArchived', data: { merchantId: m3, fein: '123456789', reason: 'Duplicate' } }),
    ]);
    expect(await linkedTo(m1)).toEqual([]);
    expect(await linkedTo(m2)).toEqual([]);
  });

  it('gives the same rows whatever the batches', async () => {
    const events = log();
    await applyBatch(db.pool, merchantLinksProjector, events);
    const once = await snapshotTables(db.pool, merchantLinksProjector);
    await db.pool.query('truncate read.merchant_link_keys');
    for (const e of events) await applyBatch(db.pool, merchantLinksProjector, [e]);
    expect(await snapshotTables(db.pool, merchantLinksProjector)).toEqual(once);
  });
});
