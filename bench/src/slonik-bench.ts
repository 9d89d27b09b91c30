import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { loadavg } from 'node:os';
import {
  createPool,
  decodePosition,
  EVENT_STORE_STATEMENTS,
  type ExpectedRevision,
  encodePosition,
  type NewEvent,
  type Pool,
  type Position,
  PostgresEventStore,
  type RecordedEvent,
  runMigrations,
  SearchLog,
  START,
  type StreamAppend,
} from '@mrn/platform';
import { integerLiteral, many, one, sql, toPg } from '@mrn/platform/typed-sql';
import { allProjectors, rebuildProjectors } from '@mrn/projections';
import { keywordScan, keywordWords, SEARCH_STATEMENTS } from '@mrn/query-api';
import { allMigrations } from '@mrn/server';
import { z } from 'zod';
import { type BenchServer, createBenchDatabase } from './database.ts';
import { notePayload } from './event-store-bench.ts';
import { percentile } from './http-load.ts';
import type { SearchBenchOptions } from './search-bench.ts';
import { einOf, keywordTerm, type Owner, Rng } from './search-data.ts';
import { createFunder, seedMerchants } from './seeding.ts';
import { formatCount, formatMs, type Row, renderTable } from './table.ts';

/**
 * Issue 22 item 9: the hot paths' SQL run both ways on one database, side by side — plain pg as the
 * event store and query-api's search run it today, and the same statements written with slonik's `sql`
 * tag (`sql.prepared`, so named like today's) and run through `@mrn/platform/typed-sql`, whose rows are
 * checked with zod. Both go through a pg pool of the same size; only the query layer differs.
 */
export interface SlonikBenchOptions {
  /** Merchants seeded for the search statements (notes: three times as many). */
  merchants: number;
  /** Measured seconds per case and way, split into `rounds` interleaved slices. */
  seconds: number;
  warmupSeconds: number;
  rounds: number;
  /** Concurrent loops (and pool connections) per way. */
  concurrency: number;
}

/** Beyond this (or slower in more than three rounds of four), a hot path stays plain pg. */
const COST_LIMIT = 0.03;

type Op = () => Promise<void>;

interface Case {
  section: string;
  label: string;
  /** A fresh operation per loop (each loop keeps its own streams or cursor). */
  plain(): Op;
  slonik(): Op;
}

interface Slice {
  count: number;
  ms: number;
  cpuMicros: number;
  latencies: number[];
}

interface WayResult {
  perSecond: number;
  p50: number;
  p99: number;
  cpuMicrosPerOp: number;
  roundRates: number[];
}

export interface CaseResult {
  label: string;
  plain: WayResult;
  slonik: WayResult;
  /** slonik's rate over plain pg's, per round (the two run back to back in each round). */
  ratios: number[];
}

