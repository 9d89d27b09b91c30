import { EventEmitter } from 'node:events';
import {
  type EventStore,
  type Logger,
  type Pool,
  type Position,
  type RecordedEvent,
  START,
  withTransaction,
} from '@mrn/platform';
import { applyEvents, handles, type Projector } from './projector.ts';

const IDLE_CHECKPOINT_MS = 5000;

export async function readCheckpoint(pool: Pool, name: string): Promise<Position> {
  const { rows } = await pool.query<{ position: string }>(
    'select position from subscription_checkpoints where name = $1',
    [name],
  );
  return rows[0]?.position ?? START;
}

/** Applies a batch and moves the checkpoint in one transaction, so a crash never applies an event twice. */
export async function applyBatch(pool: Pool, p: Projector, events: RecordedEvent[]): Promise<void> {
  const last = events[events.length - 1];
  if (!last) return;
  await withTransaction(pool, async (tx) => {
    await applyEvents(p, tx, events);
    await tx.query(
      `insert into subscription_checkpoints (name, position, updated_at) values ($1, $2, now())
       on conflict (name) do update set position = excluded.position, updated_at = now()`,
      [p.name, last.position],
    );
  });
}

/**
 * Keeps every projector's read model up to date from the global log, each from its own checkpoint,
 * and tells waiting queries when a position has been passed (read-your-writes, DESIGN §1).
 */
export class ProjectionRunner {
  private readonly progress = new Map<string, Position>();
  private readonly changed = new EventEmitter();
  private readonly controller = new AbortController();
  private readonly running: Promise<void>[] = [];
  private started = false;

  constructor(
    private readonly deps: { pool: Pool; store: EventStore; logger: Logger },
    readonly projectors: readonly Projector[],
  ) {
    this.changed.setMaxListeners(0);
  }

  get isRunning(): boolean {
    return this.started && !this.controller.signal.aborted;
  }

  async start(): Promise<void> {
    this.started = true;
    for (const p of this.projectors) {
      const from = await readCheckpoint(this.deps.pool, p.name);
      this.progress.set(p.name, from);
      this.running.push(this.run(p, from));
    }
  }

  private async run(p: Projector, from: Position): Promise<void> {
    let cursor = from;
    let lastWrite = 0;
    while (!this.controller.signal.aborted) {
      try {
        await this.deps.store.subscribeToAll({
          fromPosition: cursor,
          signal: this.controller.signal,
          batchSize: 2000,
          onBatch: async (events) => {
            // A batch with nothing for this projector only moves its cursor: writing that checkpoint on
            // every batch cost every projector a commit per search. Re-reading such events after a
            // restart is harmless, so the checkpoint is written at most every few seconds.
            const relevant = events.some((e) => handles(p, e.type));
            const now = Date.now();
            if (relevant || now - lastWrite >= IDLE_CHECKPOINT_MS) {
              await applyBatch(this.deps.pool, p, events);
              lastWrite = now;
            }
            cursor = events[events.length - 1]!.position;
            this.progress.set(p.name, cursor);
            this.changed.emit('progress');
          },
        });
      } catch (error) {
        if (this.controller.signal.aborted) return;
        // The batch rolled back with its checkpoint; resume from the last committed one after a pause.
        this.deps.logger.error({ err: error, projector: p.name }, 'projection batch failed; retrying');
        await new Promise((r) => setTimeout(r, 1000));
        cursor = await readCheckpoint(this.deps.pool, p.name).catch(() => cursor);
      }
    }
  }

  /** Resolves true once every named projector (all when empty) has passed `position`, false on timeout. */
  waitFor(position: Position, names: readonly string[] | undefined, timeoutMs: number): Promise<boolean> {
    const wanted = names && names.length > 0 ? names : this.projectors.map((p) => p.name);
    const passed = () => wanted.every((n) => (this.progress.get(n) ?? START) >= position);
    if (passed()) return Promise.resolve(true);
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

  async stop(): Promise<void> {
    this.controller.abort();
    await Promise.allSettled(this.running);
  }
}
