import { EventEmitter } from 'node:events';
import { parseEvent } from '@mrn/contracts';
import {
  Consumer,
  type ConsumerBatch,
  type ConsumerLog,
  detachCheckpoint,
  followCheckpoint,
  followersOf,
  followsGroup,
  isDatabaseUnreachable,
  LeaseLost,
  type Logger,
  type PgNotifications,
  type Pool,
  type PoolClient,
  type Position,
  PROGRESS_CHANNEL,
  PROGRESS_WANTED_CHANNEL,
  type ProgressNotice,
  type Queryable,
  type ReadModelProgress,
  type RecordedEvent,
  readCheckpoint,
  START,
  sleepUnlessAborted,
  withTransaction,
  writeCheckpoint,
} from '@mrn/platform';
import { restoreDeferredIndexes } from './deferred-indexes.ts';
import {
  applyEvents,
  handledTypes,
  handles,
  type LogName,
  logOf,
  type Projector,
  versionOf,
} from './projector.ts';
import { type Quarantined, recordQuarantine, unresolvedProjectors } from './quarantine.ts';

/** Events the live group reads at once. */
const BATCH_SIZE = 2000;
/** After a short batch the live group reads again no sooner: under load the next batch fills meanwhile. */
const BATCH_INTERVAL_MS = 5;
/** A projector behind the others reads bigger batches (each is its own transaction). */
const CATCH_UP_BATCH_SIZE = 5000;
/** Failures of a batch after which each projector is tried on its own and a poison event is looked for. */
const ISOLATE_AFTER = 3;
/** How often a halted runner looks whether an operator has resolved a quarantine. */
const QUARANTINE_POLL_MS = 2000;
/** A projector joining the live group waits this long between looks at where the group is. */
const JOIN_RETRY_MS = 20;

export { readCheckpoint };

/** The checkpoint of the live group of a log: every projector of that log that is up to date follows it. */
export const liveGroup = (log: LogName, prefix = 'projections'): string => `${prefix}:${log}`;

/**
 * Each recorded event read through the catalogue once, whichever projectors handle it: the runner and a
 * rebuild hand the same event objects to every projector of a batch. A failure is kept too, so every
 * projector that handles a poison event fails on it.
 */
const readEvents = new WeakMap<RecordedEvent, { event: RecordedEvent } | { error: unknown }>();
function readable(e: RecordedEvent): RecordedEvent {
  let read = readEvents.get(e);
  if (!read) {
    try {
      read = { event: parseEvent(e) };
    } catch (error) {
      read = { error };
    }
    readEvents.set(e, read);
  }
  if ('error' in read) throw read.error;
  return read.event;
}

/**
 * The batch as projector `p` is given it: the events it handles read through the catalogue. The search
 * log's rows are typed by its table and mapped once: they go as they are.
 */
const readFor = (p: Projector, events: readonly RecordedEvent[]): RecordedEvent[] =>
  logOf(p) === 'searches' ? [...events] : events.map((e) => (handles(p, e.type) ? readable(e) : e));

/**
 * Applies a batch and sets the checkpoint in one transaction, so a crash never applies an event twice
 * (tools and tests feeding a projector by hand; the runner moves checkpoints fenced).
 */
export async function applyBatch(pool: Pool, p: Projector, events: RecordedEvent[]): Promise<void> {
  const last = events[events.length - 1];
  if (!last) return;
  await withTransaction(pool, async (tx) => {
    await applyEvents(p, tx, readFor(p, events));
    await writeCheckpoint(tx, p.name, last.position);
  });
}

/**
 * Feeds one batch read from the log to several projectors, each in its own transaction on a connection
 * of its own, side by side (a rebuild: PostgreSQL spreads the work over its cores). Resolves with the new
 * cursors once all are done; if one fails, the others keep what they committed and the error is thrown.
 */
export async function dispatchBatch(
  pool: Pool,
  projectors: readonly Projector[],
  cursors: Map<string, Position>,
  events: RecordedEvent[],
): Promise<void> {
  const last = events[events.length - 1];
  if (!last) return;
  const outcomes = await Promise.allSettled(
    projectors.map(async (p) => {
      const cursor = cursors.get(p.name) ?? START;
      if (cursor >= last.position) return;
      const mine = events[0]!.position > cursor ? events : events.filter((e) => e.position > cursor);
      if (mine.some((e) => handles(p, e.type))) await applyBatch(pool, p, mine);
      cursors.set(p.name, last.position);
    }),
  );
  const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
  if (failed) throw failed.reason;
}