export async function runSlonikBench(server: BenchServer, opts: SlonikBenchOptions): Promise<CaseResult[]> {
  const notes = opts.merchants * 3;
  console.log(
    `bench:      the event store's hot statements and query-api's search statements, each run both ways: ` +
      `plain pg as they ran before (text, values, named statements) and as slonik tokens (\`sql.prepared\`, zod-parsed rows, ` +
      `@mrn/platform/typed-sql), through a pg pool of ${opts.concurrency} connections each, ${opts.concurrency} ` +
      `loops; ${opts.seconds} s per case and way in ${opts.rounds} interleaved rounds (the order alternating) ` +
      `after ${opts.warmupSeconds} s warm-up each; ${formatCount(opts.merchants)} merchants and ` +
      `${formatCount(notes)} notes seeded and projected for the searches`,
  );
  console.log(
    `load:       ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' / ')} (1/5/15 min load average before the suite)`,
  );
  const db = await createBenchDatabase(server, 'slonik');
  const pools: Pool[] = [];
  const pool = (size: number, asynchronousCommit = false) => {
    const p = createPool(db.url, size, { asynchronousCommit });
    pools.push(p);
    return p;
  };
  try {
    const seedPool = pool(6, true);
    await runMigrations(seedPool, allMigrations());
    checkSameSql();

    // ---- seeding: merchants and notes through the event store, projected as `npm run rebuild` does ----
    const seedStore = new PostgresEventStore(seedPool);
    const owner = await createFunder(seedStore);
    process.stderr.write('  seeding…\n');
    const seedOptions: SearchBenchOptions = {
      merchants: opts.merchants,
      notes,
      seedWriters: 4,
      seedBatch: 200,
      seconds: 0,
      warmupSeconds: 0,
      concurrency: 0,
      einShare: 0,
      port: 0,
      explain: false,
      keepDatabase: false,
      reuseDatabase: undefined,
    };
    await seedMerchants(seedStore, owner, seedOptions);
    process.stderr.write('  rebuilding the read models…\n');
    await rebuildProjectors(
      { pool: seedPool, store: seedStore, searches: new SearchLog(seedPool) },
      allProjectors,
    );
    await withoutTimeout(seedPool, [
      'vacuum (analyze) events, read.merchants, read.notes, read.merchant_words, read.search_words',
      'checkpoint',
    ]);

    const plainPool = pool(opts.concurrency);
    const slonikPool = pool(opts.concurrency);
    const casesOn = (plainDb: Pool, slonikDb: Pool) => [
      ...eventStoreCases(plainDb, new SlonikHotPaths(slonikDb)),
      ...searchCases(plainDb, slonikDb, owner, opts.merchants),
    ];
    const cases = casesOn(plainPool, slonikPool);
    const results: CaseResult[] = [];
    const rows: Row[] = [];
    let section = '';
    for (const c of cases) {
      process.stderr.write(`  ${c.label}…\n`);
      const result = await measureCase(c, opts);
      results.push(result);
      if (c.section !== section) {
        section = c.section;
        rows.push({ section });
      }
      rows.push(caseRow(result));
    }
    console.log(
      renderTable(
        [
          { header: 'case' },
          ...['per s', 'p50 ms', 'p99 ms', 'CPU µs/op'].map((header) => ({
            header,
            align: 'right' as const,
          })),
          ...['per s', 'p50 ms', 'p99 ms', 'CPU µs/op'].map((header) => ({
            header,
            align: 'right' as const,
          })),
          { header: 'rate: median, range', align: 'right' },
          { header: 'CPU/op', align: 'right' },
          { header: 'verdict' },
        ],
        rows,
        [
          { header: '', span: 1 },
          { header: 'plain pg', span: 4 },
          { header: 'slonik token + zod rows', span: 4 },
          { header: 'slonik vs pg (rate per round; client CPU)', span: 2 },
        ],
      ),
    );
    console.log(
      `\nnotes:  CPU µs/op is this process's (the client's) CPU time per operation, pg driver included; ` +
        `Postgres shares the machine's cores.\n        verdict: a cost is measurable when slonik's median ` +
        `rate is more than ${COST_LIMIT * 100}% below plain pg's, or it was slower in more than three rounds of ` +
        `four, or it took more than ${COST_LIMIT * 100}% more client CPU per operation.\n        load after: ` +
        `${loadavg()
          .map((l) => l.toFixed(2))
          .join(' / ')} (1/5/15 min; other work on the machine shows here)`,
    );

    // ---- the client's work alone: each case again on rows recorded from the database, no driver --------
    process.stderr.write('  the client-side work alone, on recorded rows…\n');
    const plainRecorder = new Recorder(plainPool);
    const slonikRecorder = new Recorder(slonikPool);
    for (const c of casesOn(plainRecorder.recording(), slonikRecorder.recording())) {
      const [p, q] = [c.plain(), c.slonik()];
      for (let i = 0; i < 20; i++) {
        await p();
        await q();
      }
    }
    const workRows: Row[] = [];
    section = '';
    const replayed = casesOn(plainRecorder.replaying(), slonikRecorder.replaying());
    for (const [i, c] of replayed.entries()) {
      const work = await measureWork(c, opts);
      const added = work.slonik - work.plain;
      const whole = results[i]!.plain.cpuMicrosPerOp;
      if (c.section !== section) {
        section = c.section;
        workRows.push({ section });
      }
      workRows.push([
        `  ${c.label}`,
        work.plain.toFixed(1),
        work.slonik.toFixed(1),
        added.toFixed(1),
        `${((100 * added) / whole).toFixed(1)}%`,
      ]);
    }
    console.log(
      `\nThe client's own work per operation, measured alone (each case run again, one loop, on rows recorded ` +
        `from the database, the largest answer of each statement, handed back without the driver or the ` +
        `network; process CPU time, median of ${opts.rounds} interleaved rounds): what slonik's tag and zod add, against plain pg's whole client ` +
        `CPU per operation in the table above (driver included).`,
    );
    console.log(
      renderTable(
        [
          { header: 'case' },
          { header: 'plain pg µs/op', align: 'right' },
          { header: 'slonik µs/op', align: 'right' },
          { header: 'slonik adds µs', align: 'right' },
          { header: 'of the client CPU/op', align: 'right' },
        ],
        workRows,
      ),
    );
    return results;
  } finally {
    for (const p of pools) await p.end().catch(() => undefined);
    await db.drop();
  }
}

// ---- the event store's hot paths, the same statements as slonik tokens --------------------------------

