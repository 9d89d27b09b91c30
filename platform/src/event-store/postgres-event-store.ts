import type { Pool, Queryable } from '../db.ts';
import { GroupCommit } from './group-commit.ts';
import { encodePosition, START } from './position.ts';
import { type LogRead, PENDING_TYPES_LIMIT, PostgresLog, tailStatement } from './postgres-log.ts';
import {
  type AppendResult,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type Position,
  type RecordedEvent,
  type StreamAppend,
  type SubscribeOptions,
  WrongExpectedRevisionError,
} from './types.ts';

const CHANNEL = 'mrn_events';
const UNIQUE_VIOLATION = '23505';

interface EventRow {
  position: string | number;
  transaction_id: string;
  stream_id: string;
  revision: string | number;
  event_id: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
  recorded_at: Date;
}

const COLUMNS = 'position, transaction_id, stream_id, revision, event_id, type, data, metadata, recorded_at';

function toRecorded(row: EventRow): RecordedEvent {
  // Rows read with the horizon carry it too; it is not part of the event.
  return {
    id: row.event_id,
    streamId: row.stream_id,
    revision: BigInt(row.revision),
    position: encodePosition(row.transaction_id, row.position),
    type: row.type,
    data: row.data,
    metadata: row.metadata,
    recordedAt: row.recorded_at,
  };
}

// One statement, so an append costs one round trip and holds no transaction open: the expected
// revision becomes the base of the new revisions, and the (stream_id, revision) unique constraint
// refuses a stale writer. For 'any' the base is read inside the same statement.
const APPEND_AT = `
with ins as (
  insert into events (stream_id, revision, event_id, type, data, metadata)
  select $1, $2::bigint + t.ord, t.id, t.type, t.data, t.metadata
  from unnest($3::uuid[], $4::text[], $5::jsonb[], $6::jsonb[]) with ordinality as t(id, type, data, metadata, ord)
  where $2::bigint < 0 or exists (select 1 from events where stream_id = $1 and revision = $2::bigint)
  returning revision, position
)
select max(revision) as revision, max(position) as position, pg_current_xact_id()::text as tx from ins`;

const APPEND_ANY = `
with base as (select coalesce(max(revision), -1) as r from events where stream_id = $1),
ins as (
  insert into events (stream_id, revision, event_id, type, data, metadata)
  select $1, base.r + t.ord, t.id, t.type, t.data, t.metadata
  from base, unnest($2::uuid[], $3::text[], $4::jsonb[], $5::jsonb[]) with ordinality as t(id, type, data, metadata, ord)
  returning revision, position
)
select max(revision) as revision, max(position) as position, pg_current_xact_id()::text as tx from ins`;

