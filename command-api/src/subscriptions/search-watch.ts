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
  type EventStore,
  followLog,
  type Logger,
  type Pool,
  type Position,
  type RecordedEvent,
  START,
} from '@mrn/platform';
import { merchants, subscriptions } from '../aggregates.ts';
import { type AccountEvent, type AccountState, accountDecider } from '../domain/account/account.ts';

/** The reactor's row in `subscription_checkpoints`. */
export const SEARCH_WATCH_CHECKPOINT = 'search-watch';
/** A batch with no search still moves the checkpoint, but at most this often (as the dispatcher does). */
const IDLE_CHECKPOINT_MS = 5_000;

type Deps = { store: EventStore; pool: Pool; clock: Clock; logger: Logger };

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
  private readonly controller = new AbortController();
  private running: Promise<void> | undefined;
  private lastCheckpointWrite = 0;

  constructor(private readonly deps: Deps) {}

  start(): this {
    this.running ??= this.tail();
    return this;
  }

  async stop(): Promise<void> {
    this.controller.abort();
    await this.running;
  }

  async readCheckpoint(): Promise<Position> {
    const { rows } = await this.deps.pool.query<{ position: string }>(
      'select position from subscription_checkpoints where name = $1',
      [SEARCH_WATCH_CHECKPOINT],
    );
    return rows[0]?.position ?? START;
  }

  /** For tests and tools: handle the log from the checkpoint to its head now. */
  async runOnce(): Promise<number> {
    let from = await this.readCheckpoint();
    let watched = 0;
    for (;;) {
      const events = await this.deps.store.readAll({ fromPosition: from, maxCount: 1000 });
      const last = events[events.length - 1];
      if (!last) return watched;
      watched += await this.applyBatch(events, true);
      from = last.position;
    }
  }

  /** Handles one batch, then moves the checkpoint past it; returns how many searches wrote a watch. */
  async applyBatch(events: RecordedEvent[], force = false): Promise<number> {
    const last = events[events.length - 1];
    if (!last) return 0;
    const searches = events.filter((e) => e.type === 'MerchantSearched');
    if (searches.length === 0 && !force && Date.now() - this.lastCheckpointWrite < IDLE_CHECKPOINT_MS)
      return 0;
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
    // Never moves back: a slower process finishing an older batch leaves a newer checkpoint alone.
    await this.deps.pool.query(
      `insert into subscription_checkpoints (name, position, updated_at) values ($1, $2, now())
       on conflict (name) do update set position = excluded.position, updated_at = now()
        where subscription_checkpoints.position collate "C" < excluded.position collate "C"`,
      [SEARCH_WATCH_CHECKPOINT, last.position],
    );
    this.lastCheckpointWrite = Date.now();
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

  /** Catch up from the checkpoint, then follow the log; a failed batch is read again after a pause. */
  private async tail(): Promise<void> {
    const signal = this.controller.signal;
    while (!signal.aborted) {
      try {
        await followLog({
          store: this.deps.store,
          signal,
          readCheckpoint: () => this.readCheckpoint(),
          onBatch: async (events, endOfCatchUp) => {
            await this.applyBatch(events, endOfCatchUp);
          },
        });
      } catch (err) {
        if (signal.aborted) return;
        this.deps.logger.error({ err }, 'search watch reactor batch failed; retrying');
        await new Promise((resolve) => setTimeout(resolve, 1000).unref());
      }
    }
  }
}

/** Starts the reactor beside the command API (server/ runs it in the all-in-one process). */
export const runSearchWatchReactor = (deps: Deps): SearchWatchReactor => new SearchWatchReactor(deps).start();