const Metadata = z.object({
  actorUserId: z.string().nullish(),
  actorAccountId: z.string().nullish(),
  onBehalfOfAccountId: z.string().nullish(),
  correlationId: z.string().nullish(),
  causationId: z.string().nullish(),
  source: z.enum(['web', 'api', 'system', 'stripe']).optional(),
  ip: z.string().nullish(),
  userAgent: z.string().nullish(),
});
const EventRow = z.object({
  position: z.number(),
  transaction_id: z.string(),
  stream_id: z.string(),
  revision: z.number(),
  event_id: z.string(),
  type: z.string(),
  data: z.unknown(),
  metadata: Metadata,
  recorded_at: z.date(),
});
const Appended = z.object({
  revision: z.number().nullable(),
  position: z.number().nullable(),
  tx: z.string(),
});

const textArray = (values: readonly string[]) => sql.array(values, sql.fragment`text[]`);
const uuidArray = (values: readonly string[]) => sql.array(values, sql.fragment`uuid[]`);
const jsonbArray = (values: readonly string[]) => sql.array(values, sql.fragment`jsonb[]`);
const bigintArray = (values: readonly string[]) => sql.array(values, sql.fragment`bigint[]`);

// A value used twice is bound twice: a slonik template has no `$n` of its own to refer back to.
const appendAt = (
  streamId: string,
  expected: string,
  ids: string[],
  types: string[],
  data: string[],
  meta: string[],
) =>
  sql.prepared('mrn_append_at', Appended)`
with ins as (
  insert into events (stream_id, revision, event_id, type, data, metadata)
  select ${streamId}, ${expected}::bigint + t.ord, t.id, t.type, t.data, t.metadata
  from unnest(${uuidArray(ids)}, ${textArray(types)}, ${jsonbArray(data)}, ${jsonbArray(meta)}) with ordinality as t(id, type, data, metadata, ord)
  where ${expected}::bigint < 0 or exists (select 1 from events where stream_id = ${streamId} and revision = ${expected}::bigint)
  returning revision, position
)
select max(revision) as revision, max(position) as position, pg_current_xact_id()::text as tx from ins`;

const AppendedMany = z.object({
  stream_id: z.string(),
  revision: z.number(),
  position: z.number(),
  tx: z.string(),
});

const appendMany = (c: {
  streams: string[];
  expected: string[];
  ids: string[];
  types: string[];
  data: string[];
  meta: string[];
}) => sql.prepared('mrn_append_many', AppendedMany)`
with input as (
  select * from unnest(${textArray(c.streams)}, ${bigintArray(c.expected)}, ${uuidArray(c.ids)}, ${textArray(c.types)}, ${jsonbArray(c.data)}, ${jsonbArray(c.meta)})
    with ordinality as t(stream_id, expected, id, type, data, metadata, ord)
), bases as (
  select i.stream_id, min(i.expected) as expected,
         case when min(i.expected) = -2
              then (select coalesce(max(e.revision), -1) from events e where e.stream_id = i.stream_id)
              else min(i.expected) end as r
  from input i group by i.stream_id
), checked as (
  select coalesce(bool_and(b.expected < 0 or exists (
           select 1 from events e where e.stream_id = b.stream_id and e.revision = b.expected)), true) as ok
  from bases b
), ins as (
  insert into events (stream_id, revision, event_id, type, data, metadata)
  select i.stream_id, b.r + row_number() over (partition by i.stream_id order by i.ord), i.id, i.type, i.data, i.metadata
  from input i join bases b on b.stream_id = i.stream_id, checked
  where checked.ok
  order by i.ord
  returning stream_id, revision, position
)
select stream_id, max(revision) as revision, max(position) as position, pg_current_xact_id()::text as tx
from ins group by stream_id`;

// Each row carries the snapshot's horizon; when nothing is due one row comes back, all its event columns null.
const LogRow = z.union([
  EventRow.extend({ horizon: z.string() }),
  z.object({ horizon: z.string(), position: z.null() }),
]);

const readAll = (limit: number, transactionId: string, position: string) =>
  sql.prepared(`mrn_read_all_${limit}`, LogRow)`
with h as materialized (select pg_snapshot_xmin(pg_current_snapshot()) as x)
select h.x::text as horizon, r.* from h left join lateral (
  select position, transaction_id, stream_id, revision, event_id, type, data, metadata, recorded_at from events
  where transaction_id < h.x and (transaction_id, position) > (${transactionId}::text::xid8, ${position}::bigint)
  order by transaction_id, position
  limit ${integerLiteral(limit)}) r on true`;

/**
 * What PostgresEventStore's appendToStream (expected revision given), appendMany and readAll do on their
 * way without conflicts, through slonik tokens: the conflict and retry paths are not measured.
 */
