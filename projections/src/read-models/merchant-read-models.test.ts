import { randomUUID } from 'node:crypto';
import { type DomainEvent, streams } from '@mrn/contracts';
import { PostgresEventStore, platformMigrations, SearchLog, SearchLogWriter } from '@mrn/platform';
import { createTestDatabase, type TestDatabase } from '@mrn/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectionMigrations } from '../migrations.ts';
import { rebuildProjector, restoreDeferredIndexes } from '../rebuild.ts';
import { expectRebuildEqualsIncremental } from '../testing/replay-equality.ts';
import { merchantSearchesProjector, merchantsProjector, notesProjector } from './index.ts';

let db: TestDatabase;
let store: PostgresEventStore;
const account = randomUUID();
const user = randomUUID();
const [m1, m2, m3, m4] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
const [n1, n2, n3, n4, n5, n6] = [
  randomUUID(),
  randomUUID(),
  randomUUID(),
  randomUUID(),
  randomUUID(),
  randomUUID(),
];

const append = (stream: string, ...events: DomainEvent[]) =>
  store.appendToStream(
    stream,
    events.map((e) => ({ id: randomUUID(), ...e })),
    { expectedRevision: 'any' },
  );
const merchant = (merchantId: string, fein: string, legalName: string): DomainEvent => ({
  type: 'MerchantAdded',
  data: {
    merchantId,
    fein,
    legalName,
    dba: null,
    street1: '1 Main St',
    street2: null,
    city: 'Tampa',
    state: 'FL',
    businessPhone: null,
    businessStartdate: '2019-05-01',
    industry: 'Food',
    accountId: account,
    userId: user,
  },
});
const note = (
  merchantId: string,
  noteId: string,
  category: 'Slow Pay' | 'Stacking History' | 'Merchant Dispute',
): DomainEvent => ({
  type: 'NoteAdded',
  data: {
    merchantId,
    noteId,
    category,
    note: 'text',
    submissionSource: null,
    brokerName: null,
    accountId: account,
    userId: user,
    proxiedCreator: null,
  },
});

beforeAll(async () => {
  db = await createTestDatabase([...platformMigrations(), ...projectionMigrations()]);
  store = new PostgresEventStore(db.pool);
  await append(streams.merchant(m1), merchant(m1, '111111111', 'Alpha Bakery'), note(m1, n1, 'Slow Pay'));
  await append(
    streams.merchant(m2),
    merchant(m2, '222222222', 'Beta Motors'),
    note(m2, n2, 'Stacking History'),
  );
  // Two renames that a rebuild reads in one batch with the next: every name's words stay in the vocabulary.
  for (const [legalName, dba] of [
    ['Gamma Bistro', 'Gamma Eats'],
    ['Delta Diner', null],
  ] as const) {
    await append(streams.merchant(m1), {
      type: 'MerchantUpdated',
      data: {
        merchantId: m1,
        fein: '111111111',
        legalName,
        dba,
        street1: '1 Main St',
        street2: null,
        city: 'Tampa',
        state: 'FL',
        businessPhone: null,
        businessStartdate: '2019-05-01',
        industry: 'Food',
      },
    });
  }
  await append(
    streams.merchant(m1),
    {
      type: 'MerchantUpdated',
      data: {
        merchantId: m1,
        fein: '111111112',
        legalName: 'Alpha Bakery & Cafe',
        dba: null,
        street1: '1 Main St',
        street2: null,
        city: 'Tampa',
        state: 'FL',
        businessPhone: null,
        businessStartdate: '2019-05-01',
        industry: 'Food',
      },
    },
    note(m1, n3, 'Merchant Dispute'),
    {
      type: 'NoteUpdated',
      data: {
        merchantId: m1,
        noteId: n1,
        category: 'Stacking History',
        note: 'edited',
        submissionSource: 'in-house',
        brokerName: null,
      },
    },
    {
      type: 'NoteDeletionRequested',
      data: { merchantId: m1, noteId: n1, reason: 'paid', accountId: account, userId: user },
    },
  );
  await append(streams.merchant(m2), {
    type: 'MerchantArchived',
    data: { merchantId: m2, fein: '222222222', reason: 'duplicate' },
  });
  // Latest Note after archives: the newest remaining note, then none at all.
  await append(streams.merchant(m3), merchant(m3, '333333333', 'Gamma Garage'), note(m3, n4, 'Slow Pay'));
  await append(streams.merchant(m3), note(m3, n5, 'Stacking History'));
  await append(streams.merchant(m3), { type: 'NoteArchived', data: { merchantId: m3, noteId: n5 } });
  await append(
    streams.merchant(m4),
    merchant(m4, '444444444', 'Delta Dry Cleaning'),
    note(m4, n6, 'Slow Pay'),
  );
  await append(streams.merchant(m4), { type: 'NoteArchived', data: { merchantId: m4, noteId: n6 } });
  // Searches are facts of the search log (issue 31).
  await new SearchLogWriter(db.pool).append([
    {
      accountId: account,
      userId: user,
      source: 'web',
      term: 'alpha',
      einSearch: false,
      merchantIds: [m1],
      hit: true,
    },
    {
      accountId: account,
      userId: user,
      source: 'api',
      term: 'zzz',
      einSearch: false,
      merchantIds: [],
      hit: false,
    },
  ]);
});
afterAll(async () => {
  await store.close();
  await db.drop();
});