export interface RunnerDeps {
  pool: Pool;
  /** The event log. */
  store: ConsumerLog;
  /** The search log, for the projectors that read it (`log: 'searches'`). */
  searches?: ConsumerLog;
  logger: Logger;
  /** Told the name of each projector that has just committed events it handles. */
  onApplied?: (projector: string) => void;
  /**
   * With a database URL, the live group of each log and each projector catching up are applied only
   * while this process holds their lease (a standby takes over within a second or so of the holder's
   * death). Without one, this runner applies everything.
   */
  leaseUrl?: string;
  /** After each batch of a log's live group: its last event, and whether the log had no more. */
  onProgress?: (last: RecordedEvent, atHead: boolean) => void;
  /** The live groups' checkpoint names begin with this (default `projections`; tests keep theirs apart). */
  groupPrefix?: string;
  /**
   * This process's LISTEN connection: processes waiting for a position (X-Consistent-After run apart)
   * ask through it that the readers behind that position read now.
   */
  notifications?: PgNotifications;
}

interface Member {
  projector: Projector;
  /** Following its log's live group, or catching up on a reader of its own. */
  state: 'live' | 'catching_up' | 'halted';
  /** Never complete since it was created or its version changed: what it serves is not served yet. */
  building: boolean;
  /** Its own position, when not live. */
  position: Position;
  consumer?: Consumer;
  joining?: Promise<void>;
}

/**
 * Keeps every projector's read model up to date from its log (the event log, or the search log), and
 * tells waiting queries when a position has been passed (read-your-writes, DESIGN §1). One engine: the
 * platform `Consumer`, for every reader.
 *
 * - The **live group** of each log: one reader and one checkpoint for every projector that is up to date.
 *   Each batch is applied by all of them in one transaction that moves the one checkpoint (fenced) and
 *   sends the progress notice. A member's own checkpoint reads `@projections:<log>`.
 * - A projector **behind** (new, rebuilt for a new version, released from quarantine) catches up on a
 *   reader of its own, with its own checkpoint, and joins the live group at the group's position: its
 *   reader stopped, the group's checkpoint held, the gap between them applied and its checkpoint made a
 *   follower in one transaction. Live read models never wait for it; a projector that has never been
 *   complete (`building`) is not served until it joins (`building()`).
 * - A batch that keeps failing is tried projector by projector in savepoints; the one that fails finds
 *   its poison event, is quarantined and leaves the group at the event before it, while the others carry
 *   on. Resolving the quarantine makes it catch up again from there.
 */
export class ProjectionRunner implements ReadModelProgress {
  private readonly members = new Map<string, Member>();
  private readonly groups = new Map<LogName, { consumer: Consumer; position: Position }>();
  private readonly halted = new Map<string, Quarantined>();
  private readonly changed = new EventEmitter();
  private readonly controller = new AbortController();
  /** What the live group of a log applied in the batch being committed, told to `onApplied` after it. */
  private readonly pendingApplied = new Map<LogName, string[]>();
  /** The last position announced for each log's group or catching-up projector (notices). */
  private readonly announced = new Map<string, Position>();
  private quarantinePoll: NodeJS.Timeout | undefined;
  private started = false;

  constructor(
    private readonly deps: RunnerDeps,
    readonly projectors: readonly Projector[],
  ) {
    this.changed.setMaxListeners(0);
    for (const p of projectors) {
      if (logOf(p) === 'searches' && !deps.searches)
        throw new Error(`projector ${p.name} reads the search log: the runner needs it`);
    }
  }

  get isRunning(): boolean {
    return this.started && !this.controller.signal.aborted;
  }

  private group(log: LogName): string {
    return liveGroup(log, this.deps.groupPrefix);
  }

  private logReader(log: LogName): ConsumerLog {
    return log === 'searches' ? this.deps.searches! : this.deps.store;
  }

  private get logs(): LogName[] {
    return [...new Set(this.projectors.map(logOf))];
  }

