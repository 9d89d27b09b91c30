import type { EventData } from '@mrn/contracts';
import type { Pool } from '../db.ts';
import { encodePosition } from '../event-store/position.ts';
import { LogAnnouncer } from '../event-store/postgres-log.ts';
import type { Position } from '../event-store/types.ts';
import { newId } from '../ids.ts';

/** Where the search log's followers are woken (`SearchLog` listens). */
export const SEARCH_LOG_CHANNEL = 'mrn_searches';

/**
 * An array as PostgreSQL reads it in text (`{"a b",NULL}`): the searches' array columns go as one text[]
 * of such literals, each cast in the statement (unnest cannot give rows arrays of different lengths).
 */
export const arrayLiteral = (values: readonly (string | null)[]): string =>
  `{${values.map((v) => (v === null ? 'NULL' : `"${v.replace(/["\\]/g, '\\$&')}"`)).join(',')}}`;

const INSERT = `insert into search_log (search_id, account_id, user_id, source, term, ein_search, merchant_ids, categories, hit, platform_admin, searched_at)
  select s.id, s.account, s.usr, s.source, s.term, s.ein, s.merchants::uuid[], s.categories::text[], s.hit, s.admin, coalesce(s.at, now())
    from unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::boolean[], $7::text[], $8::text[], $9::boolean[], $10::boolean[], $11::timestamptz[])
      as s(id, account, usr, source, term, ein, merchants, categories, hit, admin, at)
  returning search_id, transaction_id::text as tx, position`;

/** A search to record; `at`: when it was made, for seeding and tests (live searches take the database's time). */
export type SearchToRecord = EventData<'MerchantSearched'> & { at?: Date };

/**
 * The search log's writer (query-api's search recorder uses it): a batch of searches in one statement, typed
 * columns, no JSON. The pool it is given commits asynchronously: a crash may lose the last fraction of a
 * second of searches, never a command (README, "Searches").
 */
export class SearchLogWriter {
  private readonly announcer: LogAnnouncer;

  constructor(private readonly pool: Pool) {
    this.announcer = new LogAnnouncer(pool, SEARCH_LOG_CHANNEL);
  }

  /** Records the searches in one statement; each one's position, in the order given. */
  async append(searches: readonly SearchToRecord[]): Promise<Position[]> {
    const ids = searches.map(() => newId());
    const { rows } = await this.pool.query<{ search_id: string; tx: string; position: string }>({
      name: 'mrn_record_searches',
      text: INSERT,
      values: [
        ids,
        searches.map((s) => s.accountId),
        searches.map((s) => s.userId),
        searches.map((s) => s.source),
        searches.map((s) => s.term),
        searches.map((s) => s.einSearch),
        searches.map((s) => arrayLiteral(s.merchantIds)),
        searches.map((s) => (s.categories ? arrayLiteral(s.categories) : null)),
        searches.map((s) => s.hit),
        searches.map((s) => s.platformAdmin ?? false),
        searches.map((s) => s.at ?? null),
      ],
    });
    this.announcer.announce(['MerchantSearched']);
    const at = new Map(rows.map((r) => [r.search_id, encodePosition(r.tx, r.position)]));
    return ids.map((id) => at.get(id)!);
  }
}
