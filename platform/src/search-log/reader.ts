import type { EventData } from '@mrn/contracts';
import type { ConsumerLog } from '../consumer/consumer.ts';
import type { Pool, Queryable } from '../db.ts';
import { encodePosition } from '../event-store/position.ts';
import { type LogRead, PostgresLog, tailStatement } from '../event-store/postgres-log.ts';
import type { Position, RecordedEvent, SubscribeOptions } from '../event-store/types.ts';
import { SEARCH_LOG_CHANNEL } from './writer.ts';

const COLUMNS = `position, transaction_id, searched_at, search_id, account_id, user_id, source, term, ein_search,
    merchant_ids::text[] as merchant_ids, categories, hit, platform_admin`;

interface SearchRow {
  position: string;
  transaction_id: string;
  searched_at: Date;
  search_id: string;
  account_id: string;
  user_id: string;
  source: 'web' | 'api';
  term: string;
  ein_search: boolean;
  merchant_ids: string[];
  categories: (string | null)[] | null;
  hit: boolean;
  platform_admin: boolean;
}

/** A search of the log, as the projectors of searches are given it: a `MerchantSearched` fact. */
export type RecordedSearch = RecordedEvent<'MerchantSearched', EventData<'MerchantSearched'>>;

const toSearch = (row: SearchRow): RecordedSearch => ({
  id: row.search_id,
  streamId: `searches-${row.account_id}`,
  revision: 0n,
  position: encodePosition(row.transaction_id, row.position),
  type: 'MerchantSearched',
  data: {
    accountId: row.account_id,
    userId: row.user_id,
    source: row.source,
    term: row.term,
    einSearch: row.ein_search,
    merchantIds: row.merchant_ids,
    hit: row.hit,
    ...(row.categories ? { categories: row.categories } : {}),
    ...(row.platform_admin ? { platformAdmin: true } : {}),
  },
  metadata: { actorUserId: row.user_id, actorAccountId: row.account_id, source: row.source },
  recordedAt: row.searched_at,
});

/**
 * The search log (issue 31) read as a log: in
 * (transaction_id, position) order without gaps, to the horizon, woken by the writer's NOTIFY. Its rows
 * are typed by the table: they are given to the projectors as they are, not parsed again.
 */
export class SearchLog implements ConsumerLog {
  private readonly log: PostgresLog;

  constructor(
    private readonly pool: Pool,
    opts: { listenUrl?: string; pollIntervalMs?: number } = {},
  ) {
    this.log = new PostgresLog(
      pool,
      {
        name: 'mrn_read_searches',
        // Every row is a search: a typed read has nothing more to filter.
        read: (limit) => tailStatement('search_log', COLUMNS, limit),
        pending: `select exists (select 1 from search_log where (transaction_id, position) > ($1::text::xid8, $2::bigint)) as pending`,
      },
      (row) => toSearch(row as unknown as SearchRow),
      { channel: SEARCH_LOG_CHANNEL, ...opts },
    );
  }

  async readAll(
    opts: { fromPosition: Position; maxCount: number; types?: readonly string[] },
    via?: Queryable,
  ) {
    if (opts.types && !opts.types.includes('MerchantSearched')) return [];
    return (await this.log.readAfter({ fromPosition: opts.fromPosition, maxCount: opts.maxCount }, via))
      .events;
  }

  readAfter(opts: { fromPosition: Position; maxCount: number }): Promise<LogRead> {
    return this.log.readAfter(opts);
  }

  subscribeToAll(opts: SubscribeOptions): Promise<void> {
    const { types: _types, ...rest } = opts;
    return this.log.subscribe(rest);
  }

  /** How many searches the log holds (a rebuild's total, for its progress). */
  async count(): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>('select count(*) as n from search_log');
    return Number(rows[0]!.n);
  }

  close(): Promise<void> {
    return this.log.close();
  }
}