class SlonikHotPaths {
  /** As the store's: an append wakes its in-process subscribers (none here). */
  private readonly wake = new EventEmitter();

  constructor(private readonly pool: Pool) {}

  async appendToStream(streamId: string, events: NewEvent[], expected: ExpectedRevision) {
    if (expected === 'any') throw new Error('the bench appends at an expected revision');
    const row = await one(
      this.pool,
      appendAt(
        streamId,
        (expected === 'no_stream' ? -1n : expected).toString(),
        events.map((e) => e.id),
        events.map((e) => e.type),
        events.map((e) => JSON.stringify(e.data ?? {})),
        events.map((e) => JSON.stringify(e.metadata ?? {})),
      ),
    );
    if (row.revision === null || row.position === null) throw new Error(`${streamId}: not at ${expected}`);
    return { nextRevision: BigInt(row.revision), position: encodePosition(row.tx, row.position) };
  }

  /** Step for step the store's appendBatch (its checks, its wake-up), the statement a slonik token. */
  async appendMany(batch: StreamAppend[]) {
    if (batch.length === 0) return [];
    const seen = new Set<string>();
    for (const b of batch) {
      if (seen.has(b.streamId)) throw new Error(`appendMany got stream ${b.streamId} twice`);
      if (b.events.length === 0) throw new Error(`appendMany got no events for ${b.streamId}`);
      if (typeof b.expectedRevision === 'bigint' && b.expectedRevision < 0n)
        throw new RangeError(`Expected revision must not be negative: ${b.expectedRevision}`);
      seen.add(b.streamId);
    }
    const flat = batch.flatMap((b) => b.events.map((e) => ({ b, e })));
    const code = (e: ExpectedRevision) => (e === 'any' ? -2n : e === 'no_stream' ? -1n : e).toString();
    const rows = await many(
      this.pool,
      appendMany({
        streams: flat.map((x) => x.b.streamId),
        expected: flat.map((x) => code(x.b.expectedRevision)),
        ids: flat.map((x) => x.e.id),
        types: flat.map((x) => x.e.type),
        data: flat.map((x) => JSON.stringify(x.e.data ?? {})),
        meta: flat.map((x) => JSON.stringify(x.e.metadata ?? {})),
      }),
    );
    if (rows.length === 0) throw new Error('appendMany refused');
    this.wake.emit('wake');
    const byStream = new Map(rows.map((r) => [r.stream_id, r]));
    return batch.map((b) => {
      const r = byStream.get(b.streamId)!;
      return { nextRevision: BigInt(r.revision), position: encodePosition(r.tx, r.position) };
    });
  }

  async readAll(opts: { fromPosition: Position; maxCount: number }): Promise<RecordedEvent[]> {
    const { transactionId, position } = decodePosition(opts.fromPosition);
    const rows = await many(
      this.pool,
      readAll(Math.max(1, Math.floor(opts.maxCount)), transactionId.toString(), position.toString()),
    );
    return rows
      .flatMap((row) => (row.position === null ? [] : [row]))
      .map((row) => ({
        id: row.event_id,
        streamId: row.stream_id,
        revision: BigInt(row.revision),
        position: encodePosition(row.transaction_id, row.position),
        type: row.type,
        data: row.data,
        metadata: row.metadata,
        recordedAt: row.recorded_at,
      }));
  }
}

interface Appender {
  appendToStream(
    streamId: string,
    events: NewEvent[],
    expected: ExpectedRevision,
  ): Promise<{ nextRevision: bigint }>;
  appendMany(batch: StreamAppend[]): Promise<unknown>;
  readAll(opts: { fromPosition: Position; maxCount: number }): Promise<RecordedEvent[]>;
}

const READ_BATCH = 1000;

