import { EventEmitter } from 'node:events';
import pg from 'pg';
import type { Pool, Queryable } from '../db.ts';
import { sleepUnlessAborted } from '../runtime/sleep.ts';
import { decodePosition, encodePosition } from './position.ts';
import type { Position, RecordedEvent, SubscribeOptions } from './types.ts';

/**
 * A log's statements over its table. The table is append-only and read in (transaction_id, position)
 * order: positions come from one sequence shared by every log of the database, so a position of one log
 * compares with a position of another (DESIGN §3, gap-free tailing).
 */
export interface LogStatements {
  /** Prefix of the named statements (one per batch size). */
  name: string;
  /**
   * At most `limit` rows after ($1 transaction id as text, $2 position) of transactions below the
   * snapshot's xmin, in order; `typed`: only rows whose type is in $3 (text[]). Every row carries
   * `horizon`, that xmin as text, and the statement answers one row with a null position when no row is
   * due, so the horizon always comes back (see `readAfter`).
   */
  read(limit: number, typed: boolean): string;
  /** `pending`: whether any row lies after ($1, $2), committed or not. */
  pending: string;
  /**
   * `types`: the distinct types among the first PENDING_TYPES_LIMIT rows after ($1, $2) (null when none),
   * for a subscriber that is woken only for some types: rows held back (committed after an older
   * transaction that is still open) that it does not handle are no reason to read again at once.
   */
  pendingTypes?: string;
}

/** Rows `pendingTypes` looks at: past it, the subscriber reads again as for any pending row. */
export const PENDING_TYPES_LIMIT = 1000;

/**
 * The read statement's shape for a log table: `columns` selected from `table` under `where` (an extra
 * condition, e.g. a type), limited, beside the snapshot's horizon.
 */
export const tailStatement = (table: string, columns: string, limit: number, extra = ''): string => `
with h as materialized (select pg_snapshot_xmin(pg_current_snapshot()) as x)
select h.x::text as horizon, r.* from h left join lateral (
  select ${columns} from ${table}
  where transaction_id < h.x and (transaction_id, position) > ($1::text::xid8, $2::bigint)${extra}
  order by transaction_id, position
  limit ${limit}) r on true`;

/** What one read of a log gives. */
export interface LogRead {
  events: RecordedEvent[];
  /**
   * Where a reader that has taken every row of this read stands when the read was short (fewer than it
   * asked for): every transaction below the snapshot's xmin has ended, so nothing can appear before
   * (xmin, 0) any more, in this log or in any log of the same position space.
   */
  horizon: Position | undefined;
}

/** Where a reader stands after taking every row below a snapshot's xmin. */
export const horizonOf = (xmin: string | bigint): Position => encodePosition(xmin, 0);

/**
 * Following one log of the database: reads after a position, and a subscription that reads as rows come
 * (woken in this process by `announce`, in others by NOTIFY on `channel`, and by polling), telling the
 * subscriber the horizon each time it has read everything visible.
 */
export class PostgresLog {
  private readonly wake = new EventEmitter();
  private listener: pg.Client | undefined;
  private listening: Promise<void> | undefined;
  private readonly announcer: LogAnnouncer;
  private closed = false;

  constructor(
    private readonly pool: Pool,
    private readonly statements: LogStatements,
    private readonly toEvent: (row: Record<string, unknown>) => RecordedEvent,
    private readonly options: {
      channel: string;
      /** Connection string for LISTEN; without it, only wake-ups from this process and polling. */
      listenUrl?: string;
      pollIntervalMs?: number;
    },
  ) {
    this.wake.setMaxListeners(0);
    this.announcer = new LogAnnouncer(pool, options.channel);
  }

