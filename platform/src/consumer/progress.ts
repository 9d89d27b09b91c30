import { EventEmitter } from 'node:events';
import type { Queryable } from '../db.ts';
import { START } from '../event-store/position.ts';
import type { Position } from '../event-store/types.ts';
import { PROGRESS_CHANNEL, parseProgressNotice, readCheckpointStates } from './checkpoints.ts';
import type { PgNotifications } from './notifications.ts';

/**
 * How far the consumers (projectors) have applied the log: X-Consistent-After and the command side's
 * work after a read model caught up wait on it. The projections runner answers it from memory in the
 * all-in-one process; `CheckpointProgress` answers it in any process from PostgreSQL.
 */
export interface ReadModelProgress {
  /** True once every named consumer has passed `position`; false when `timeoutMs` ran out first. */
  waitFor(position: Position, names: readonly string[], timeoutMs: number): Promise<boolean>;
  /**
   * Among `names`, the consumers whose output is still being built and must not be served yet (a new
   * read model, or one built again for a new version). Optional: a source that cannot tell builds nothing.
   */
  building?(names: readonly string[]): Promise<readonly string[]>;
}

/**
 * Where a process waiting for a position asks the consumers' process to read its log now: a consumer that
 * has nothing to read passes a position only once it reads to the log's horizon, which it does when it is
 * woken (an append it handles, the poll) or asked here.
 */
export const PROGRESS_WANTED_CHANNEL = 'mrn_progress_wanted';

/** How long the building consumers read from PostgreSQL are trusted. */
const BUILDING_CACHE_MS = 1000;

/**
 * Progress read from the checkpoints in PostgreSQL and kept current by the runner's notices on
 * LISTEN/NOTIFY (no polling loop): a write made through one process is read at once through another.
 */
export class CheckpointProgress implements ReadModelProgress {
  private readonly known = new Map<string, Position>();
  private buildingRead: { at: number; names: Set<string> } | undefined;
  private readonly changed = new EventEmitter();
  private listening: Promise<unknown> | undefined;

  constructor(
    private readonly db: Queryable,
    private readonly notifications: PgNotifications,
  ) {
    this.changed.setMaxListeners(0);
  }

  private advance(name: string, position: Position): void {
    if ((this.known.get(name) ?? START) < position) this.known.set(name, position);
  }

  /** LISTEN first, then read: a notice sent between the two is not missed. */
  private listen(): Promise<unknown> {
    this.listening ??= (async () => {
      await this.notifications.on(PROGRESS_CHANNEL, (payload) => {
        const notice = parseProgressNotice(payload);
        if (!notice) return;
        for (const name of notice.n) this.advance(name, notice.p);
        this.changed.emit('progress');
      });
      this.notifications.onReconnect(() => {
        void this.refresh().catch(() => undefined);
      });
    })().catch((error: unknown) => {
      this.listening = undefined;
      throw error;
    });
    return this.listening;
  }

  private async refresh(names?: readonly string[]): Promise<void> {
    const states = await readCheckpointStates(this.db, names);
    for (const [name, { position }] of states) this.advance(name, position);
    if (!names) {
      this.buildingRead = {
        at: performance.now(),
        names: new Set([...states].filter(([, s]) => s.building).map(([n]) => n)),
      };
    }
    this.changed.emit('progress');
  }

  async building(names: readonly string[]): Promise<readonly string[]> {
    if (!this.buildingRead || performance.now() - this.buildingRead.at > BUILDING_CACHE_MS) {
      const states = await readCheckpointStates(this.db);
      this.buildingRead = {
        at: performance.now(),
        names: new Set([...states].filter(([, s]) => s.building).map(([n]) => n)),
      };
    }
    const building = this.buildingRead.names;
    return names.filter((n) => building.has(n));
  }

  async waitFor(position: Position, names: readonly string[], timeoutMs: number): Promise<boolean> {
    const passed = () => names.every((n) => (this.known.get(n) ?? START) >= position);
    if (passed()) return true;
    await this.listen();
    await this.refresh(names);
    if (passed()) return true;
    // Those that have not passed it may have nothing to read (a position of another log): ask them to read.
    await this.db
      .query(`select pg_notify('${PROGRESS_WANTED_CHANNEL}', $1)`, [position])
      .catch(() => undefined);
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

  /** Where each consumer is, as far as this process knows (health, metrics). */
  async positions(): Promise<ReadonlyMap<string, Position>> {
    await this.listen().catch(() => undefined);
    await this.refresh();
    return this.known;
  }
}