function eventStoreCases(plainDb: Pool, slonik: SlonikHotPaths): Case[] {
  // Without group commit (issue 23), so that both ways run the same statement for a 1-event append:
  // the comparison is of the query layer, and grouping would be one more statement to restate.
  const store = new PostgresEventStore(plainDb, { groupCommit: false });
  const plain: Appender = {
    appendToStream: (streamId, events, expectedRevision) =>
      store.appendToStream(streamId, events, { expectedRevision }),
    appendMany: (batch) => store.appendMany(batch),
    readAll: (o) => store.readAll(o),
  };
  const singles = (store: Appender): Op => {
    const { data, metadata } = notePayload();
    let streamId = `bench-${randomUUID()}`;
    let expected: ExpectedRevision = 'no_stream';
    let appends = 0;
    return async () => {
      // Ten appends a stream, so both the new-stream and the expected-revision statements run.
      if (appends === 10) {
        streamId = `bench-${randomUUID()}`;
        expected = 'no_stream';
        appends = 0;
      }
      const event = { id: randomUUID(), type: 'NoteAdded', data, metadata };
      expected = (await store.appendToStream(streamId, [event], expected)).nextRevision;
      appends++;
    };
  };
  const batches = (store: Appender): Op => {
    const { data, metadata } = notePayload();
    return async () => {
      const batch: StreamAppend[] = Array.from({ length: 20 }, () => ({
        streamId: `bench-${randomUUID()}`,
        expectedRevision: 'no_stream' as const,
        events: Array.from({ length: 5 }, () => ({ id: randomUUID(), type: 'NoteAdded', data, metadata })),
      }));
      await store.appendMany(batch);
    };
  };
  const reads = (store: Appender): Op => {
    let cursor: Position = START;
    return async () => {
      const events = await store.readAll({ fromPosition: cursor, maxCount: READ_BATCH });
      cursor = events.length === READ_BATCH ? events[events.length - 1]!.position : START;
    };
  };
  const section = 'event store (platform/src/event-store/postgres-event-store.ts)';
  return [
    {
      section,
      label: 'append 1 event (appendToStream at its revision, no group commit)',
      plain: () => singles(plain),
      slonik: () => singles(slonik),
    },
    {
      section,
      label: 'append 100 events (appendMany, 20 new streams × 5)',
      plain: () => batches(plain),
      slonik: () => batches(slonik),
    },
    {
      section,
      label: `read the log forward (readAll, ${READ_BATCH} events a read)`,
      plain: () => reads(plain),
      slonik: () => reads(slonik),
    },
  ];
}

// ---- query-api's search statements, as slonik tokens ------------------------------------------------

const merchantShape = {
  id: z.string(),
  fein: z.string(),
  legal_name: z.string(),
  dba: z.string().nullable(),
  street1: z.string().nullable(),
  street2: z.string().nullable(),
  city: z.string(),
  state: z.string(),
  business_phone: z.string().nullable(),
  business_startdate: z.date().nullable(),
  industry: z.string().nullable(),
  account_id: z.string(),
  created_at: z.date(),
  last_note_category: z.string().nullable(),
  archived_at: z.date().nullable(),
  archive_reason: z.string().nullable(),
  account_name: z.string().nullable(),
  user_name: z.string().nullable(),
};
// A merchant a search found: whether the searching account watches its EIN, its inquiry velocity and
// its risk signals.
const searchedShape = {
  ...merchantShape,
  watched: z.boolean(),
  last_7_days: z.number().nullable(),
  last_30_days: z.number().nullable(),
  last_90_days: z.number().nullable(),
  signal_funders: z.number().nullable(),
  signal_reports: z.unknown(),
  disputes_open: z.number().nullable(),
  disputes_resolved: z.number().nullable(),
};
// The merchant columns come from a left join: all null when no merchant was found.
const nullableSearched = Object.fromEntries(
  Object.entries(searchedShape).map(([k, v]) => [k, v.nullable()]),
) as { [K in keyof typeof searchedShape]: z.ZodNullable<(typeof searchedShape)[K]> };
const EinWithStanding = z.object({ locked_out: z.boolean().nullable(), ...nullableSearched });
const KeywordWithStanding = z.object({
  locked_out: z.boolean().nullable(),
  found: z.number().nullable(),
  ...nullableSearched,
});

const MERCHANT_COLUMNS = sql.fragment`m.id, m.fein, m.legal_name, m.dba, m.street1, m.street2, m.city, m.state, m.business_phone,
  m.business_startdate, m.industry, m.account_id, m.created_at, m.last_note_category, m.archived_at, m.archive_reason,
  a.name as account_name, u.first_name || ' ' || u.last_name as user_name`;
const MERCHANT_JOINS = sql.fragment`left join read.accounts a on a.id = m.account_id left join read.users u on u.id = m.user_id`;
// Whether the searching account watches the merchant's EIN, and the merchant's inquiry velocity as that
// account sees it: the account id is bound again at each use (a slonik template has no `$n` to refer back to).
const watched = (accountId: string) =>
  sql.fragment`exists (select 1 from read.merchant_subscriptions ws where ws.account_id = ${accountId} and ws.fein = m.fein) as watched`;
const INQUIRY_COLUMNS = sql.fragment`iv.last_7_days, iv.last_30_days, iv.last_90_days`;
const inquiryJoin = (accountId: string) =>
  sql.fragment`left join lateral read.inquiry_velocity(m.id, ${accountId}::uuid, now()) iv on true`;
const SIGNAL_COLUMNS = sql.fragment`sg.funders as signal_funders, sg.reports as signal_reports, sd.open as disputes_open, sd.resolved as disputes_resolved`;
const SIGNAL_JOINS = sql.fragment`left join read.merchant_signals sg on sg.merchant_id = m.id
  left join lateral (select count(*) filter (where not d.resolved)::int as open, count(*) filter (where d.resolved)::int as resolved
                       from read.signal_disputes d where d.fein = m.fein) sd on true`;
