import { EventEmitter } from 'node:events';
import { parseEvent } from '@mrn/contracts';
import {
  Consumer,
  type ConsumerBatch,
  type ConsumerLog,
  checkpointRows,
  detachCheckpoint,
  dropCheckpoint,
  followCheckpoint,
  followersOf,
  followsGroup,
  holdCheckpoints,
  isDatabaseUnreachable,
  LeaseLost,
  type Logger,
  markCheckpoint,
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
  type ApplyContext,
  applyEvents,
  handledTypes,
  handles,
  LIVE,
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
/**
 * The same for the search log's live group. Searches come one by one at any rate, and each of its batches
 * costs the same whatever it holds (five projectors' statements, a checkpoint, a commit, and a read by
 * every follower of the feeds it writes): at 5 ms, one connection searching at 500/s paid for a batch of
 * two or three searches each time.
 */
const SEARCH_BATCH_INTERVAL_MS = 50;
/** A projector behind the others reads bigger batches (each is its own transaction). */
const CATCH_UP_BATCH_SIZE = 5000;
/** Failures of a batch after which each projector is tried on its own and a poison event is looked for. */
const ISOLATE_AFTER = 3;
/** How often a halted runner looks whether an operator has resolved a quarantine. */
const QUARANTINE_POLL_MS = 2000;
/** Positions reached without a commit are announced to other processes at most this often per group. */
const ANNOUNCE_INTERVAL_MS = 20;
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
export async function applyBatch(
  pool: Pool,
  p: Projector,
  events: RecordedEvent[],
  ctx: ApplyContext = LIVE,
): Promise<void> {
  const last = events[events.length - 1];
  if (!last) return;
  await withTransaction(pool, async (tx) => {
    await applyEvents(p, tx, readFor(p, events), ctx);
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
  ctx: ApplyContext = LIVE,
): Promise<void> {
  const last = events[events.length - 1];
  if (!last) return;
  const outcomes = await Promise.allSettled(
    projectors.map(async (p) => {
      const cursor = cursors.get(p.name) ?? START;
      if (cursor >= last.position) return;
      const mine = events[0]!.position > cursor ? events : events.filter((e) => e.position > cursor);
      if (mine.some((e) => handles(p, e.type))) await applyBatch(pool, p, mine, ctx);
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
   * With a database URL, each group of projectors is applied only while this process holds its lease
   * (a standby takes over within a second or so of the holder's death). Without one, this runner applies
   * everything.
   */
  leaseUrl?: string;
  /** After each batch of a log's live group: its last event, and whether the log had no more. */
  onProgress?: (last: RecordedEvent, atHead: boolean) => void;
  /** The groups' checkpoint names begin with this (default `projections`; tests keep theirs apart). */
  groupPrefix?: string;
  /**
   * This process's LISTEN connection: processes waiting for a position (X-Consistent-After run apart)
   * ask through it that the readers behind that position read now.
   */
  notifications?: PgNotifications;
}

/** Projectors following one checkpoint and one reader of a log: a log's live group, or a group catching up. */
interface Group {
  name: string;
  log: LogName;
  live: boolean;
  consumer?: Consumer;
  position: Position;
  joining?: Promise<void>;
}

interface Member {
  projector: Projector;
  /** The group it follows; none while halted at a quarantined event. */
  group: string | undefined;
  /** Never complete since it was created or its version changed: what it serves is not served yet. */
  building: boolean;
  /** Its own position while halted. */
  position: Position;
}

/**
 * Keeps every projector's read model up to date from its log (the event log, or the search log), and
 * tells waiting queries when a position has been passed (read-your-writes, DESIGN §1). One engine: the
 * platform `Consumer`, for every reader.
 *
 * Projectors follow a **group**: one reader, one transaction and one checkpoint per batch for all of them
 * (a member's own checkpoint reads `@<group>`), fenced. Each log has its **live group**, the projectors
 * that are up to date. Projectors behind it (new, built again for a new version, released from
 * quarantine) follow a **catching-up group** of the same log, made of those at the same position: it
 * reads only their event types, in bigger batches, and once it has read everything visible it joins the
 * live group at the live group's position: its reader stopped, both groups' checkpoints held (the live
 * group's batches wait), the events between them applied to its members and their checkpoints made
 * followers of the live group's, in one transaction. Live read models never wait for a group catching up;
 * a projector that has never been complete (`building`) is not served until it joins.
 *
 * A batch that keeps failing is tried projector by projector in savepoints: the one that fails finds its
 * poison event, is quarantined and leaves its group at the event before it, while the others carry on.
 * Resolving the quarantine puts it in a catching-up group of its own from there.
 */
export class ProjectionRunner implements ReadModelProgress {
  private readonly members = new Map<string, Member>();
  private readonly groups = new Map<string, Group>();
  private readonly halted = new Map<string, Quarantined>();
  private readonly changed = new EventEmitter();
  private readonly controller = new AbortController();
  /** What each group applied in the batch it is committing, told to `onApplied` after it. */
  private readonly pendingApplied = new Map<string, string[]>();
  /** Projectors quarantined by the batches being committed, by group. */
  private readonly pendingHalts = new Map<string, (Quarantined & { appliedThrough: Position })[]>();
  /** The last position announced for each group (notices). */
  private readonly announced = new Map<string, Position>();
  /** Per group, the announcement of its position waiting for the interval (`announceSoon`). */
  private readonly announcing = new Map<string, NodeJS.Timeout>();
  /** When each group last announced a position without a commit (performance.now()). */
  private readonly announcedAt = new Map<string, number>();
  private lastFailure: unknown;
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

  private get prefix(): string {
    return this.deps.groupPrefix ?? 'projections';
  }

  private liveName(log: LogName): string {
    return liveGroup(log, this.deps.groupPrefix);
  }

  private logReader(log: LogName): ConsumerLog {
    return log === 'searches' ? this.deps.searches! : this.deps.store;
  }

  private get logs(): LogName[] {
    return [...new Set(this.projectors.map(logOf))];
  }

  private projector(name: string): Projector | undefined {
    return this.members.get(name)?.projector;
  }

  async start(): Promise<void> {
    this.started = true;
    await restoreDeferredIndexes(this.deps.pool);
    const quarantined = await this.unresolvedQuarantine();
    await this.prepare(new Set(quarantined.map((q) => q.projector)));
    // Halted where it stopped (unless built again for a new version meanwhile: then it follows a group).
    for (const q of quarantined) {
      const m = this.members.get(q.projector);
      if (m && !m.group) this.halt(q, m.position);
    }
    for (const g of this.groups.values()) this.startGroup(g);
    await this.deps.notifications?.on(PROGRESS_WANTED_CHANNEL, (position: string) =>
      this.nudgeBehind(position),
    );
  }

  /**
   * Where each projector stands, from the checkpoints: following its log's live group, following a group
   * catching up, or halted on a checkpoint of its own. A database from before the groups (a checkpoint
   * per projector) gets each log's live group at the most advanced of them, followed by those already
   * there; projectors on a checkpoint of their own at one position make a catching-up group.
   */
  private async prepare(haltedNames: ReadonlySet<string>): Promise<void> {
    await withTransaction(this.deps.pool, async (tx) => {
      // Two processes starting at once lay the groups out once.
      await tx.query(`select pg_advisory_xact_lock(hashtext('mrn_projection_groups'))`);
      const rows = await checkpointRows(
        tx,
        this.projectors.map((p) => p.name),
        `${this.prefix}:`,
      );
      const row = new Map(rows.map((r) => [r.name, r]));
      const set = (name: string, position: string, building: boolean, version = 1) =>
        row.set(name, { name, position, building, version });
      // A projector whose code changed what its rows mean: emptied, built again, served once complete.
      for (const p of this.projectors) {
        const r = row.get(p.name);
        if (!r) {
          const building = await this.hasHistory(p);
          await this.reset(tx, p, building);
          set(p.name, START, building, versionOf(p));
        } else if (r.version !== versionOf(p)) {
          await this.reset(tx, p, true);
          set(p.name, START, true, versionOf(p));
        }
      }
      for (const log of this.logs) {
        const live = this.liveName(log);
        const mine = this.projectors.filter((p) => logOf(p) === log);
        if (!row.has(live)) {
          const own = mine
            .map((p) => row.get(p.name)!)
            .filter((r) => !r.building && !r.position.startsWith('@'));
          // biome-ignore lint/complexity/useMathMinMax: positions are strings, compared in log order
          const at = own.reduce((max, r) => (r.position > max ? r.position : max), START);
          await detachCheckpoint(tx, live, at, false);
          set(live, at, false);
          for (const r of own.filter((x) => x.position === at)) {
            await followCheckpoint(tx, r.name, at, live);
            set(r.name, followsGroup(live), false);
          }
        }
        this.groups.set(live, { name: live, log, live: true, position: row.get(live)!.position });
        // Those on a checkpoint of their own (not halted): one catching-up group per position.
        const loose = new Map<string, Projector[]>();
        for (const p of mine) {
          const r = row.get(p.name)!;
          if (r.position.startsWith('@') && row.has(r.position.slice(1))) continue;
          if (haltedNames.has(p.name) && !r.position.startsWith('@')) continue;
          // A follower of a group that is gone starts again from the beginning.
          const from = r.position.startsWith('@') ? START : r.position;
          loose.set(from, [...(loose.get(from) ?? []), p]);
        }
        for (const [from, ps] of loose) {
          const name = `${this.prefix}:${log}:catchup:${ps[0]!.name}`;
          await detachCheckpoint(tx, name, from, false);
          set(name, from, false);
          for (const p of ps) {
            const r = row.get(p.name)!;
            if (r.position.startsWith('@')) await detachCheckpoint(tx, p.name, from, r.building);
            await followCheckpoint(tx, p.name, from, name);
            set(p.name, followsGroup(name), r.building, r.version);
          }
        }
        // The catching-up groups of this log (new or left by a stopped process) with someone following.
        for (const r of row.values()) {
          if (!r.name.startsWith(`${this.prefix}:${log}:catchup:`)) continue;
          const followed = mine.some((p) => row.get(p.name)?.position === followsGroup(r.name));
          if (!followed) {
            await dropCheckpoint(tx, r.name);
            continue;
          }
          this.groups.set(r.name, { name: r.name, log, live: false, position: r.position });
        }
        for (const p of mine) {
          const r = row.get(p.name)!;
          const following = r.position.startsWith('@') ? r.position.slice(1) : undefined;
          this.members.set(p.name, {
            projector: p,
            group: following && this.groups.has(following) ? following : undefined,
            building: r.building,
            position: following ? START : r.position,
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

  /** Empties a projector's tables and starts it over from the log's beginning. */
  private async reset(tx: Queryable, p: Projector, building: boolean): Promise<void> {
    if (p.tables.length > 0) await tx.query(`truncate ${p.tables.join(', ')}`);
    await tx.query('delete from projection_quarantine where projector = $1', [p.name]);
    await detachCheckpoint(tx, p.name, START, building);
    await markCheckpoint(tx, p.name, { version: versionOf(p) });
    if (building)
      this.deps.logger.info(
        { projector: p.name, version: versionOf(p) },
        'projector built again from the log',
      );
  }

  private async unresolvedQuarantine(): Promise<Quarantined[]> {
    const names = new Set(this.projectors.map((p) => p.name));
    const { rows } = await this.deps.pool.query<{
      projector: string;
      event_id: string;
      position: string;
      stream_id: string;
      type: string;
      error: string;
      first_failed_at: Date;
    }>(
      `select distinct on (projector) projector, event_id, position, stream_id, type, error, first_failed_at
         from projection_quarantine where resolved_at is null order by projector, first_failed_at`,
    );
    return rows
      .filter((q) => names.has(q.projector))
      .map((q) => ({
        projector: q.projector,
        eventId: q.event_id,
        position: q.position,
        streamId: q.stream_id,
        type: q.type,
        error: q.error,
        recordedAt: q.first_failed_at,
        since: q.first_failed_at,
      }));
  }

  // ---- groups ---------------------------------------------------------------------------------------------

  private startGroup(g: Group): void {
    const types = g.live
      ? undefined
      : [
          ...new Set(
            [...this.members.values()]
              .filter((m) => m.group === g.name)
              .flatMap((m) => handledTypes(m.projector)),
          ),
        ];
    const consumer = new Consumer({
      name: g.name,
      store: this.logReader(g.log),
      pool: this.deps.pool,
      logger: this.deps.logger,
      ...(this.deps.leaseUrl ? { leaseUrl: this.deps.leaseUrl } : {}),
      ...(types ? { types } : {}),
      batchSize: g.live ? BATCH_SIZE : CATCH_UP_BATCH_SIZE,
      ...(g.live
        ? { batchIntervalMs: g.log === 'searches' ? SEARCH_BATCH_INTERVAL_MS : BATCH_INTERVAL_MS }
        : {}),
      handle: (tx, events, batch) => this.applyGroup(g, tx, events, batch),
      afterCommit: (_count, batch) => {
        const halts = this.pendingHalts.get(g.name) ?? [];
        this.pendingHalts.delete(g.name);
        for (const h of halts) this.halt(h, h.appliedThrough);
        for (const name of this.pendingApplied.get(g.name) ?? []) this.deps.onApplied?.(name);
        this.pendingApplied.delete(g.name);
        if (g.live) this.deps.onProgress?.(batch.all[batch.all.length - 1]!, batch.all.length < BATCH_SIZE);
      },
      onPosition: (position) => {
        g.position = position;
        this.changed.emit('progress');
        // Commits announced themselves; a move past events the group skips, or to the log's horizon,
        // is announced here, for what waits in other processes.
        if ((this.announced.get(g.name) ?? START) < position) this.announceSoon(g);
      },
      ...(g.live
        ? {}
        : {
            onCaughtUp: () => {
              g.joining ??= this.join(g).finally(() => {
                g.joining = undefined;
              });
            },
          }),
    });
    g.consumer = consumer;
    consumer.start();
  }

  /**
   * The projectors following `g` now (read in its batch's transaction, after its checkpoint moved), in
   * the order the runner was given them: a batch applies them in that order (see `allProjectors`).
   */
  private async membersOf(tx: Queryable, g: Group): Promise<Projector[]> {
    const following = await followersOf(tx, g.name);
    const out: Projector[] = [];
    for (const [name, m] of this.members) {
      if (!following.has(name) || logOf(m.projector) !== g.log) continue;
      // Another process may have moved it (a join, a halt): this process's view follows the database.
      if (m.group !== g.name) {
        m.group = g.name;
        if (g.live) m.building = false;
        this.halted.delete(name);
      }
      out.push(m.projector);
    }
    return out;
  }

  /**
   * One batch of a group: every member that handles any of its events applies it, in the transaction
   * that moved the group's checkpoint. From the `ISOLATE_AFTER`th failure of the batch on, each member is
   * tried in a savepoint and a failing one leaves the group at its poison event.
   */
  private async applyGroup(
    g: Group,
    tx: PoolClient,
    events: RecordedEvent[],
    batch: ConsumerBatch,
  ): Promise<number> {
    this.pendingHalts.delete(g.name);
    const members = await this.membersOf(tx, g);
    const relevant = members.filter((p) => events.some((e) => handles(p, e.type)));
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
        throw new Error(`every projector of ${g.name} failed on the batch`);
      for (const p of failed) await this.leaveAtPoison(g, tx, p, events, batch.from);
    }
    this.pendingApplied.set(g.name, applied);
    const leaving = new Set((this.pendingHalts.get(g.name) ?? []).map((h) => h.projector));
    const still = members.filter((p) => !leaving.has(p.name)).map((p) => p.name);
    await this.notify(tx, { p: batch.to, n: [g.name, ...still], a: applied });
    this.announced.set(g.name, batch.to);
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

  /**
   * A projector that cannot apply a batch, in the batch's transaction: its events are applied one at a
   * time up to the first it cannot apply, which is quarantined; the projector then has a checkpoint of its
   * own just before it (`from` when it is the first), and is halted there once the batch commits.
   */
  private async leaveAtPoison(
    g: Group,
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
          this.pendingHalts.set(g.name, [
            ...(this.pendingHalts.get(g.name) ?? []),
            { ...q, appliedThrough: through },
          ]);
          return;
        }
      }
      through = event.position;
    }
  }

  private halt(q: Quarantined, appliedThrough?: Position): void {
    this.halted.set(q.projector, q);
    const m = this.members.get(q.projector);
    if (m) {
      m.group = undefined;
      if (appliedThrough !== undefined) m.position = appliedThrough;
    }
    this.changed.emit('progress');
    this.watchQuarantine();
  }

  private async notify(db: Queryable, notice: ProgressNotice): Promise<void> {
    await db.query({
      name: 'mrn_projection_notice',
      text: `select pg_notify('${PROGRESS_CHANNEL}', $1)`,
      values: [JSON.stringify(notice)],
    });
  }

  /**
   * The group's position announced now, or once `ANNOUNCE_INTERVAL_MS` has passed since the last: under
   * a steady stream of appends every read moves the horizon, and a notice each was a statement and a
   * commit each (issue 31). Commits are announced in their own transaction, at once.
   */
  private announceSoon(g: Group): void {
    if (this.announcing.has(g.name) || this.controller.signal.aborted) return;
    const wait = (this.announcedAt.get(g.name) ?? -Infinity) + ANNOUNCE_INTERVAL_MS - performance.now();
    const fire = () => {
      this.announcing.delete(g.name);
      this.announcedAt.set(g.name, performance.now());
      if ((this.announced.get(g.name) ?? START) < g.position) void this.announce(g, g.position);
    };
    if (wait <= 0) {
      fire();
      return;
    }
    const timer = setTimeout(fire, wait);
    timer.unref();
    this.announcing.set(g.name, timer);
  }

  /** A notice for a position reached without a commit (a horizon, events skipped). */
  private async announce(g: Group, position: Position): Promise<void> {
    this.announced.set(g.name, position);
    const names = [
      g.name,
      ...[...this.members.values()].filter((m) => m.group === g.name).map((m) => m.projector.name),
    ];
    await this.notify(this.deps.pool, { p: position, n: names, a: [] }).catch((err: unknown) =>
      this.deps.logger.warn({ err }, 'projection progress not announced'),
    );
  }

  /**
   * A catching-up group joins its log's live group: its reader stopped (its checkpoint then stands still),
   * then, holding both groups' checkpoint rows (the live group's batches wait), the events between the
   * two applied to its members and their checkpoints made followers of the live group's, in one
   * transaction. A group ahead of the live one waits for it to pass.
   */
  private async join(g: Group): Promise<void> {
    if (this.controller.signal.aborted) return;
    const live = this.liveName(g.log);
    const consumer = g.consumer;
    g.consumer = undefined;
    await consumer?.stop();
    if (this.controller.signal.aborted) return;
    let joined: string[] | undefined;
    try {
      for (;;) {
        joined = await withTransaction(this.deps.pool, async (tx) => {
          const held = await holdCheckpoints(tx, [live, g.name]);
          const at = held.get(live) ?? START;
          const mine = held.get(g.name);
          if (mine === undefined) return [];
          // Ahead of the live group (it reads in batches, this one read to the horizon): wait for it.
          if (mine > at) return undefined;
          const members = await this.membersOf(tx, g);
          const types = [...new Set(members.flatMap(handledTypes))];
          for (let from = mine; ; ) {
            const gap = (
              await this.logReader(g.log).readAll(
                { fromPosition: from, maxCount: CATCH_UP_BATCH_SIZE, types },
                tx,
              )
            ).filter((e) => e.position <= at);
            if (gap.length === 0) break;
            for (const p of members) {
              if (gap.some((e) => handles(p, e.type))) await applyEvents(p, tx, readFor(p, gap));
            }
            from = gap[gap.length - 1]!.position;
          }
          for (const p of members) {
            await followCheckpoint(tx, p.name, followsGroup(g.name), live);
            await markCheckpoint(tx, p.name, { building: false });
          }
          await dropCheckpoint(tx, g.name);
          return members.map((p) => p.name);
        });
        if (joined) break;
        await sleepUnlessAborted(JOIN_RETRY_MS, this.controller.signal);
        if (this.controller.signal.aborted) return;
      }
    } catch (err) {
      if (this.controller.signal.aborted) return;
      // Not joined: it goes on catching up, and tries again once caught up.
      this.deps.logger.warn({ err, group: g.name }, 'projectors could not join the live group; catching up');
      this.startGroup(g);
      return;
    }
    this.groups.delete(g.name);
    for (const name of joined) {
      const m = this.members.get(name);
      if (!m) continue;
      m.group = live;
      m.building = false;
      this.deps.onApplied?.(name);
    }
    this.deps.logger.info({ projectors: joined, log: g.log }, 'projectors joined the live group');
    this.changed.emit('progress');
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
      const m = this.members.get(name);
      if (!m) continue;
      const from = await readCheckpoint(this.deps.pool, name);
      const g: Group = {
        name: `${this.prefix}:${logOf(m.projector)}:catchup:${name}`,
        log: logOf(m.projector),
        live: false,
        position: from,
      };
      await withTransaction(this.deps.pool, async (tx) => {
        await detachCheckpoint(tx, g.name, from, false);
        await followCheckpoint(tx, name, from, g.name);
      });
      this.halted.delete(name);
      m.group = g.name;
      this.groups.set(g.name, g);
      this.deps.logger.info({ projector: name }, 'projector resumed after its quarantine was resolved');
      this.startGroup(g);
    }
    if (this.halted.size === 0 && this.quarantinePoll) {
      clearInterval(this.quarantinePoll);
      this.quarantinePoll = undefined;
    }
  }

  // ---- what others ask ------------------------------------------------------------------------------

  /** Where a projector has applied its log through. */
  private positionOf(m: Member): Position {
    return m.group ? (this.groups.get(m.group)?.position ?? START) : m.position;
  }

  /** Where each projector has applied its log through (in this process). */
  get positions(): ReadonlyMap<string, Position> {
    return new Map([...this.members].map(([name, m]) => [name, this.positionOf(m)]));
  }

  /** The projectors this process applies now: those of the groups whose lease it holds. */
  get applying(): string[] {
    return [...this.members.values()]
      .filter((m) => m.group && (this.groups.get(m.group)?.consumer?.holdsLease ?? false))
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

  /** The readers that have not passed `position` read now (someone waits for it). */
  private nudgeBehind(position: Position): void {
    for (const g of this.groups.values()) if (g.position < position) g.consumer?.nudge();
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
      if (this.positionOf(m) < position && m.group) this.groups.get(m.group)?.consumer?.nudge();
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
    for (const timer of this.announcing.values()) clearTimeout(timer);
    this.announcing.clear();
    this.controller.abort();
    await Promise.all([...this.groups.values()].map((g) => g.joining ?? g.consumer?.stop()));
  }
}
