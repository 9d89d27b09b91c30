import { randomUUID } from 'node:crypto';
import {
  type PostgresEventStore as EmmettStore,
  getPostgreSQLEventStore,
} from '@event-driven-io/emmett-postgresql';
import {
  createPool,
  type ExpectedRevision,
  type NewEvent,
  type Pool,
  PostgresEventStore,
  platformMigrations,
  runMigrations,
  START,
} from '@mrn/platform';
import pg from 'pg';
import { type BenchServer, createBenchDatabase } from './database.ts';
import { formatCount, formatMs, formatRatio, type Row, renderTable } from './table.ts';

export interface EventStoreBenchOptions {
  seconds: number;
  warmupSeconds: number;
  writers: number;
  /** Appends per stream before a writer opens a new one, so both the new-stream and the expected-revision paths run. */
  appendsPerStream: number;
  /** The measured seconds are split into this many interleaved slices per target. */
  rounds: number;
}

/** One append by one writer; each writer owns its streams, so expected revisions never conflict. */
type Append = () => Promise<void>;

interface Target {
  name: string;
  writer(eventsPerAppend: number): Append;
  /** Rows this target's table should hold after the run, to check nothing was lost or doubled. */
  countRows(): Promise<number>;
  appendedEvents: number;
}

interface Measurement {
  appendsPerSecond: number;
  eventsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

const SIZES = [1, 100];

// A note as the product records it: realistic widths matter because jsonb parsing and WAL volume
// are a large part of an append's cost.
export function notePayload() {
  return {
    data: {
      merchantId: randomUUID(),
      noteId: randomUUID(),
      fein: '123456789',
      category: 'slow_pay',
      amountCents: 1_250_000,
      occurredOn: '2026-03-14',
      text: 'Merchant missed three consecutive daily ACH debits; account moved to collections after no response.',
    },
    metadata: {
      actorUserId: randomUUID(),
      actorAccountId: randomUUID(),
      onBehalfOfAccountId: null,
      correlationId: randomUUID(),
      causationId: null,
      source: 'web' as const,
      ip: '203.0.113.7',
    },
  };
}

const newStreamId = () => `merchant-${randomUUID()}`;

/** Our store's appends, to streams `{prefix}-…` so that two stores on one table count their own rows. */
function ourStore(
  store: PostgresEventStore,
  pool: Pool,
  opts: EventStoreBenchOptions,
  name: string,
  prefix: string,
): Target {
  const newStreamId = () => `${prefix}-${randomUUID()}`;
  return {
    name,
    writer(size) {
      const { data, metadata } = notePayload();
      let streamId = newStreamId();
      let appends = 0;
      let expectedRevision: ExpectedRevision = 'no_stream';
      return async () => {
        if (appends === opts.appendsPerStream) {
          streamId = newStreamId();
          appends = 0;
          expectedRevision = 'no_stream';
        }
        const events: NewEvent[] = Array.from({ length: size }, () => ({
          id: randomUUID(),
          type: 'NoteAdded',
          data,
          metadata,
        }));
        expectedRevision = (await store.appendToStream(streamId, events, { expectedRevision })).nextRevision;
        appends++;
      };
    },
    appendedEvents: 0,
    countRows: () => countRows(pool, 'events', `stream_id like '${prefix}-%'`),
  };
}

// The physical limit: the same rows into a table with the same columns, indexes and constraints, one
// multi-row INSERT per append, no concurrency check and nothing returned.
function plainInsert(pool: Pool, opts: EventStoreBenchOptions): Target {
  const statements = new Map(
    SIZES.map((size) => {
      const rows = Array.from({ length: size }, (_, i) => {
        const p = i * 6;
        return `($${p + 1}, $${p + 2}, $${p + 3}, $${p + 4}, $${p + 5}, $${p + 6})`;
      });
      return [
        size,
        `insert into events_plain (stream_id, revision, event_id, type, data, metadata) values ${rows}`,
      ];
    }),
  );
  return {
    name: 'plain INSERT',
    writer(size) {
      const { data, metadata } = notePayload();
      const sql = statements.get(size)!;
      let streamId = newStreamId();
      let appends = 0;
      let revision = 0;
      return async () => {
        if (appends === opts.appendsPerStream) {
          streamId = newStreamId();
          appends = 0;
          revision = 0;
        }
        const params: unknown[] = [];
        for (let i = 0; i < size; i++) {
          params.push(
            streamId,
            revision + i,
            randomUUID(),
            'NoteAdded',
            JSON.stringify(data),
            JSON.stringify(metadata),
          );
        }
        await pool.query(sql, params);
        revision += size;
        appends++;
      };
    },
    appendedEvents: 0,
    countRows: () => countRows(pool, 'events_plain'),
  };
}

function emmett(store: EmmettStore, pool: Pool, opts: EventStoreBenchOptions): Target {
  return {
    name: 'Emmett 0.42',
    writer(size) {
      const { data, metadata } = notePayload();
      let streamId = newStreamId();
      let appends = 0;
      // Emmett counts stream versions from 1; 0 is its "stream does not exist yet".
      let expectedStreamVersion = 0n;
      return async () => {
        if (appends === opts.appendsPerStream) {
          streamId = newStreamId();
          appends = 0;
          expectedStreamVersion = 0n;
        }
        const events = Array.from({ length: size }, () => ({ type: 'NoteAdded', data, metadata }));
        expectedStreamVersion = (await store.appendToStream(streamId, events, { expectedStreamVersion }))
          .nextExpectedStreamVersion;
        appends++;
      };
    },
    appendedEvents: 0,
    countRows: () => countRows(pool, 'emt_messages'),
  };
}

async function countRows(pool: Pool, table: string, where = 'true'): Promise<number> {
  const { rows } = await pool.query<{ n: string | number | bigint }>(
    `select count(*) as n from ${table} where ${where}`,
  );
  return Number(rows[0]!.n);
}

interface Tally {
  appendsPerSecond: number;
  latencies: number[];
}

/**
 * Runs `writers` concurrent append loops for `seconds`. Each writer's rate is its appends over the
 * time up to its last completion, so an append cut off by the deadline biases no one.
 */
async function runWriters(target: Target, size: number, writers: number, seconds: number): Promise<Tally> {
  const start = performance.now();
  const end = start + seconds * 1000;
  const latencies: number[] = [];
  const rates = await Promise.all(
    Array.from({ length: writers }, async () => {
      const append = target.writer(size);
      let done = 0;
      let last = start;
      while (performance.now() < end) {
        const t0 = performance.now();
        await append();
        last = performance.now();
        latencies.push(last - t0);
        done++;
      }
      return done / ((last - start) / 1000);
    }),
  );
  target.appendedEvents += latencies.length * size;
  return { appendsPerSecond: rates.reduce((a, b) => a + b, 0), latencies };
}

/**
 * Warms every target up, then measures them in short interleaved rounds, rotating the order, so
 * drift in the shared disk and CPUs lands on all of them alike instead of on whoever ran last.
 */
async function measureSize(
  targets: Target[],
  size: number,
  opts: EventStoreBenchOptions,
  pool: Pool,
): Promise<Map<Target, Measurement>> {
  await checkpoint(pool);
  for (const target of targets) await runWriters(target, size, opts.writers, opts.warmupSeconds);
  const slice = opts.seconds / opts.rounds;
  const tallies = new Map<Target, Tally[]>(targets.map((t) => [t, []]));
  for (let round = 0; round < opts.rounds; round++) {
    for (let i = 0; i < targets.length; i++) {
      const target = targets[(i + round) % targets.length]!;
      tallies.get(target)!.push(await runWriters(target, size, opts.writers, slice));
    }
  }
  return new Map(
    [...tallies].map(([target, runs]) => {
      const appendsPerSecond = runs.reduce((sum, r) => sum + r.appendsPerSecond, 0) / runs.length;
      const latencies = runs.flatMap((r) => r.latencies).sort((a, b) => a - b);
      return [
        target,
        {
          appendsPerSecond,
          eventsPerSecond: appendsPerSecond * size,
          p50Ms: latencies[Math.floor(latencies.length * 0.5)] ?? Number.NaN,
          p99Ms: latencies[Math.floor(latencies.length * 0.99)] ?? Number.NaN,
        },
      ];
    }),
  );
}

/** Reads the whole log from START the way a projector catching up does, until it has seen every event. */
async function measureTailing(
  store: PostgresEventStore,
  total: number,
): Promise<{ eventsPerSecond: number; seen: number; inOrder: boolean }> {
  const controller = new AbortController();
  // A tailing bug must fail the run, not hang it.
  const timeout = setTimeout(() => controller.abort(), 120_000);
  let seen = 0;
  let last = START;
  let inOrder = true;
  const t0 = performance.now();
  await store.subscribeToAll({
    fromPosition: START,
    signal: controller.signal,
    onBatch: async (events) => {
      for (const e of events) {
        if (e.position <= last) inOrder = false;
        last = e.position;
      }
      seen += events.length;
      if (seen >= total) controller.abort();
    },
  });
  const seconds = (performance.now() - t0) / 1000;
  clearTimeout(timeout);
  return { eventsPerSecond: seen / seconds, seen, inOrder };
}

// Starting each group from a fresh checkpoint keeps the timed one (checkpoint_timeout) out of the
// run, and leaves no group paying for the dirty pages of the one before.
async function checkpoint(pool: Pool): Promise<void> {
  await pool.query('checkpoint').catch(() => undefined);
}

export async function runEventStoreBench(server: BenchServer, opts: EventStoreBenchOptions): Promise<void> {
  const sample = notePayload();
  console.log(
    `bench:      ${opts.writers} writers, ${opts.seconds} s measured after ${opts.warmupSeconds} s warm-up per case, ` +
      `a new stream every ${opts.appendsPerStream} appends, events of ${JSON.stringify(sample.data).length} B data + ` +
      `${JSON.stringify(sample.metadata).length} B metadata, ` +
      `measured in ${opts.rounds} interleaved rounds, CHECKPOINT before each size; our store runs with ` +
      `listenUrl, so each append is followed by its (coalesced) cross-process NOTIFY, as in the services`,
  );
  const db = await createBenchDatabase(server, 'eventstore');
  const pool = createPool(db.url, opts.writers + 2);
  const pools = [pool];
  const stores: { close(): Promise<void> }[] = [];
  try {
    await runMigrations(pool, platformMigrations());
    await pool.query('create table events_plain (like events including all)');

    const ours = new PostgresEventStore(pool, { listenUrl: db.url });
    // The same store with group commit (issue 23): what batching concurrent 1-event appends gains.
    const oursGrouped = new PostgresEventStore(pool, { listenUrl: db.url, groupCommit: true });
    stores.push(ours, oursGrouped);

    // dumbo (under Emmett) swaps pg's global int8 and jsonb parsers for its own BigInt and
    // bigint-reviving JSON ones; put ours back so the rest of the run measures our store as the
    // services run it. Emmett's append path reads nothing that depends on them.
    const parsers = [20, 3802, 114].map((oid) => [oid, pg.types.getTypeParser(oid)] as const);
    // Emmett gets a pool like ours: same size, and one we end ourselves before the database is dropped
    // (Emmett's own pool outlives close() and dies noisily when the drop terminates its connections).
    const emmettPool = createPool(db.url, opts.writers + 2);
    pools.push(emmettPool);
    const emmettStore = getPostgreSQLEventStore(db.url, { connectionOptions: { pool: emmettPool } });
    for (const [oid, parse] of parsers) pg.types.setTypeParser(oid, parse);
    stores.push(emmettStore);
    await emmettStore.schema.migrate();

    const insert = plainInsert(pool, opts);
    const mine = ourStore(ours, pool, opts, 'our event store', 'merchant');
    const mineGrouped = ourStore(oursGrouped, pool, opts, 'our event store, group commit', 'grouped');
    const theirs = emmett(emmettStore, pool, opts);

    const rows: Row[] = [];
    const checks: string[] = [];
    for (const size of SIZES) {
      const label = size === 1 ? '1-event appends' : `${size}-event appends`;
      process.stderr.write(`  ${label}…\n`);
      const results = await measureSize([insert, mine, mineGrouped, theirs], size, opts, pool);
      rows.push({ section: `${label}, ${opts.writers} writers, expected-revision appends` });
      for (const [target, m] of results) {
        rows.push([
          `  ${target.name}`,
          formatCount(m.appendsPerSecond),
          formatCount(m.eventsPerSecond),
          formatMs(m.p50Ms),
          formatMs(m.p99Ms),
          '',
          '',
        ]);
      }
      const oursRate = results.get(mine)!.eventsPerSecond;
      const vsInsert = oursRate / results.get(insert)!.eventsPerSecond;
      const vsEmmett = oursRate / results.get(theirs)!.eventsPerSecond;
      // Issue 23's targets: concurrent 1-event appends beat plain INSERTs by half (they commit
      // together), 100-event appends at least match them.
      const target = size === 1 ? 1.5 : 1;
      rows.push([
        '  ours / plain INSERT',
        '',
        '',
        '',
        '',
        formatRatio(vsInsert),
        verdict(vsInsert >= target, `≥ ${target.toFixed(2)}×`),
      ]);
      rows.push(['  ours / Emmett', '', '', '', '', formatRatio(vsEmmett), verdict(vsEmmett > 1, '> 1×')]);
    }

    for (const target of [insert, mine, mineGrouped, theirs]) {
      const stored = await target.countRows();
      const expected = target.appendedEvents;
      checks.push(
        `${target.name}: ${formatCount(stored)} rows stored${stored === expected ? '' : ` (expected ${formatCount(expected)}!)`}`,
      );
    }

    await checkpoint(pool);
    process.stderr.write('  tailing: subscribeToAll from START…\n');
    const total = await countRows(pool, 'events');
    const tail = await measureTailing(ours, total);
    rows.push({ section: 'tailing' });
    rows.push([
      `  subscribeToAll from START, ${formatCount(total)} events`,
      '',
      formatCount(tail.eventsPerSecond),
      '',
      '',
      '',
      '',
    ]);
    checks.push(
      `tailing: saw ${formatCount(tail.seen)} of ${formatCount(total)} events` +
        (tail.inOrder && tail.seen === total
          ? ', each once, in log order'
          : ' — MISSED, REPEATED OR OUT OF ORDER!'),
    );

    console.log(
      renderTable(
        [
          { header: 'case' },
          { header: 'appends/s', align: 'right' },
          { header: 'events/s', align: 'right' },
          { header: 'p50 ms', align: 'right' },
          { header: 'p99 ms', align: 'right' },
          { header: 'ratio', align: 'right' },
          { header: 'target' },
        ],
        rows,
      ),
    );
    console.log(`\nchecks: ${checks.join('; ')}`);
  } finally {
    for (const store of stores) await store.close().catch(() => undefined);
    for (const p of pools) await p.end();
    await db.drop();
  }
}

const verdict = (ok: boolean, target: string) => `${target} ${ok ? 'ok' : 'MISSED'}`;
