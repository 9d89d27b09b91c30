import { EventEmitter } from 'node:events';
import type { Pool } from '../db.ts';
import type { Position, RecordedEvent, SubscribeOptions } from '../event-store/types.ts';
import { sleepUnlessAborted } from '../runtime/sleep.ts';
import { PROGRESS_CHANNEL, parseProgressNotice, readCheckpoint } from './checkpoints.ts';
import type { ConsumerLog } from './consumer.ts';
import type { PgNotifications } from './notifications.ts';

/** How often a feed is read when no progress notice wakes it (notices lost, or no LISTEN). */
export const FEED_POLL_MS = 1000;

export interface FeedLogOptions<Row> {
  pool: Pool;
  /**
   * The feed's rows after `from` (a position token), in position order, at most `max`: the reading
   * package's statement, sent by its own code (the table-ownership checks, static and at run time, see
   * it as the reader's; the feed is published to it).
   */
  read(from: Position, max: number): Promise<Row[]>;
  /** A row as the consumer is given it: an event whose `position` is the row's. */
  toEvent(row: Row): RecordedEvent;
  /**
   * The consumer (checkpoint name) that writes the feed, one committed batch at a time in position
   * order. Its checkpoint is the feed's horizon: every row at or before it is written, so a reader that
   * read everything before it stands there (its checkpoint moves with no row of its own).
   */
  writer: string;
  /** Progress notices naming `writer` among those that applied something wake the reader at once. */
  notifications?: PgNotifications;
  pollIntervalMs?: number;
}

/**
 * A table fed by one writer in position order (issue 31: projections' feeds of the search log), read as
 * a log by the platform `Consumer` (`ConsumerLog`): the consumer keeps its checkpoint, lease, fence,
 * retries and isolation, and is given the rows after its checkpoint batch by batch. Rows written again
 * with positions already passed (a rebuild of the feed) are never given again: reads start after the
 * checkpoint. Woken by the writer's progress notices, by a nudge, or at the poll interval.
 */
export class FeedLog<Row extends { position: string }> implements ConsumerLog {
  constructor(private readonly opts: FeedLogOptions<Row>) {}

  async readAll(opts: { fromPosition: Position; maxCount: number }): Promise<RecordedEvent[]> {
    const rows = await this.opts.read(opts.fromPosition, Math.max(1, Math.floor(opts.maxCount)));
    return rows.map((r) => this.opts.toEvent(r));
  }

  /** Where the feed is complete: its writer's checkpoint (a follower's is its group's). */
  horizon(): Promise<Position> {
    return readCheckpoint(this.opts.pool, this.opts.writer);
  }

  async subscribeToAll(opts: SubscribeOptions): Promise<void> {
    const batchSize = opts.batchSize ?? 1000;
    const pollMs = this.opts.pollIntervalMs ?? FEED_POLL_MS;
    const wake = new EventEmitter();
    let wakes = 0;
    const woken = () => {
      wakes++;
      wake.emit('wake');
    };
    const stopListening = await this.opts.notifications?.on(PROGRESS_CHANNEL, (payload) => {
      if (parseProgressNotice(payload)?.a.includes(this.opts.writer)) woken();
    });
    opts.nudges?.on('nudge', woken);
    let cursor = opts.fromPosition;
    try {
      while (!opts.signal.aborted) {
        wakes = 0;
        // Read before the rows: every row at or before it is visible to the read that follows.
        const horizon = await this.horizon();
        const events = await this.readAll({ fromPosition: cursor, maxCount: batchSize });
        if (events.length > 0) {
          await opts.onBatch(events);
          cursor = events[events.length - 1]!.position;
        }
        if (events.length === batchSize) continue;
        // Nothing written is left unread up to the horizon (a feed being written again lies behind it).
        if (horizon > cursor) cursor = horizon;
        await opts.onCaughtUp?.(cursor);
        if (wakes > 0) continue;
        await sleepUnlessAborted(pollMs, opts.signal, { emitter: wake, events: ['wake'] });
      }
    } finally {
      stopListening?.();
      opts.nudges?.off('nudge', woken);
    }
  }
}
