import { parseEvent, searchWatchEnd, streams } from '@mrn/contracts';
import {
  type Clock,
  Consumer,
  type EventStore,
  FeedLog,
  type Logger,
  type PgNotifications,
  type Pool,
  type Position,
  type RecordedEvent,
} from '@mrn/platform';
import { type AccountEvent, type AccountState, accountDecider } from '../accounts/account.ts';
import { subscriptions } from './aggregate.ts';

/** The reactor's row in `subscription_checkpoints`: a position of the search log (issue 31). */
export const SEARCH_WATCH_CHECKPOINT = 'search-watch';
/**
 * Under load the reactor reads the candidates of the last 20 ms at once (one read of each searching
 * account's stream per batch, not per search); a watch starts at most that much later.
 */
const SEARCH_WATCH_BATCH_INTERVAL_MS = 20;
/** The projector that writes the feed: its checkpoint is where the feed is complete (the reader's horizon). */
export const SEARCH_WATCH_FEED_WRITER = 'search_feeds';

/** The feed after a position, in its order (the primary key's). */
const READ = `select position, search_id, searched_at, account_id, user_id, merchant_id, fein
    from read.search_watch_candidates where position > $1 order by position limit $2`;

interface CandidateRow {
  position: string;
  search_id: string;
  searched_at: Date;
  account_id: string;
  user_id: string;
  merchant_id: string;
  fein: string;
}

/** A merchant a search identified, of an account that watched what it searched when the feed read it. */
export interface SearchWatchCandidate {
  searchId: string;
  accountId: string;
  userId: string;
  merchantId: string;
  fein: string;
}

type CandidateEvent = RecordedEvent<'SearchWatchCandidate', SearchWatchCandidate>;

/** A row of the feed as the consumer is given it: its position and time the search's, its id the search's. */
const toEvent = (r: CandidateRow): CandidateEvent => ({
  id: r.search_id,
  streamId: `searches-${r.account_id}`,
  revision: 0n,
  position: r.position,
  type: 'SearchWatchCandidate',
  data: {
    searchId: r.search_id,
    accountId: r.account_id,
    userId: r.user_id,
    merchantId: r.merchant_id,
    fein: r.fein,
  },
  metadata: { actorUserId: r.user_id, actorAccountId: r.account_id },
  recordedAt: r.searched_at,
});

type Deps = {
  store: EventStore;
  pool: Pool;
  clock: Clock;
  logger: Logger;
  /** With a database URL, one process follows the feed at a time, the others stand by (consumer.ts). */
  leaseUrl?: string;
  /** This process's LISTEN connection: projections' progress notices wake the reactor at once. */
  notifications?: PgNotifications;
};

/**
 * Whether the account, as it stood when it searched, watches what it searches: the setting on, PRO, and
 * merchant subscriptions enabled. Returns the months to watch for, or undefined.
 */
export function watchMonthsOf(account: AccountState): number | undefined {
  if (account.status !== 'open') return undefined;
  if (account.planLevel !== 'PRO' || !account.merchantSubscriptionEnabled) return undefined;
  return account.watchSearchedMerchants ? account.watchSearchedMonths : undefined;
}

/**
 * The "watch merchants we search" process manager: for each search that identified a merchant by an
 * account whose setting was on at that moment, watches the merchant's EIN until the search time plus the
 * chosen months. It reads no search (issue 31): it follows projections' feed of candidates
 * (read.search_watch_candidates: the merchants identified by the searches of accounts whose setting was
 * on when the feed read them), as the platform `Consumer` over the feed read as a log (`FeedLog`), with
 * its checkpoint (a position of the search log), lease, retries and backoff; woken by projections'
 * progress notices that name the feed's writer, or at the poll (a second). A feed rebuilt writes rows
 * again at positions already passed: they are never read again.
 *
 * Exactly once without a shared transaction: everything it decides is a function of the log up to the
 * search (the account folded as of the search's position, the end computed from its recorded time), and
 * the subscriptions decider writes only a watch that is new or longer. A candidate handled again after a
 * crash between the append and the checkpoint, or by two processes at once, writes nothing the second
 * time (optimistic concurrency makes the loser decide again on the winner's state).
 */