// Many streams in one statement, all or nothing. Each stream's expected revision is coded as a
// number: -1 'no_stream' (the unique constraint then refuses an existing stream), -2 'any' (its current
// maximum is the base), or the revision it must be at. A revision is the base of the new events, so a
// stream that moved past it trips the unique constraint; one that is behind it is caught by `checked`,
// and then nothing at all is inserted. The single statement is the transaction: a failure on one
// stream leaves every stream of the batch untouched.
const ANY_CODE = -2n;
const NO_STREAM_CODE = -1n;
const APPEND_MANY = `
with input as (
  select * from unnest($1::text[], $2::bigint[], $3::uuid[], $4::text[], $5::jsonb[], $6::jsonb[])
    with ordinality as t(stream_id, expected, id, type, data, metadata, ord)
), bases as (
  select i.stream_id, min(i.expected) as expected,
         case when min(i.expected) = ${ANY_CODE}
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

const expectedCode = (expected: ExpectedRevision): string =>
  (expected === 'any' ? ANY_CODE : expected === 'no_stream' ? NO_STREAM_CODE : expected).toString();

// Only transactions older than the oldest one still running are certain to be complete, so a
// cursor never has to step back over an event that commits late (DESIGN §3).
// The limit is written into the statement, one named statement per batch size: with `limit $3` the
// generic plan looked costly, so Postgres re-planned every read (a third of a millisecond each).
const READ_ALL = (limit: number, typed: boolean) =>
  tailStatement('events', COLUMNS, limit, typed ? '\n    and type = any($3::text[])' : '');

const HAS_UNSEEN = `select exists (select 1 from events where (transaction_id, position) > ($1::text::xid8, $2::bigint)) as pending`;
const UNSEEN_TYPES = `select array_agg(distinct type) as types from (select type from events
  where (transaction_id, position) > ($1::text::xid8, $2::bigint) limit ${PENDING_TYPES_LIMIT}) t`;

/**
 * The hot paths' statements, for bench/src/slonik-bench.ts to check that its slonik restatement of them
 * is the same SQL. They stay plain pg strings here: through slonik tokens and zod row parsing, the
 * appends and log reads cost measurably more (figures in that bench and the README, issue 22 item 9).
 */
export const EVENT_STORE_STATEMENTS = {
  appendAt: APPEND_AT,
  appendAny: APPEND_ANY,
  appendMany: APPEND_MANY,
  readAll: READ_ALL,
} as const;

export interface PostgresEventStoreOptions {
  /** Poll interval when no wake-up arrives (cross-process NOTIFY is the normal wake-up). */
  pollIntervalMs?: number;
  /** Connection string for the LISTEN connection; without it subscribers rely on in-process wake-ups and polling. */
  listenUrl?: string;
  /**
   * Called once per appendToStream ('single') or appendMany ('many') call, failures included, with its
   * duration in seconds (metrics: `Metrics.observeAppend`). A hook that throws is ignored.
   */
  onAppend?(kind: 'single' | 'many', seconds: number): void;
  /** Concurrent 1-event appends go to PostgreSQL together (off unless true: see group-commit.ts). */
  groupCommit?: boolean;
}

export class PostgresEventStore implements EventStore {
  private readonly group: GroupCommit | undefined;
  private readonly log: PostgresLog;

  constructor(
    private readonly pool: Pool,
    private readonly options: PostgresEventStoreOptions = {},
  ) {
    this.log = new PostgresLog(
      pool,
      { name: 'mrn_read_all', read: READ_ALL, pending: HAS_UNSEEN, pendingTypes: UNSEEN_TYPES },
      (row) => toRecorded(row as unknown as EventRow),
      {
        channel: CHANNEL,
        ...(options.listenUrl ? { listenUrl: options.listenUrl } : {}),
        ...(options.pollIntervalMs !== undefined ? { pollIntervalMs: options.pollIntervalMs } : {}),
      },
    );
    if (options.groupCommit === true) {
      this.group = new GroupCommit(
        pool,
        (streamId, event, expectedRevision) => this.appendOne(streamId, [event], { expectedRevision }),
        () => this.announce(),
      );
    }
  }

  appendToStream(
    streamId: string,
    events: NewEvent[],
    opts: { expectedRevision: ExpectedRevision },
  ): Promise<AppendResult> {
    const expected = opts.expectedRevision;
    const grouped = this.group && events.length === 1 && (typeof expected !== 'bigint' || expected >= 0n);
    return this.timed('single', () =>
      grouped ? this.group!.append(streamId, events[0]!, expected) : this.appendOne(streamId, events, opts),
    );
  }

  appendMany(batch: StreamAppend[]): Promise<AppendResult[]> {
    return this.timed('many', () => this.appendBatch(batch));
  }

  /** Runs an append, timed for `options.onAppend` when there is one. */
  private async timed<T>(kind: 'single' | 'many', append: () => Promise<T>): Promise<T> {
    const onAppend = this.options.onAppend;
    if (!onAppend) return append();
    const started = performance.now();
    try {
      return await append();
    } finally {
      try {
        onAppend.call(this.options, kind, (performance.now() - started) / 1000);
      } catch {
        // Metrics never change what an append does.
      }
    }
  }

  private async appendOne(
    streamId: string,
    events: NewEvent[],
    opts: { expectedRevision: ExpectedRevision },
  ): Promise<AppendResult> {
    if (events.length === 0) throw new Error('appendToStream needs at least one event');
    const ids = events.map((e) => e.id);
    const types = events.map((e) => e.type);
    const data = events.map((e) => JSON.stringify(e.data ?? {}));
    const metadata = events.map((e) => JSON.stringify(e.metadata ?? {}));
    const expected = opts.expectedRevision;
    for (let attempt = 0; ; attempt++) {
      try {
        const result =
          // Named, so each connection plans the statement once: re-planning it on every append
          // cost about half the throughput of 1-event appends (bench/).
          expected === 'any'
            ? await this.pool.query({
                name: 'mrn_append_any',
                text: APPEND_ANY,
                values: [streamId, ids, types, data, metadata],
              })
            : await this.pool.query({
                name: 'mrn_append_at',
                text: APPEND_AT,
                values: [
                  streamId,
                  (expected === 'no_stream' ? -1n : expected).toString(),
                  ids,
                  types,
                  data,
                  metadata,
                ],
              });
        const row = result.rows[0] as { revision: number | null; position: number; tx: string };
        if (row.revision === null) {
          // The stream is behind the expected revision (or does not exist), so nothing was inserted.
          const replay = await this.alreadyAppended(streamId, ids);
          if (replay) return replay;
          throw new WrongExpectedRevisionError(streamId, expected, await this.currentRevision(streamId));
        }
        this.announce(types);
        return { nextRevision: BigInt(row.revision), position: encodePosition(row.tx, row.position) };
      } catch (error) {
        if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
        const replay = await this.alreadyAppended(streamId, ids);
        if (replay) return replay;
        // Two 'any' writers read the same base revision; the loser simply goes again.
        if (expected === 'any' && attempt < 20) continue;
        throw new WrongExpectedRevisionError(streamId, expected, await this.currentRevision(streamId));
      }
    }
  }

  private async appendBatch(batch: StreamAppend[]): Promise<AppendResult[]> {
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
    const values = [
      flat.map((x) => x.b.streamId),
      flat.map((x) => expectedCode(x.b.expectedRevision)),
      flat.map((x) => x.e.id),
      flat.map((x) => x.e.type),
      flat.map((x) => JSON.stringify(x.e.data ?? {})),
      flat.map((x) => JSON.stringify(x.e.metadata ?? {})),
    ];
    const anyOnly = batch.every((b) => b.expectedRevision === 'any');
    for (let attempt = 0; ; attempt++) {
      try {
        const { rows } = await this.pool.query<{
          stream_id: string;
          revision: number;
          position: number;
          tx: string;
        }>({
          name: 'mrn_append_many',
          text: APPEND_MANY,
          values,
        });
        if (rows.length === 0) return await this.refuseMany(batch);
        this.announce(values[3] as string[]);
        const byStream = new Map(rows.map((r) => [r.stream_id, r]));
        return batch.map((b) => {
          const r = byStream.get(b.streamId)!;
          return { nextRevision: BigInt(r.revision), position: encodePosition(r.tx, r.position) };
        });
      } catch (error) {
        if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
        // A concurrent writer took a revision an 'any' stream wanted: the batch simply goes again.
        if (anyOnly && attempt < 20) continue;
        return await this.refuseMany(batch);
      }
    }
  }

  /**
   * Nothing of the batch was written: either it was written before (a retry with the same event ids,
   * answered as the first append was), or a stream was not at its expected revision.
   */
  private async refuseMany(batch: StreamAppend[]): Promise<AppendResult[]> {
    const replays: AppendResult[] = [];
    for (const b of batch) {
      const replay = await this.alreadyAppended(
        b.streamId,
        b.events.map((e) => e.id),
      ).catch(() => undefined);
      if (!replay) break;
      replays.push(replay);
    }
    if (replays.length === batch.length) return replays;
    for (const b of batch) {
      const actual = await this.currentRevision(b.streamId);
      if (!revisionMatches(b.expectedRevision, actual))
        throw new WrongExpectedRevisionError(b.streamId, b.expectedRevision, actual);
    }
    // Every stream matched when looked at again: a concurrent writer moved one and it moved on.
    throw new WrongExpectedRevisionError(batch.map((b) => b.streamId).join(','), 'any', 0n);
  }

  /** A retried append whose events are all stored already: answer as the first append did. */
  private async alreadyAppended(streamId: string, ids: string[]): Promise<AppendResult | undefined> {
    const { rows } = await this.pool.query<{
      stream_id: string;
      revision: number;
      position: number;
      tx: string;
    }>(
      'select stream_id, revision, position, transaction_id::text as tx from events where event_id = any($1::uuid[]) order by position',
      [ids],
    );
    if (rows.length === 0) return undefined;
    if (rows.length !== ids.length || rows.some((r) => r.stream_id !== streamId)) {
      throw new Error(`Events ${ids.join(', ')} were partly appended before or belong to another stream`);
    }
    const last = rows[rows.length - 1]!;
    return { nextRevision: BigInt(last.revision), position: encodePosition(last.tx, last.position) };
  }

  private async currentRevision(streamId: string): Promise<bigint | 'no_stream'> {
    const { rows } = await this.pool.query<{ r: number | null }>(
      'select max(revision) as r from events where stream_id = $1',
      [streamId],
    );
    const r = rows[0]?.r;
    return r === null || r === undefined ? 'no_stream' : BigInt(r);
  }

  async *readStream(streamId: string, opts: { fromRevision?: bigint } = {}): AsyncIterable<RecordedEvent> {
    const pageSize = 1000;
    let from = opts.fromRevision ?? 0n;
    for (;;) {
      const { rows } = await this.pool.query<EventRow>(
        `select ${COLUMNS} from events where stream_id = $1 and revision >= $2 order by revision limit $3`,
        [streamId, from.toString(), pageSize],
      );
      for (const row of rows) yield toRecorded(row);
      if (rows.length < pageSize) return;
      from = BigInt(rows[rows.length - 1]!.revision) + 1n;
    }
  }

  async readAll(
    opts: { fromPosition: Position; maxCount: number; types?: readonly string[] },
    via?: Queryable,
  ): Promise<RecordedEvent[]> {
    return (await this.log.readAfter(opts, via)).events;
  }

  /** `readAll`, and the horizon a reader that took all of it stands at (see `LogRead`). */
  readAfter(opts: { fromPosition: Position; maxCount: number; types?: readonly string[] }): Promise<LogRead> {
    return this.log.readAfter(opts);
  }

  /** How many events of these types the log holds now (a rebuild's total, for its progress). */
  async countOfTypes(types: readonly string[]): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>(
      'select count(*)::int as n from events where type = any($1::text[])',
      [types],
    );
    return rows[0]!.n;
  }

  async headPosition(): Promise<Position> {
    const { rows } = await this.pool.query<{ tx: string; position: number }>(
      `select transaction_id::text as tx, position from events
       where transaction_id < pg_snapshot_xmin(pg_current_snapshot())
       order by transaction_id desc, position desc limit 1`,
    );
    const row = rows[0];
    return row ? encodePosition(row.tx, row.position) : START;
  }

  subscribeToAll(opts: SubscribeOptions): Promise<void> {
    return this.log.subscribe(opts);
  }

  async close(): Promise<void> {
    await this.log.close();
  }

  /**
   * Wakes local subscribers now and, coalesced, subscribers in other processes through NOTIFY, telling
   * them the types appended (undefined: unknown) so that a subscriber handling none of them need not
   * read the log at once (`SubscribeOptions.wakeFor`).
   */
  private announce(types?: readonly string[]): void {
    this.log.announce(types);
  }
}

function revisionMatches(expected: ExpectedRevision, actual: bigint | 'no_stream'): boolean {
  if (expected === 'any') return true;
  return expected === actual;
}
