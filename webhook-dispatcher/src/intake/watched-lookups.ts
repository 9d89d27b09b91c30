import {
  advanceCheckpoint,
  type Clock,
  Consumer,
  FeedLog,
  LeaseLost,
  type Logger,
  type PgNotifications,
  type Pool,
  type PoolClient,
  type Position,
  type RecordedEvent,
  readCheckpoint,
  readCheckpointStates,
  START,
} from '@mrn/platform';
import { CHECKPOINT_NAME, LOOKUPS_CHECKPOINT } from '../checkpoint.ts';
import { judgeLookup, lockShoppedJudgements, type WatchedLookup } from './shopped-alerts.ts';
import { sendShoppedAlerts } from './shopped-notifications.ts';

/** The projector that writes the feed: its checkpoint is where the feed is complete (the reader's horizon). */
export const LOOKUPS_FEED_WRITER = 'search_feeds';

/** The feed after a position, in its order (the primary key's). */
const READ = `select position, search_id, searched_at, merchant_id, account_id
    from read.watched_lookups where position > $1 order by position limit $2`;

interface LookupRow {
  position: string;
  search_id: string;
  searched_at: Date;
  merchant_id: string;
  account_id: string;
}

/** A row of the feed as the consumer is given it: its position the row's, its id the search's. */
const toEvent = (r: LookupRow): RecordedEvent<'WatchedLookup', WatchedLookup> => ({
  id: r.search_id,
  streamId: `searches-${r.account_id}`,
  revision: 0n,
  position: r.position,
  type: 'WatchedLookup',
  data: {
    position: r.position,
    searchId: r.search_id,
    at: r.searched_at,
    merchantId: r.merchant_id,
    accountId: r.account_id,
  },
  metadata: {},
  recordedAt: r.searched_at,
});

export interface WatchedLookupsOptions {
  pool: Pool;
  clock: Clock;
  logger: Logger;
  publicUrl: string | (() => string);
  /** With a database URL, one process reads the feed at a time (its own lease), the others stand by. */
  leaseUrl?: string;
  /** This process's LISTEN connection: projections' progress notices wake the reader at once. */
  notifications?: PgNotifications;
  /** After a transaction wrote outbox rows: the delivery loop wakes. */
  onEnqueued(count: number): void;
}

/**
 * The being-shopped alerts' reader of look-ups (issue 31): the dispatcher reads no search. It follows
 * projections' feed of look-ups of watched merchants (read.watched_lookups) with a checkpoint of its own
 * (`webhook-lookups`), as the platform `Consumer` over the feed read as a log (`FeedLog`): each batch's
 * judgements, outbox rows and the checkpoint in one transaction, the checkpoint moved fenced
 * (`advanceCheckpoint`), so a look-up is judged exactly once, even with two dispatchers; the lease, the
 * retries with backoff and the isolation of a failing row are the consumer's. Woken by projections'
 * progress notices that name the feed's writer, by a nudge, or at the poll (a second). A rebuild of the
 * feed writes rows again at positions already passed: they are never read again.
 */
export class WatchedLookupsReader {
  private readonly consumer: Consumer;

  constructor(private readonly opts: WatchedLookupsOptions) {
    this.consumer = new Consumer({
      name: LOOKUPS_CHECKPOINT,
      store: new FeedLog<LookupRow>({
        pool: opts.pool,
        read: async (from, max) =>
          (
            await opts.pool.query<LookupRow>({
              name: 'mrn_webhook_watched_lookups',
              text: READ,
              values: [from, max],
            })
          ).rows,
        toEvent,
        writer: LOOKUPS_FEED_WRITER,
        ...(opts.notifications ? { notifications: opts.notifications } : {}),
      }),
      pool: opts.pool,
      logger: opts.logger,
      ...(opts.leaseUrl ? { leaseUrl: opts.leaseUrl } : {}),
      handle: (tx, lookups) => this.judgeAll(tx, lookups),
      afterCommit: (enqueued) => {
        if (enqueued > 0) opts.onEnqueued(enqueued);
      },
    });
  }

  readCheckpoint(): Promise<Position> {
    return this.consumer.readCheckpoint();
  }

  /** Reads the feed from the checkpoint to its end now; returns the outbox rows written. */
  pump(): Promise<number> {
    return this.consumer.runOnce();
  }

  /** Follows the feed (holding its lease, with `leaseUrl`) until `signal` aborts. */
  follow(signal: AbortSignal): Promise<void> {
    return this.consumer.run(signal);
  }

  /**
   * A batch of look-ups in the feed's order, inside the transaction that moves the checkpoint past them:
   * the judgements' lock first (the intake's threshold changes and watch starts wait, shopped-alerts.ts),
   * then each look-up judged for every watcher of its merchant and its alerts enqueued.
   */
  private async judgeAll(tx: PoolClient, lookups: RecordedEvent[]): Promise<number> {
    await lockShoppedJudgements(tx);
    const { publicUrl } = this.opts;
    const ctx = {
      publicUrl: typeof publicUrl === 'function' ? publicUrl() : publicUrl,
      now: this.opts.clock.now(),
    };
    let enqueued = 0;
    for (const e of lookups) {
      const alerts = await judgeLookup(tx, e.data as WatchedLookup);
      enqueued += await sendShoppedAlerts(tx, alerts, e, ctx);
    }
    return enqueued;
  }
}

/**
 * Where the reader starts, the first time it runs (no checkpoint of its own yet): where the intake is. The
 * intake judged the searches itself while they were events of its log (before issue 31), up to its
 * checkpoint; the feed is built from the whole search log, and its older rows were judged then. Run
 * before the intake moves (the dispatcher's start). A fresh network starts both at the beginning.
 */
export async function startLookupsAtIntake(pool: Pool): Promise<void> {
  const own = await readCheckpointStates(pool, [LOOKUPS_CHECKPOINT]);
  if (own.has(LOOKUPS_CHECKPOINT)) return;
  const intake = await readCheckpoint(pool, CHECKPOINT_NAME);
  try {
    // Fenced: another dispatcher starting at once writes it once.
    await advanceCheckpoint(pool, LOOKUPS_CHECKPOINT, START, intake);
  } catch (err) {
    if (!(err instanceof LeaseLost)) throw err;
  }
}