  /** `via`: a client of the caller's (inside its transaction), instead of one of the pool's. */
  async readAfter(
    opts: { fromPosition: Position; maxCount: number; types?: readonly string[] },
    via?: Queryable,
  ): Promise<LogRead> {
    const { transactionId, position } = decodePosition(opts.fromPosition);
    const limit = Math.max(1, Math.floor(opts.maxCount));
    const values: unknown[] = [transactionId.toString(), position.toString()];
    if (opts.types) values.push(opts.types);
    const { rows } = await (via ?? this.pool).query<Record<string, unknown> & { horizon: string | null }>({
      name: `${this.statements.name}_${limit}${opts.types ? '_typed' : ''}`,
      text: this.statements.read(limit, opts.types !== undefined),
      values,
    });
    const events = rows.filter((r) => r.position !== null).map(this.toEvent);
    const xmin = rows[0]?.horizon;
    return {
      events,
      horizon: events.length < limit && xmin ? horizonOf(xmin) : undefined,
    };
  }

  /**
   * Reads from `fromPosition` on, batch by batch, until `signal` aborts: a full batch is followed at
   * once by the next read; otherwise the subscriber is told the horizon and the log waits for a wake-up
   * (an append of a type `wakeFor` accepts, a nudge, or the poll interval).
   */
  async subscribe(opts: SubscribeOptions): Promise<void> {
    const batchSize = opts.batchSize ?? 1000;
    const pollMs = this.options.pollIntervalMs ?? 1000;
    await this.startListening();
    let cursor = opts.fromPosition;
    let idleSpins = 0;
    // Wake-ups since the last read: one that came while a batch was being handled means read again.
    let wakes = 0;
    const onWake = (types: readonly string[] | undefined) => {
      if (!opts.wakeFor || !types || types.some(opts.wakeFor)) wakes++;
    };
    // A nudge: someone waits for a position, whatever its type; held rows are then read at once.
    let nudged = false;
    const onNudge = () => {
      wakes++;
      nudged = true;
      this.wake.emit('nudge');
    };
    this.wake.on('wake', onWake);
    opts.nudges?.on('nudge', onNudge);
    try {
      while (!opts.signal.aborted && !this.closed) {
        wakes = 0;
        const { events, horizon } = await this.readAfter({
          fromPosition: cursor,
          maxCount: batchSize,
          ...(opts.types ? { types: opts.types } : {}),
        });
        // Spins (looks again while rows are held back by an older open transaction) back off until the
        // log is idle, not until the next event: under a steady stream of appends some row is always held.
        if (events.length > 0) {
          await opts.onBatch(events);
          cursor = events[events.length - 1]!.position;
        }
        if (horizon) {
          if (horizon > cursor) cursor = horizon;
          await opts.onCaughtUp?.(horizon);
        }
        // A full batch, or appends since the read: there is more to read. Otherwise everything
        // visible has been read, and the only question is whether something is still in flight.
        if (events.length === batchSize || wakes > 0) continue;
        const wakeFor = nudged ? undefined : opts.wakeFor;
        nudged = false;
        if (!(await this.idle(cursor, opts.signal, () => wakes > 0, idleSpins, wakeFor))) {
          idleSpins++;
          continue;
        }
        idleSpins = 0;
        if (wakes === 0) await this.waitForWake(pollMs, opts.signal, () => wakes > 0);
      }
    } finally {
      this.wake.off('wake', onWake);
      opts.nudges?.off('nudge', onNudge);
    }
  }

  /**
   * After the log has been read up to `cursor`: true when nothing is left to read (wait for a
   * wake-up), false after a short pause when rows past the cursor exist but an older transaction is
   * still open (they become visible the moment it ends, with no wake-up of their own).
   */
  private async idle(
    cursor: Position,
    signal: AbortSignal,
    woken: () => boolean,
    spins: number,
    wakeFor?: (type: string) => boolean,
  ): Promise<boolean> {
    if (woken()) return false;
    const { transactionId, position } = decodePosition(cursor);
    const values = [transactionId.toString(), position.toString()];
    let pending: boolean | undefined;
    if (wakeFor && this.statements.pendingTypes) {
      // Under a steady stream of appends some rows are always held back by an older open transaction:
      // a subscriber that handles none of them waits for its wake-up instead of reading every few ms.
      const types =
        (await this.pool.query<{ types: string[] | null }>(this.statements.pendingTypes, values)).rows[0]
          ?.types ?? [];
      pending = types.length >= PENDING_TYPES_LIMIT || types.some(wakeFor);
    } else {
      pending = (await this.pool.query<{ pending: boolean }>(this.statements.pending, values)).rows[0]
        ?.pending;
    }
    if (!pending) return true;
    await sleepUnlessAborted(Math.min(2 ** Math.min(spins + 1, 5), 25), signal);
    return false;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.wake.emit('wake');
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
  }