const standing = (accountId: string) => sql.fragment`select (not a.contribution_override
      and coalesce(c.ninety_day, 100) < 0.5
      and (a.contribution_locked or coalesce(a.contribution_warning_expire_date <= now(), false))) as locked_out
  from read.accounts a
  left join read.account_contribution c on c.account_id = a.id
  where a.id = ${accountId}`;

// The 0.5 is the contracts' MIN_CONTRIBUTION_PERCENT, written into the server's text as here.
const einWithStanding = (accountId: string, fein: string) =>
  sql.prepared('mrn_search_ein', EinWithStanding)`select s.locked_out, m.*
  from (select 1) as one
  left join (${standing(accountId)}) as s on true
  left join lateral (select ${MERCHANT_COLUMNS}, ${watched(accountId)}, ${INQUIRY_COLUMNS}, ${SIGNAL_COLUMNS}
                      from read.merchants m ${MERCHANT_JOINS} ${inquiryJoin(accountId)} ${SIGNAL_JOINS}
                      where m.fein = ${fein} and m.archived_at is null) as m on true`;

const KEYWORD_LIMIT = 26;
// The scan way of a keyword search (one word, or a pair of words crowded past KEYWORD_CROWDED) in one
// statement, as query-api's matching() sends it: standing, the scan's first merchants, those merchants.
// Two words or more go to the intersection first (read.keyword_matches), not restated here: its arrays
// are bound without a cast, which a slonik token cannot write (sql.array adds one).
const keywordScanWithStanding = (
  accountId: string,
  [from, upto, likes, patterns]: [string, string, string[], string[]],
) =>
  sql.prepared(`mrn_search_keyword_${KEYWORD_LIMIT}`, KeywordWithStanding)`select s.locked_out, f.found, m.*
  from (select 1) as one
  left join (${standing(accountId)}) as s on true
  cross join lateral (select array(
    select s.merchant_id from (select merchant_id, row_number() over () as at from (select w.merchant_id from read.merchant_words w
  where w.word >= ${from} and w.word < ${upto}
    and w.name like all(${textArray(likes)}) and w.name ~ all(${textArray(patterns)})
  order by w.word, w.name, w.merchant_id
  limit ${integerLiteral(KEYWORD_LIMIT * 4)}) as w) as s
    group by s.merchant_id order by min(s.at) limit ${integerLiteral(KEYWORD_LIMIT)}) as ids, null::int as found) as f
  left join lateral (select ${MERCHANT_COLUMNS}, ${watched(accountId)}, ${INQUIRY_COLUMNS}, ${SIGNAL_COLUMNS}
                      from read.merchants m ${MERCHANT_JOINS} ${inquiryJoin(accountId)} ${SIGNAL_JOINS}
                      where m.id = any(f.ids) and m.archived_at is null) as m on true
  order by array_position(f.ids, m.id)`;

function searchCases(plainPool: Pool, slonikPool: Pool, owner: Owner, merchants: number): Case[] {
  const ein = (way: 'plain' | 'slonik', seed: number): Op => {
    const rng = new Rng(seed);
    return async () => {
      const fein = einOf(Math.floor(rng.next() * merchants));
      // As query-api's byEinWithStanding: rows whose merchant columns are null mean no merchant.
      const rows =
        way === 'plain'
          ? (
              await plainPool.query<{ id: string | null }>({
                name: 'mrn_search_ein',
                text: SEARCH_STATEMENTS.einWithStanding,
                values: [owner.accountId, fein],
              })
            ).rows
          : await many(slonikPool, einWithStanding(owner.accountId, fein));
      if (rows.filter((r) => r.id !== null).length !== 1) throw new Error(`EIN ${fein} not found`);
    };
  };
  const byName = (way: 'plain' | 'slonik', seed: number): Op => {
    const rng = new Rng(seed);
    return async () => {
      let term: string;
      do term = keywordTerm(rng).term;
      while (keywordWords(term).length === 0);
      const scan = keywordScan(keywordWords(term));
      // As query-api's matching() when it scans: one statement, rows in the order found.
      const rows =
        way === 'plain'
          ? (
              await plainPool.query<{ id: string | null }>({
                name: `mrn_search_keyword_${KEYWORD_LIMIT}`,
                text: SEARCH_STATEMENTS.keywordScanWithStanding,
                values: [owner.accountId, ...scan],
              })
            ).rows
          : await many(slonikPool, keywordScanWithStanding(owner.accountId, scan));
      if (rows.length === 0) throw new Error(`No row for '${term}'`);
    };
  };
  const section = "search (query-api's search handler: its statements, without HTTP)";
  let seed = 1;
  return [
    {
      section,
      label: 'EIN look-up with the account standing (1 statement)',
      plain: () => ein('plain', seed++),
      slonik: () => ein('slonik', seed++),
    },
    {
      section,
      label: 'name look-up the scan way, with the account standing (1 statement)',
      plain: () => byName('plain', seed++),
      slonik: () => byName('slonik', seed++),
    },
  ];
}