  async start(): Promise<void> {
    this.started = true;
    await restoreDeferredIndexes(this.deps.pool);
    await this.prepare();
    for (const q of await this.unresolvedQuarantine()) this.halt(q);
    for (const log of this.logs) this.startGroup(log);
    for (const m of this.members.values()) if (m.state === 'catching_up') this.catchUp(m);
    if (this.halted.size > 0) this.watchQuarantine();
    await this.deps.notifications?.on(PROGRESS_WANTED_CHANNEL, (position: string) =>
      this.nudgeBehind(position),
    );
  }

  /** The readers that have not passed `position` read now (someone waits for it). */
  private nudgeBehind(position: Position): void {
    for (const g of this.groups.values()) {
      if (g.position < position) g.consumer.nudge();
    }
    for (const m of this.members.values())
      if (m.state === 'catching_up' && m.position < position) m.consumer?.nudge();
  }

  /**
   * Where each projector stands, from the checkpoints: following its log's live group, or behind on a
   * checkpoint of its own. A database from before the live groups (a checkpoint per projector) gets its
   * group at the most advanced of them, followed by the projectors already there.
   */
  private async prepare(): Promise<void> {
    await withTransaction(this.deps.pool, async (tx) => {
      // Two processes starting at once lay the groups out once.
      await tx.query(`select pg_advisory_xact_lock(hashtext('mrn_projection_groups'))`);
      const names = [...this.projectors.map((p) => p.name), ...this.logs.map((l) => this.group(l))];
      const { rows } = await tx.query<{ name: string; position: string; building: boolean; version: number }>(
        'select name, position, building, version from subscription_checkpoints where name = any($1::text[])',
        [names],
      );
      const row = new Map(rows.map((r) => [r.name, r]));
      // A projector whose code changed what its rows mean: emptied, built again, served once complete.
      for (const p of this.projectors) {
        const r = row.get(p.name);
        if (!r || r.version === versionOf(p)) continue;
        await this.reset(tx, p);
        row.delete(p.name);
      }
      for (const log of this.logs) {
        const group = this.group(log);
        const mine = this.projectors.filter((p) => logOf(p) === log);
        if (!row.has(group)) {
          const own = mine
            .map((p) => row.get(p.name))
            .filter((r) => r && !r.building && !r.position.startsWith('@'))
            .map((r) => r!.position);
          const at = own.reduce((max, p) => (p > max ? p : max), START);
          await detachCheckpoint(tx, group, at, false);
          row.set(group, { name: group, position: at, building: false, version: 1 });
          for (const p of mine) {
            const r = row.get(p.name);
            if (r && !r.building && r.position === at) {
              await followCheckpoint(tx, p.name, at, group);
              row.set(p.name, { ...r, position: followsGroup(group) });
            }
          }
        }
        for (const p of mine) {
          const r = row.get(p.name);
          // A projector never seen: it is built from the log's beginning, served once complete (at once
          // when the log holds nothing for it: a new installation).
          if (!r) await this.reset(tx, p, await this.hasHistory(p));
          const position = r?.position ?? START;
          const live = position === followsGroup(group);
          this.members.set(p.name, {
            projector: p,
            state: live ? 'live' : 'catching_up',
            building: r ? r.building : await this.hasHistory(p),
            position: live ? START : position,
          });
        }
      }
    });
  }

  /** Whether the projector's log holds any event it handles (a new projector then has work to build). */
  private async hasHistory(p: Projector): Promise<boolean> {
    const first = await this.logReader(logOf(p)).readAll({
      fromPosition: START,
      maxCount: 1,
      types: handledTypes(p),
    });
    return first.length > 0;
  }

  /** Empties a projector's tables and starts it over from the log's beginning, as building. */
  private async reset(tx: Queryable, p: Projector, building = true): Promise<void> {
    if (p.tables.length > 0) await tx.query(`truncate ${p.tables.join(', ')}`);
    await tx.query('delete from projection_quarantine where projector = $1', [p.name]);
    await detachCheckpoint(tx, p.name, START, building);
    await tx.query('update subscription_checkpoints set version = $2 where name = $1', [
      p.name,
      versionOf(p),
    ]);
    this.deps.logger.info({ projector: p.name, version: versionOf(p) }, 'projector built again from the log');
  }

