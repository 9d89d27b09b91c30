import type { Pool } from '../db.ts';
import { START } from '../event-store/position.ts';
import type { EventStore, Position, RecordedEvent } from '../event-store/types.ts';
import type { Logger } from '../logger.ts';
import type { EventBusPublisher } from './port.ts';
import { isPublished } from './unpublished.ts';

/** The relay's row in `subscription_checkpoints`. */
export const RELAY_CHECKPOINT = 'kafka-relay';
const MAX_BACKOFF_MS = 30_000;

export interface EventRelayOptions {
  pool: Pool;
  store: EventStore;
  publisher: EventBusPublisher;
  logger: Logger;
  batchSize?: number;
}

/**
 * Publishes the log to the bus (DESIGN §4, Kafka), at least once: a batch is published, and only once
 * the broker has acknowledged it does the relay's checkpoint move past it. A crash in between publishes
 * the batch again on restart, so consumers drop duplicates by event id. Secret-bearing events are left
 * out (unpublished.ts) but still moved past.
 */
export class EventRelay {
  private readonly controller = new AbortController();
  private running: Promise<void> | undefined;

  constructor(private readonly opts: EventRelayOptions) {}

  start(): void {
    this.running ??= this.follow();
  }

  /** Stops following the log and closes the publisher it was given. */
  async stop(): Promise<void> {
    this.controller.abort();
    await this.running;
    await this.opts.publisher.close().catch(() => undefined);
  }

  async readCheckpoint(): Promise<Position> {
    const { rows } = await this.opts.pool.query<{ position: string }>(
      'select position from subscription_checkpoints where name = $1',
      [RELAY_CHECKPOINT],
    );
    return rows[0]?.position ?? START;
  }

  /** Publishes one batch of the log, then moves the checkpoint past it; returns how many were published. */
  async relay(events: readonly RecordedEvent[]): Promise<number> {
    const last = events[events.length - 1];
    if (!last) return 0;
    const published = events.filter((e) => isPublished(e.type));
    await untilAborted(this.opts.publisher.publish(published), this.controller.signal);
    // Never backwards: a second relay that lags behind (two servers) must not undo the first's progress.
    // Positions compare as strings (position.ts), byte by byte, hence the C collation.
    await this.opts.pool.query(
      `insert into subscription_checkpoints (name, position, updated_at) values ($1, $2, now())
       on conflict (name) do update set position = excluded.position, updated_at = now()
       where subscription_checkpoints.position collate "C" < excluded.position collate "C"`,
      [RELAY_CHECKPOINT, last.position],
    );
    return published.length;
  }

  /** For tests and tools: publishes everything from the checkpoint to the head of the log now. */
  async catchUp(): Promise<number> {
    let from = await this.readCheckpoint();
    let published = 0;
    for (;;) {
      const events = await this.opts.store.readAll({ fromPosition: from, maxCount: this.batchSize });
      const last = events[events.length - 1];
      if (!last) return published;
      published += await this.relay(events);
      from = last.position;
    }
  }

  private get batchSize(): number {
    return this.opts.batchSize ?? 500;
  }

  /** Catch up from the checkpoint, then follow the log; after a failure, read again from the checkpoint. */
  private async follow(): Promise<void> {
    const signal = this.controller.signal;
    let failures = 0;
    while (!signal.aborted) {
      try {
        await this.opts.store.subscribeToAll({
          fromPosition: await this.readCheckpoint(),
          signal,
          batchSize: this.batchSize,
          onBatch: async (events) => {
            await this.relay(events);
            failures = 0;
          },
        });
      } catch (err) {
        if (signal.aborted) break;
        failures++;
        // A broker that is down stays down for a while: back off instead of logging every second.
        const wait = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.min(failures - 1, 5));
        this.opts.logger.error({ err, retryInMs: wait }, 'kafka relay could not publish; retrying');
        await sleep(wait, signal);
      }
    }
  }
}

/**
 * A send to an unreachable broker takes kafkajs several seconds to give up; a stopping server does not
 * wait for it. The checkpoint is not moved, so the batch is published (again) by the next relay.
 */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.reject(new Error('relay stopped'));
  }
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(new Error('relay stopped'));
    signal.addEventListener('abort', stop, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
  });
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