// ---- measuring ---------------------------------------------------------------------------------------

async function measureCase(c: Case, opts: SlonikBenchOptions): Promise<CaseResult> {
  const plainOps = Array.from({ length: opts.concurrency }, () => c.plain());
  const slonikOps = Array.from({ length: opts.concurrency }, () => c.slonik());
  await runSlice(plainOps, opts.warmupSeconds);
  await runSlice(slonikOps, opts.warmupSeconds);
  const plain: Slice[] = [];
  const slonik: Slice[] = [];
  const sliceSeconds = opts.seconds / opts.rounds;
  for (let round = 0; round < opts.rounds; round++) {
    // Alternating which goes first, so a drift of the machine (autovacuum, a checkpoint) hits both alike.
    if (round % 2 === 0) {
      plain.push(await runSlice(plainOps, sliceSeconds));
      slonik.push(await runSlice(slonikOps, sliceSeconds));
    } else {
      slonik.push(await runSlice(slonikOps, sliceSeconds));
      plain.push(await runSlice(plainOps, sliceSeconds));
    }
  }
  return {
    label: c.label,
    plain: summarise(plain),
    slonik: summarise(slonik),
    ratios: plain.map((p, i) => rate(slonik[i]!) / rate(p)),
  };
}

/**
 * CPU µs per operation of each way, one loop, in interleaved rounds (no database: see Recorder): the
 * median of the rounds' figures, so a garbage collection landing in one round does not tip the result.
 */
async function measureWork(c: Case, opts: SlonikBenchOptions): Promise<{ plain: number; slonik: number }> {
  const ways = { plain: c.plain(), slonik: c.slonik() };
  const perRound: { plain: number[]; slonik: number[] } = { plain: [], slonik: [] };
  const run = async (way: 'plain' | 'slonik', seconds: number): Promise<number> => {
    const op = ways[way];
    const until = performance.now() + seconds * 1000;
    const cpu = process.cpuUsage();
    let n = 0;
    while (performance.now() < until) {
      await op();
      n++;
    }
    const used = process.cpuUsage(cpu);
    return (used.user + used.system) / n;
  };
  await run('plain', 0.5);
  await run('slonik', 0.5);
  const slice = Math.max(0.1, opts.seconds / opts.rounds / 4);
  for (let round = 0; round < opts.rounds; round++) {
    const order: ('plain' | 'slonik')[] = round % 2 === 0 ? ['plain', 'slonik'] : ['slonik', 'plain'];
    for (const way of order) perRound[way].push(await run(way, slice));
  }
  return { plain: median(perRound.plain), slonik: median(perRound.slonik) };
}

type QueryConfig = string | { name?: string; text: string };
const statementKey = (config: QueryConfig) =>
  typeof config === 'string' ? config : (config.name ?? config.text);

/**
 * Records the last rows of each statement run through a pool, and hands them back for the same
 * statement without a database: the client's own work (building the statement, reading its rows)
 * measured apart from the driver, the network and Postgres.
 */
class Recorder {
  private readonly rows = new Map<string, unknown[]>();

  constructor(private readonly pool: Pool) {}

  recording(): Pool {
    const query = async (config: QueryConfig, values?: unknown[]) => {
      const result = await this.pool.query(config as string, values);
      // The largest answer is kept (a full page of merchants, a full batch of the log): the work measured
      // is that of the statement's biggest answer in the recording, not of whichever came last.
      const key = statementKey(config);
      if (result.rows.length >= (this.rows.get(key)?.length ?? 0)) this.rows.set(key, result.rows);
      return result;
    };
    return { query } as unknown as Pool;
  }

  replaying(): Pool {
    const query = async (config: QueryConfig) => {
      const recorded = this.rows.get(statementKey(config));
      if (!recorded) throw new Error(`No rows recorded for ${statementKey(config).slice(0, 80)}`);
      // appendMany answers a row per stream, matched to the batch by stream id, and every batch has new
      // streams: the recorded rows are handed back under this batch's ids (its first parameter).
      const streams = typeof config === 'string' ? undefined : (config as { values?: unknown[] }).values?.[0];
      const rows =
        config !== null &&
        typeof config === 'object' &&
        config.name === 'mrn_append_many' &&
        Array.isArray(streams)
          ? [...new Set(streams as string[])].map((streamId, i) => ({
              ...(recorded[i % recorded.length] as object),
              stream_id: streamId,
            }))
          : recorded;
      return { rows, rowCount: rows.length };
    };
    return { query } as unknown as Pool;
  }
}