  private async unresolvedQuarantine(): Promise<Quarantined[]> {
    const waiting = await unresolvedProjectors(this.deps.pool);
    const out: Quarantined[] = [];
    for (const name of waiting) {
      const m = this.members.get(name);
      if (!m || m.state === 'live') continue;
      const { rows } = await this.deps.pool.query<{
        event_id: string;
        position: string;
        stream_id: string;
        type: string;
        error: string;
        first_failed_at: Date;
      }>(
        `select event_id, position, stream_id, type, error, first_failed_at from projection_quarantine
          where projector = $1 and resolved_at is null order by first_failed_at limit 1`,
        [name],
      );
      const q = rows[0];
      if (!q) continue;
      out.push({
        projector: name,
        eventId: q.event_id,
        position: q.position,
        streamId: q.stream_id,
        type: q.type,
        error: q.error,
        recordedAt: q.first_failed_at,
        since: q.first_failed_at,
      });
    }
    return out;
  }

  // ---- the live group -------------------------------------------------------------------------------

  private startGroup(log: LogName): void {
    const group = this.group(log);
    const consumer = new Consumer({
      name: group,
      store: this.logReader(log),
      pool: this.deps.pool,
      logger: this.deps.logger,
      ...(this.deps.leaseUrl ? { leaseUrl: this.deps.leaseUrl } : {}),
      batchSize: BATCH_SIZE,
      batchIntervalMs: BATCH_INTERVAL_MS,
      handle: (tx, events, batch) => this.applyLive(log, tx, events, batch),
      afterCommit: (_count, batch) => {
        this.haltCommitted((name) => logOf(this.members.get(name)!.projector) === log);
        for (const name of this.pendingApplied.get(log) ?? []) this.deps.onApplied?.(name);
        this.pendingApplied.delete(log);
        const last = batch.all[batch.all.length - 1]!;
        this.deps.onProgress?.(last, batch.all.length < BATCH_SIZE);
      },
      onPosition: (position) => {
        this.groups.get(log)!.position = position;
        this.changed.emit('progress');
        // Commits announced themselves; a move past events the group skips or to the log's horizon
        // is announced here, for what waits in other processes.
        if ((this.announced.get(group) ?? START) < position) void this.announce(group, position, log);
      },
    });
    this.groups.set(log, { consumer, position: START });
    consumer.start();
  }

  /** The projectors of `log` that follow its live group now (read in the batch's transaction). */
  private async liveMembers(tx: Queryable, log: LogName): Promise<Projector[]> {
    const following = await followersOf(tx, this.group(log));
    for (const m of this.members.values()) {
      if (logOf(m.projector) !== log) continue;
      // Another process may have let a projector join or leave: this process's view follows the database.
      if (following.has(m.projector.name) && m.state !== 'live') this.markLive(m);
    }
    return this.projectors.filter((p) => logOf(p) === log && following.has(p.name));
  }

  /**
   * One batch of the live group: every member that handles any of its events applies it, in the
   * transaction that moved the group's checkpoint. From the `ISOLATE_AFTER`th failure of the batch on,
   * each member is tried in a savepoint and a failing one leaves the group at its poison event.
   */
  private async applyLive(
    log: LogName,
    tx: PoolClient,
    events: RecordedEvent[],
    batch: ConsumerBatch,
  ): Promise<number> {
    const group = this.group(log);
    this.pendingHalts = this.pendingHalts.filter(
      (h) => logOf(this.members.get(h.projector)!.projector) !== log,
    );
    const live = await this.liveMembers(tx, log);
    const relevant = live.filter((p) => events.some((e) => handles(p, e.type)));
    const applied: string[] = [];
    if (batch.attempt < ISOLATE_AFTER) {
      for (const p of relevant) {
        await applyEvents(p, tx, readFor(p, events));
        applied.push(p.name);
      }
    } else {
      const failed: Projector[] = [];
      for (const p of relevant) {
        if (await this.tryInSavepoint(tx, () => applyEvents(p, tx, readFor(p, events)))) applied.push(p.name);
        else failed.push(p);
      }
      // Every member failing is no poison event of one of them (a full disk, a lock): the batch is
      // retried as it is.
      if (failed.length > 1 && failed.length === relevant.length)
        throw new Error(`every projector of ${group} failed on the batch`);
      for (const p of failed) await this.leaveAtPoison(tx, p, events, batch.from);
    }
    this.pendingApplied.set(log, applied);
    const leaving = new Set(this.pendingHalts.map((h) => h.projector));
    const still = live.filter((p) => !leaving.has(p.name)).map((p) => p.name);
    await this.notify(tx, { p: batch.to, n: [group, ...still], a: applied });
    this.announced.set(group, batch.to);
    return applied.length;
  }