  /**
   * Wakes local subscribers now and, coalesced, subscribers in other processes through NOTIFY, telling
   * them the types appended (undefined: unknown) so that a subscriber handling none of them need not
   * read the log at once (`SubscribeOptions.wakeFor`).
   */
  announce(types?: readonly string[]): void {
    this.wake.emit('wake', types && [...new Set(types)]);
    if (this.options.listenUrl) this.announcer.announce(types);
  }

  private startListening(): Promise<void> {
    if (!this.options.listenUrl || this.closed) return Promise.resolve();
    this.listening ??= (async () => {
      const client = new pg.Client({ connectionString: this.options.listenUrl });
      client.on('notification', (n) => this.wake.emit('wake', n.payload ? n.payload.split(',') : undefined));
      client.on('error', () => {
        // Losing LISTEN only slows subscribers down to the poll interval; reconnect on next subscribe.
        this.listener = undefined;
        this.listening = undefined;
      });
      await client.connect();
      await client.query(`listen ${this.options.channel}`);
      this.listener = client;
    })().catch(() => {
      this.listening = undefined;
    });
    return this.listening;
  }

  /** Until a wake-up the subscriber acts on (`woken`, counted by its own listener first), or the poll. */
  private waitForWake(timeoutMs: number, signal: AbortSignal, woken: () => boolean): Promise<void> {
    return sleepUnlessAborted(timeoutMs, signal, {
      emitter: this.wake,
      events: ['wake', 'nudge'],
      accept: woken,
    });
  }
}

const NOTIFY_INTERVAL_MS = 3;
/** A NOTIFY payload must stay under 8,000 bytes; a longer list of types is sent as "any". */
const NOTIFY_PAYLOAD_MAX = 4000;

/**
 * Tells the followers of a log in every process that it grew, through NOTIFY on its channel, with the
 * types written (undefined: unknown). Coalesced: NOTIFY inside the append transaction would serialise
 * every commit on the notify queue lock, and one per append was a round trip per search; sent afterwards,
 * at most one every few milliseconds, it wakes other processes just as well.
 */
export class LogAnnouncer {
  private state: 'idle' | 'running' | 'pending' = 'idle';
  /** The types written since the last NOTIFY was sent (undefined: some write did not say). */
  private unannounced: Set<string> | undefined = new Set();

  constructor(
    private readonly pool: Pool,
    private readonly channel: string,
  ) {}

  announce(types?: readonly string[]): void {
    if (!types) this.unannounced = undefined;
    else if (this.unannounced) for (const t of types) this.unannounced.add(t);
    if (this.state !== 'idle') {
      this.state = 'pending';
      return;
    }
    this.state = 'running';
    const send = (): void => {
      const started = performance.now();
      const types = this.unannounced ? [...this.unannounced].join(',') : '';
      this.unannounced = new Set();
      this.pool
        .query(`select pg_notify('${this.channel}', $1)`, [types.length < NOTIFY_PAYLOAD_MAX ? types : ''])
        .catch(() => undefined)
        .finally(() => {
          if (this.state === 'pending') {
            this.state = 'running';
            setTimeout(send, Math.max(0, NOTIFY_INTERVAL_MS - (performance.now() - started)));
          } else this.state = 'idle';
        });
    };
    send();
  }
}