async function runSlice(ops: Op[], seconds: number): Promise<Slice> {
  const latencies: number[] = [];
  const started = performance.now();
  const until = started + seconds * 1000;
  const cpu = process.cpuUsage();
  await Promise.all(
    ops.map(async (op) => {
      while (performance.now() < until) {
        const t = performance.now();
        await op();
        latencies.push(performance.now() - t);
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  return {
    count: latencies.length,
    ms: performance.now() - started,
    cpuMicros: used.user + used.system,
    latencies,
  };
}

const rate = (s: Slice) => (s.count * 1000) / s.ms;
function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function summarise(slices: Slice[]): WayResult {
  const count = slices.reduce((a, s) => a + s.count, 0);
  const ms = slices.reduce((a, s) => a + s.ms, 0);
  const latencies = slices.flatMap((s) => s.latencies).sort((a, b) => a - b);
  return {
    perSecond: (count * 1000) / ms,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    cpuMicrosPerOp: slices.reduce((a, s) => a + s.cpuMicros, 0) / count,
    roundRates: slices.map(rate),
  };
}

/**
 * Whether slonik costs this path something measurable: its median rate over the rounds more than
 * COST_LIMIT below plain pg's, or slower in more than three rounds of four (beyond the rounds' noise), or
 * more than COST_LIMIT more of the client's CPU per operation (on two cores shared with Postgres, CPU
 * the client spends is taken from the server under load).
 */
export function slonikCosts(r: CaseResult): boolean {
  const slowerRounds = r.ratios.filter((x) => x < 1).length;
  return (
    1 - median(r.ratios) > COST_LIMIT ||
    slowerRounds > r.ratios.length * 0.75 ||
    r.slonik.cpuMicrosPerOp / r.plain.cpuMicrosPerOp - 1 > COST_LIMIT
  );
}

function caseRow(r: CaseResult): string[] {
  const way = (w: WayResult) => [
    formatCount(w.perSecond),
    formatMs(w.p50),
    formatMs(w.p99),
    Math.round(w.cpuMicrosPerOp).toString(),
  ];
  const pct = (x: number) => `${x >= 1 ? '+' : ''}${((x - 1) * 100).toFixed(1)}%`;
  const sorted = [...r.ratios].sort((a, b) => a - b);
  return [
    `  ${r.label}`,
    ...way(r.plain),
    ...way(r.slonik),
    `${pct(median(sorted))} (${pct(sorted[0]!)} … ${pct(sorted.at(-1)!)})`,
    pct(r.slonik.cpuMicrosPerOp / r.plain.cpuMicrosPerOp),
    slonikCosts(r) ? 'costs: plain pg stays' : 'no measurable cost',
  ];
}

// ---- set-up ------------------------------------------------------------------------------------------

/** The restated statements are the hot paths' own, up to placeholder numbers and white space. */
function checkSameSql(): void {
  const norm = (text: string) => text.replace(/\$\d+/g, '$?').replace(/\s+/g, ' ').trim();
  const pairs: [string, string, string][] = [
    ['appendAt', toPg(appendAt('s', '0', [], [], [], [])).text, EVENT_STORE_STATEMENTS.appendAt],
    [
      'appendMany',
      toPg(appendMany({ streams: [], expected: [], ids: [], types: [], data: [], meta: [] })).text,
      EVENT_STORE_STATEMENTS.appendMany,
    ],
    ['readAll', toPg(readAll(READ_BATCH, '0', '0')).text, EVENT_STORE_STATEMENTS.readAll(READ_BATCH, false)],
    ['einWithStanding', toPg(einWithStanding(randomUUID(), '0')).text, SEARCH_STATEMENTS.einWithStanding],
    [
      'keywordScanWithStanding',
      toPg(keywordScanWithStanding(randomUUID(), ['a', 'b', [], []])).text,
      SEARCH_STATEMENTS.keywordScanWithStanding,
    ],
  ];
  for (const [name, ours, theirs] of pairs) {
    if (norm(ours) !== norm(theirs)) {
      throw new Error(
        `The slonik restatement of ${name} differs from the server's:\n${ours}\n---\n${theirs}`,
      );
    }
  }
}

async function withoutTimeout(pool: Pool, statements: string[]): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('set statement_timeout = 0');
    for (const s of statements) await client.query(s);
  } finally {
    await client.query('reset statement_timeout').catch(() => undefined);
    client.release();
  }
}