  /** Runs `work` in a savepoint: false (rolled back to it) if it failed on something but the database. */
  private async tryInSavepoint(tx: PoolClient, work: () => Promise<unknown>): Promise<boolean> {
    await tx.query('savepoint projector');
    try {
      await work();
      await tx.query('release savepoint projector');
      return true;
    } catch (error) {
      if (isDatabaseUnreachable(error) || error instanceof LeaseLost) throw error;
      await tx.query('rollback to savepoint projector');
      this.lastFailure = error;
      return false;
    }
  }

  private lastFailure: unknown;

  /**
   * A projector that cannot apply a batch, in the batch's transaction: its events are applied one at a
   * time up to the first it cannot apply, which is quarantined; the projector then has a checkpoint of its
   * own just before it (`from` when it is the first), and is halted there.
   */
  private async leaveAtPoison(
    tx: PoolClient,
    p: Projector,
    events: RecordedEvent[],
    from: Position,
  ): Promise<void> {
    let through = from;
    for (const event of events) {
      if (handles(p, event.type)) {
        const ok = await this.tryInSavepoint(tx, () => applyEvents(p, tx, readFor(p, [event])));
        if (!ok) {
          const q = await recordQuarantine(tx, p.name, event, this.lastFailure, ISOLATE_AFTER + 1);
          await detachCheckpoint(tx, p.name, through, this.members.get(p.name)?.building ?? false);
          this.deps.logger.error(
            {
              projector: p.name,
              eventId: event.id,
              type: event.type,
              streamId: event.streamId,
              err: this.lastFailure,
            },
            'projector halted: event quarantined (fix, then `npm run projections -- retry <name>` or `npm run rebuild -- <name>`)',
          );
          // Halted in this process once the transaction commits (afterCommit); a rollback forgets it.
          this.pendingHalts.push({ ...q, appliedThrough: through });
          return;
        }
      }
      through = event.position;
    }
  }

  /** Projectors quarantined by the batch being committed (one consumer's batch at a time each). */
  private pendingHalts: (Quarantined & { appliedThrough: Position })[] = [];

  private halt(q: Quarantined, appliedThrough?: Position): void {
    this.halted.set(q.projector, q);
    const m = this.members.get(q.projector);
    if (m) {
      m.state = 'halted';
      if (appliedThrough !== undefined) m.position = appliedThrough;
      void m.consumer?.stop();
      m.consumer = undefined;
    }
    this.changed.emit('progress');
    this.watchQuarantine();
  }

  /** After a commit: the projectors its batch quarantined are halted here too. */
  private haltCommitted(names: (p: string) => boolean): void {
    const done = this.pendingHalts.filter((h) => names(h.projector));
    this.pendingHalts = this.pendingHalts.filter((h) => !names(h.projector));
    for (const h of done) this.halt(h, h.appliedThrough);
  }

  private markLive(m: Member): void {
    m.state = 'live';
    m.building = false;
    void m.consumer?.stop();
    m.consumer = undefined;
    this.changed.emit('progress');
  }

  private async notify(db: Queryable, notice: ProgressNotice): Promise<void> {
    await db.query({
      name: 'mrn_projection_notice',
      text: `select pg_notify('${PROGRESS_CHANNEL}', $1)`,
      values: [JSON.stringify(notice)],
    });
  }

  /** A notice for a position reached without a commit (a horizon, events skipped). */
  private async announce(name: string, position: Position, log?: LogName): Promise<void> {
    this.announced.set(name, position);
    const names = log
      ? [
          name,
          ...[...this.members.values()]
            .filter((m) => m.state === 'live' && logOf(m.projector) === log)
            .map((m) => m.projector.name),
        ]
      : [name];
    await this.notify(this.deps.pool, { p: position, n: names, a: [] }).catch((err: unknown) =>
      this.deps.logger.warn({ err }, 'projection progress not announced'),
    );
  }

  // ---- projectors behind the group --------------------------------------------------------------------