describe('merchant read models', () => {
  it('merchants: details, latest visible note category, archive; a rebuild yields the same rows', async () => {
    await expectRebuildEqualsIncremental({ pool: db.pool, store }, merchantsProjector);
    const { rows } = await db.pool.query(
      'select id, fein, legal_name, last_note_category, archive_reason, search_text from read.merchants order by fein',
    );
    expect(rows).toEqual([
      {
        id: m1,
        fein: '111111112',
        legal_name: 'Alpha Bakery & Cafe',
        // n1 was edited to Stacking History; the Merchant Dispute note never shows.
        last_note_category: 'Stacking History',
        archive_reason: null,
        search_text: 'alpha bakery & cafe ',
      },
      {
        id: m2,
        fein: '222222222',
        legal_name: 'Beta Motors',
        last_note_category: 'Stacking History',
        archive_reason: 'duplicate',
        search_text: 'beta motors ',
      },
      // Its newest note archived: the one before it is the latest again.
      {
        id: m3,
        fein: '333333333',
        legal_name: 'Gamma Garage',
        last_note_category: 'Slow Pay',
        archive_reason: null,
        search_text: 'gamma garage ',
      },
      // Its only note archived: no latest note at all.
      {
        id: m4,
        fein: '444444444',
        legal_name: 'Delta Dry Cleaning',
        last_note_category: null,
        archive_reason: null,
        search_text: 'delta dry cleaning ',
      },
    ]);
    // Keyword search indexes the words of live merchants only; the vocabulary keeps every word seen.
    const words = await db.pool.query(
      'select word, name, merchant_id from read.merchant_words where merchant_id = $1 order by word',
      [m1],
    );
    expect(words.rows).toEqual(
      ['alpha', 'bakery', 'cafe'].map((word) => ({ word, name: 'alpha bakery & cafe ', merchant_id: m1 })),
    );
    // And one row of word-beginning pairs per live merchant (migration 0024), of its latest name only:
    // renamed m1 has Alpha Bakery & Cafe's, archived m2 none.
    const keywords = await db.pool.query(
      'select merchant_id, name, words, pairs from read.merchant_keywords order by name',
    );
    expect(keywords.rows).toEqual([
      {
        merchant_id: m1,
        name: 'alpha bakery & cafe ',
        words: ['alpha', 'bakery', 'cafe'],
        pairs: ['alph bake', 'alph cafe', 'bake cafe'],
      },
      {
        merchant_id: m4,
        name: 'delta dry cleaning ',
        words: ['cleaning', 'delta', 'dry'],
        pairs: ['clea delt', 'clea dry', 'delt dry'],
      },
      { merchant_id: m3, name: 'gamma garage ', words: ['gamma', 'garage'], pairs: ['gamm gara'] },
    ]);
    const vocabulary = await db.pool.query<{ word: string }>('select word from read.search_words');
    expect(vocabulary.rows.map((r) => r.word)).toEqual(
      expect.arrayContaining([
        'alpha',
        'bakery',
        'cafe',
        'beta',
        'motors',
        'gamma',
        'bistro',
        'eats',
        'delta',
        'diner',
      ]),
    );
  });

  it('notes: edits, deletion requests, archived with their merchant; a rebuild yields the same rows', async () => {
    await expectRebuildEqualsIncremental({ pool: db.pool, store }, notesProjector);
    const { rows } = await db.pool.query(
      'select id, category, note, deletion_reason, archived_at is not null as archived from read.notes',
    );
    const byId = Object.fromEntries(rows.map((r) => [r.id, r]));
    expect(byId[n1]).toMatchObject({
      category: 'Stacking History',
      note: 'edited',
      deletion_reason: 'paid',
      archived: false,
    });
    expect(byId[n2]).toMatchObject({ archived: true });
    expect(byId[n3]).toMatchObject({ category: 'Merchant Dispute' });
  });

  it('merchant searches: one row per merchant found, none for a miss; a rebuild yields the same rows', async () => {
    await expectRebuildEqualsIncremental(
      { pool: db.pool, store, searches: new SearchLog(db.pool) },
      merchantSearchesProjector,
    );
    const { rows } = await db.pool.query('select merchant_id, account_id from read.merchant_searches');
    expect(rows).toEqual([{ merchant_id: m1, account_id: account }]);
  });
});

describe('indexes deferred by a rebuild', () => {
  const indexes = async () =>
    (
      await db.pool.query<{ indexname: string }>(
        `select indexname from pg_indexes where schemaname = 'read' and tablename in ('merchants', 'notes')`,
      )
    ).rows.map((r) => r.indexname);

  it('are all there again after a rebuild, and none is left recorded as dropped', async () => {
    const before = await indexes();
    await rebuildProjector({ pool: db.pool, store }, notesProjector);
    expect((await indexes()).sort()).toEqual(before.sort());
    expect(before).toEqual(
      expect.arrayContaining(['notes_recent', 'notes_recent_category', 'notes_reported']),
    );
    const { rows } = await db.pool.query('select name from rebuild_deferred_indexes');
    expect(rows).toEqual([]);
  });

  it('are created again on the next start when a rebuild was cut short', async () => {
    // What a rebuild leaves behind when it dies between dropping an index and building it again.
    await db.pool.query(
      `insert into rebuild_deferred_indexes (name, definition)
       select 'read.notes_reported', pg_get_indexdef('read.notes_reported'::regclass)`,
    );
    await db.pool.query('drop index read.notes_reported');
    expect(await indexes()).not.toContain('notes_reported');
    await restoreDeferredIndexes(db.pool);
    expect(await indexes()).toContain('notes_reported');
    const { rows } = await db.pool.query('select name from rebuild_deferred_indexes');
    expect(rows).toEqual([]);
  });
});
