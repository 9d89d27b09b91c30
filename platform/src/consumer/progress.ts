import { EventEmitter } from 'node:events';
import type { Queryable } from '../db.ts';
import { START } from '../event-store/position.ts';
import type { Position } from '../event-store/types.ts';
import { PROGRESS_CHANNEL, parseProgressNotice, readCheckpoints } from './checkpoints.ts';
import type { PgNotifications } from './notifications.ts';

/**
 * How far the consumers (projectors) have applied the log: X-Consistent-After and the command side's
 * work after a read model caught up wait on it. The projections runner answers it from memory in the
 * all-in-one process; `CheckpointProgress` answers it in any process from PostgreSQL.
 */
export interface ReadModelProgress {
  /** True once every named consumer has passed `position`; false when `timeoutMs` ran out first. */
  waitFor(position: Position, names: readonly string[], timeoutMs: number): Promise<boolean>;
}

/**
 * Progress read from the checkpoints in PostgreSQL and kept current by the runner's notices on
 * LISTEN/NOTIFY (no polling loop): a write made through one process is read at once through another.
 */
export class CheckpointProgress implements ReadModelProgress {
  private readonly known = new Map<string, Position>();
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
    for (const [name, position] of await readCheckpoints(this.db, names)) this.advance(name, position);
    this.changed.emit('progress');
  }

  async waitFor(position: Position, names: readonly string[], timeoutMs: number): Promise<boolean> {
    const passed = () => names.every((n) => (this.known.get(n) ?? START) >= position);
    if (passed()) return true;
    await this.listen();
    await this.refresh(names);
    if (passed()) return true;
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