  /**
   * A projector behind its live group reads the log on its own from its checkpoint (only the types it
   * handles), batch by batch, each in a transaction of its own; once it has read everything visible it
   * joins the group.
   */
  private catchUp(m: Member): void {
    const p = m.projector;
    const consumer = new Consumer({
      name: p.name,
      store: this.logReader(logOf(p)),
      pool: this.deps.pool,
      logger: this.deps.logger,
      ...(this.deps.leaseUrl ? { leaseUrl: this.deps.leaseUrl } : {}),
      types: handledTypes(p),
      batchSize: CATCH_UP_BATCH_SIZE,
      handle: (tx, events, batch) => this.applyCatchingUp(m, tx, events, batch),
      afterCommit: () => {
        this.deps.onApplied?.(p.name);
        this.haltCommitted((name) => name === p.name);
      },
      onPosition: (position) => {
        if (m.state !== 'catching_up') return;
        m.position = position;
        this.changed.emit('progress');
        if ((this.announced.get(p.name) ?? START) < position) void this.announce(p.name, position);
      },
      onCaughtUp: () => {
        m.joining ??= this.join(m).finally(() => {
          m.joining = undefined;
        });
      },
    });
    m.consumer = consumer;
    consumer.start();
  }

  private async applyCatchingUp(
    m: Member,
    tx: PoolClient,
    events: RecordedEvent[],
    batch: ConsumerBatch,
  ): Promise<number> {
    const p = m.projector;
    this.pendingHalts = this.pendingHalts.filter((h) => h.projector !== p.name);
    if (batch.attempt < ISOLATE_AFTER) await applyEvents(p, tx, readFor(p, events));
    else if (!(await this.tryInSavepoint(tx, () => applyEvents(p, tx, readFor(p, events))))) {
      await this.leaveAtPoison(tx, p, events, batch.from);
    }
    await this.notify(tx, { p: batch.to, n: [p.name], a: [p.name] });
    this.announced.set(p.name, batch.to);
    return events.length;
  }

  /**
   * Joins the live group of the projector's log: its own reader stopped (its checkpoint then stands
   * still), then, holding the group's checkpoint row (the group's batches wait), the events between the
   * two applied to it and its checkpoint made a follower of the group's, in one transaction. A projector
   * ahead of the group waits for the group to pass it.
   */
  private async join(m: Member): Promise<void> {
    const p = m.projector;
    const log = logOf(p);
    const group = this.group(log);
    if (m.state !== 'catching_up' || this.controller.signal.aborted) return;
    const consumer = m.consumer;
    m.consumer = undefined;
    await consumer?.stop();
    if (this.controller.signal.aborted) return;
    try {
      for (;;) {
        const joined = await withTransaction(this.deps.pool, async (tx) => {
          const { rows } = await tx.query<{ name: string; position: string }>(
            `select name, position from subscription_checkpoints where name = any($1::text[])
              order by name = $2 desc for update`,
            [[group, p.name], group],
          );
          const at = rows.find((r) => r.name === group)?.position ?? START;
          const mine = rows.find((r) => r.name === p.name)?.position ?? START;
          if (mine.startsWith('@')) return true;
          // Ahead of the group (it reads in batches, this one read to the horizon): wait for it.
          if (mine > at) return false;
          let from = mine;
          for (;;) {
            const gap = (
              await this.logReader(log).readAll({
                fromPosition: from,
                maxCount: CATCH_UP_BATCH_SIZE,
                types: handledTypes(p),
              })
            ).filter((e) => e.position <= at);
            if (gap.length === 0) break;
            await applyEvents(p, tx, readFor(p, gap));
            from = gap[gap.length - 1]!.position;
          }
          await followCheckpoint(tx, p.name, mine, group);
          await tx.query(`update subscription_checkpoints set building = false where name = $1`, [p.name]);
          return true;
        });
        if (joined) break;
        await sleepUnlessAborted(JOIN_RETRY_MS, this.controller.signal);
        if (this.controller.signal.aborted) return;
      }
    } catch (err) {
      if (this.controller.signal.aborted) return;
      // Not joined: it goes on catching up, and tries again once caught up.
      this.deps.logger.warn(
        { err, projector: p.name },
        'projector could not join the live group; catching up',
      );
      if (m.state === 'catching_up') this.catchUp(m);
      return;
    }
    this.deps.logger.info({ projector: p.name, building: m.building }, 'projector joined the live group');
    this.markLive(m);
    this.deps.onApplied?.(p.name);
  }

