import {
  type EventData,
  EventParseError,
  identifiedMerchant,
  normaliseEin,
  parseEvent,
  searchWatchEnd,
  streams,
} from '@mrn/contracts';
import {
  type Clock,
  Consumer,
  type EventStore,
  type Logger,
  type Pool,
  type Position,
  type RecordedEvent,
} from '@mrn/platform';
import { type AccountEvent, type AccountState, accountDecider } from '../accounts/account.ts';
import { merchants, subscriptions } from '../aggregates.ts';

/** The reactor's row in `subscription_checkpoints`. */
export const SEARCH_WATCH_CHECKPOINT = 'search-watch';
/**
 * Under load the reactor reads the searches of the last 20 ms at once (one read of the log and of each
 * searching account's stream per batch, not per search); a watch starts at most that much later.
 */
const SEARCH_WATCH_BATCH_INTERVAL_MS = 20;

type Deps = {
  store: EventStore;
  pool: Pool;
  clock: Clock;
  logger: Logger;
  /** With a database URL, one process follows the log at a time, the others stand by (consumer.ts). */
  leaseUrl?: string;
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
 * The "watch merchants we search" process manager: follows the log and, for each search that
 * identified a merchant by an account whose setting was on at that moment, watches the merchant's EIN
 * until the search time plus the chosen months.
 *
 * Exactly once without a shared transaction: everything it decides is a function of the log up to the
 * search (the account folded as of the search's position, the end computed from its recorded time), and
 * the subscriptions decider writes only a watch that is new or longer. A search handled again after a
 * crash between the append and the checkpoint, or by two processes at once, writes nothing the second
 * time (optimistic concurrency makes the loser decide again on the winner's state).
 */
export class SearchWatchReactor {
  /**
   * The platform consumer (checkpoint, idle batches, backoff): a batch with no search only moves the
   * checkpoint. The watches are appended before the checkpoint moves (at least once, see above).
   */
  private readonly consumer: Consumer<number>;

  constructor(private readonly deps: Deps) {
    this.consumer = new Consumer<number>({
      name: SEARCH_WATCH_CHECKPOINT,
      store: deps.store,
      pool: deps.pool,
      logger: deps.logger,
      ...(deps.leaseUrl ? { leaseUrl: deps.leaseUrl } : {}),
      relevant: (type) => type === 'MerchantSearched',
      batchIntervalMs: SEARCH_WATCH_BATCH_INTERVAL_MS,
      beforeCommit: (searches) => this.watchAll(searches),
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

  /** For tests and tools: handle the log from the checkpoint to its head now. */
  runOnce(): Promise<number> {
    return this.consumer.runOnce();
  }

  /**
   * Handles one batch (the events after the checkpoint), then moves the checkpoint past it; returns how
   * many searches wrote a watch. Never moves back: events at or before the checkpoint are skipped.
   */
  applyBatch(events: RecordedEvent[]): Promise<number> {
    return this.consumer.applyBatch(events);
  }

  /** The searches of a batch, in the log's order; returns how many wrote a watch. */
  private async watchAll(searches: RecordedEvent[]): Promise<number> {
    const accountLogs = new Map<string, Promise<RecordedEvent[]>>();
    let watched = 0;
    for (const raw of searches) {
      const search = this.readSearch(raw);
      if (!search) continue;
      const { accountId } = search.data;
      if (!identifiedMerchant(search.data)) continue;
      if (!accountLogs.has(accountId)) accountLogs.set(accountId, this.accountLog(accountId));
      if (await this.watch(search, await accountLogs.get(accountId)!)) watched += 1;
    }
    return watched;
  }

  /**
   * A search the catalogue cannot read is skipped, logged: retrying would stop every later search from
   * being watched, and the projections quarantine (and report) the same event.
   */
  private readSearch(
    raw: RecordedEvent,
  ): RecordedEvent<'MerchantSearched', EventData<'MerchantSearched'>> | undefined {
    try {
      return parseEvent(raw) as RecordedEvent<'MerchantSearched', EventData<'MerchantSearched'>>;
    } catch (err) {
      if (!(err instanceof EventParseError)) throw err;
      this.deps.logger.error({ err, eventId: raw.id }, 'search watch reactor skipped an unreadable search');
      return undefined;
    }
  }

  private async accountLog(accountId: string): Promise<RecordedEvent[]> {
    const out: RecordedEvent[] = [];
    for await (const e of this.deps.store.readStream(streams.account(accountId))) out.push(parseEvent(e));
    return out;
  }

  private async watch(
    search: RecordedEvent<'MerchantSearched', EventData<'MerchantSearched'>>,
    accountLog: RecordedEvent[],
  ): Promise<boolean> {
    // The account as it stood when it searched: a setting switched on later does not reach back.
    const account = accountLog
      .filter((e) => e.position <= search.position)
      .reduce(
        (state, e) => accountDecider.evolve(state, e as unknown as AccountEvent),
        accountDecider.initialState(),
      );
    const months = watchMonthsOf(account);
    if (months === undefined) return false;
    const now = this.deps.clock.now();
    const watchUntil = searchWatchEnd(search.recordedAt, months);
    // A watch that would already have ended (the log read long after the search) is not started.
    if (watchUntil <= now) return false;
    const fein = await this.feinOf(search.data);
    if (!fein) return false;
    const result = await subscriptions.handle(
      this.deps,
      search.data.accountId,
      {
        type: 'WatchSearched',
        accountId: search.data.accountId,
        feins: [fein],
        watchUntil: watchUntil.toISOString(),
      },
      { now },
      {
        source: 'system',
        actorUserId: search.data.userId,
        actorAccountId: search.data.accountId,
        causationId: search.id,
        correlationId: search.metadata.correlationId ?? search.id,
      },
    );
    return result.events.length > 0;
  }

  /** An EIN search names its EIN; a keyword search's merchant is read from its own stream. */
  private async feinOf(search: EventData<'MerchantSearched'>): Promise<string | undefined> {
    if (search.einSearch) {
      const digits = normaliseEin(search.term);
      if (/^\d{9}$/.test(digits)) return digits;
    }
    const merchantId = identifiedMerchant(search);
    if (!merchantId) return undefined;
    const { state } = await merchants.load(this.deps.store, merchantId);
    return state.status === 'none' ? undefined : state.fein;
  }
}

/** Starts the reactor beside the command API (server/ runs it in the all-in-one process). */
export const runSearchWatchReactor = (deps: Deps): SearchWatchReactor => new SearchWatchReactor(deps).start();