export class SearchWatchReactor {
  /**
   * The platform consumer (checkpoint, lease, backoff) over the feed. The watches are appended before
   * the checkpoint moves (at least once, see above).
   */
  private readonly consumer: Consumer<number>;

  constructor(private readonly deps: Deps) {
    this.consumer = new Consumer<number>({
      name: SEARCH_WATCH_CHECKPOINT,
      store: new FeedLog<CandidateRow>({
        pool: deps.pool,
        read: async (from, max) =>
          (
            await deps.pool.query<CandidateRow>({
              name: 'mrn_search_watch_candidates',
              text: READ,
              values: [from, max],
            })
          ).rows,
        toEvent,
        writer: SEARCH_WATCH_FEED_WRITER,
        ...(deps.notifications ? { notifications: deps.notifications } : {}),
      }),
      pool: deps.pool,
      logger: deps.logger,
      ...(deps.leaseUrl ? { leaseUrl: deps.leaseUrl } : {}),
      batchIntervalMs: SEARCH_WATCH_BATCH_INTERVAL_MS,
      beforeCommit: (candidates) => this.watchAll(candidates as CandidateEvent[]),
    });
  }

  start(): this {
    this.consumer.start();
    return this;
  }

  stop(): Promise<void> {
    return this.consumer.stop();
  }

  readCheckpoint(): Promise<Position> {
    return this.consumer.readCheckpoint();
  }

  /** For tests and tools: handle the feed from the checkpoint to its end now. */
  runOnce(): Promise<number> {
    return this.consumer.runOnce();
  }

  /** The candidates of a batch, in the feed's order; returns how many wrote a watch. */
  private async watchAll(candidates: CandidateEvent[]): Promise<number> {
    const accountLogs = new Map<string, Promise<RecordedEvent[]>>();
    let watched = 0;
    for (const candidate of candidates) {
      const { accountId } = candidate.data;
      if (!accountLogs.has(accountId)) accountLogs.set(accountId, this.accountLog(accountId));
      if (await this.watch(candidate, await accountLogs.get(accountId)!)) watched += 1;
    }
    return watched;
  }

  private async accountLog(accountId: string): Promise<RecordedEvent[]> {
    const out: RecordedEvent[] = [];
    for await (const e of this.deps.store.readStream(streams.account(accountId))) out.push(parseEvent(e));
    return out;
  }

  private async watch(candidate: CandidateEvent, accountLog: RecordedEvent[]): Promise<boolean> {
    // The account as it stood when it searched: a setting switched on later does not reach back. The
    // search log's positions compare with the event log's.
    const account = accountLog
      .filter((e) => e.position <= candidate.position)
      .reduce(
        (state, e) => accountDecider.evolve(state, e as unknown as AccountEvent),
        accountDecider.initialState(),
      );
    const months = watchMonthsOf(account);
    if (months === undefined) return false;
    const now = this.deps.clock.now();
    const watchUntil = searchWatchEnd(candidate.recordedAt, months);
    // A watch that would already have ended (the feed read long after the search) is not started.
    if (watchUntil <= now) return false;
    const { accountId, userId, fein, searchId } = candidate.data;
    const result = await subscriptions.handle(
      this.deps,
      accountId,
      { type: 'WatchSearched', accountId, feins: [fein], watchUntil: watchUntil.toISOString() },
      { now },
      {
        source: 'system',
        actorUserId: userId,
        actorAccountId: accountId,
        causationId: searchId,
        correlationId: searchId,
      },
    );
    return result.events.length > 0;
  }
}

/** Starts the reactor beside the command API (server/ runs it in the all-in-one process). */
export const runSearchWatchReactor = (deps: Deps): SearchWatchReactor => new SearchWatchReactor(deps).start();