  // ---- quarantine -------------------------------------------------------------------------------------

  /** While a projector is halted, look for an operator's retry; then it catches up from where it stopped. */
  private watchQuarantine(): void {
    if (this.quarantinePoll || this.controller.signal.aborted) return;
    this.quarantinePoll = setInterval(() => {
      void this.resumeResolved().catch((err) => this.deps.logger.error({ err }, 'quarantine check failed'));
    }, QUARANTINE_POLL_MS);
    this.quarantinePoll.unref();
  }

  private async resumeResolved(): Promise<void> {
    const waiting = await unresolvedProjectors(this.deps.pool);
    for (const name of [...this.halted.keys()]) {
      if (waiting.has(name)) continue;
      this.halted.delete(name);
      const m = this.members.get(name);
      if (!m) continue;
      m.state = 'catching_up';
      m.position = await readCheckpoint(this.deps.pool, name);
      this.deps.logger.info({ projector: name }, 'projector resumed after its quarantine was resolved');
      this.catchUp(m);
    }
    if (this.halted.size === 0 && this.quarantinePoll) {
      clearInterval(this.quarantinePoll);
      this.quarantinePoll = undefined;
    }
  }

  // ---- what others ask ------------------------------------------------------------------------------

  /** Where a projector has applied its log through. */
  private positionOf(m: Member): Position {
    return m.state === 'live' ? (this.groups.get(logOf(m.projector))?.position ?? START) : m.position;
  }

  /** Where each projector has applied its log through (in this process). */
  get positions(): ReadonlyMap<string, Position> {
    return new Map([...this.members].map(([name, m]) => [name, this.positionOf(m)]));
  }

  /** The projectors this process applies now: the groups and catch-ups whose lease it holds. */
  get applying(): string[] {
    return [...this.members.values()]
      .filter((m) =>
        m.state === 'live'
          ? (this.groups.get(logOf(m.projector))?.consumer.holdsLease ?? false)
          : (m.consumer?.holdsLease ?? false),
      )
      .map((m) => m.projector.name);
  }

  /** Projectors halted at a quarantined event, and where each stopped. */
  get quarantined(): (Quarantined & { appliedThrough: Position })[] {
    return [...this.halted.values()].map((q) => ({
      ...q,
      appliedThrough: this.members.get(q.projector)?.position ?? START,
    }));
  }

  /** Among `names`, the projectors that have never been complete: what they serve is not served yet. */
  async building(names?: readonly string[]): Promise<string[]> {
    const wanted = names && names.length > 0 ? names : [...this.members.keys()];
    return wanted.filter((n) => this.members.get(n)?.building === true);
  }

  /**
   * Resolves true once every named projector (all when empty) has passed `position`, false on timeout.
   * The readers that have not passed it are nudged to read now: a position of another log (a search's,
   * for the event log's readers) is passed once they have read to the horizon.
   */
  waitFor(position: Position, names: readonly string[] | undefined, timeoutMs: number): Promise<boolean> {
    const wanted = (names && names.length > 0 ? names : [...this.members.keys()])
      .map((n) => this.members.get(n))
      .filter((m): m is Member => m !== undefined);
    const passed = () => wanted.every((m) => this.positionOf(m) >= position);
    if (passed()) return Promise.resolve(true);
    for (const m of wanted) {
      if (this.positionOf(m) >= position) continue;
      if (m.state === 'live') this.groups.get(logOf(m.projector))?.consumer.nudge();
      else m.consumer?.nudge();
    }
    return new Promise((resolve) => {
      const finish = (value: boolean) => {
        clearTimeout(timer);
        this.changed.off('progress', check);
        resolve(value);
      };
      const check = () => {
        if (passed()) finish(true);
      };
      const timer = setTimeout(() => finish(passed()), timeoutMs);
      this.changed.on('progress', check);
    });
  }

  /** Finishes the batches in hand, then frees the leases so a standby takes over at once. */
  async stop(): Promise<void> {
    if (this.quarantinePoll) clearInterval(this.quarantinePoll);
    this.controller.abort();
    await Promise.all([
      ...[...this.groups.values()].map((g) => g.consumer.stop()),
      ...[...this.members.values()].map((m) => m.joining ?? m.consumer?.stop()),
    ]);
  }
}
