import type { Config, EventStore, Logger, Pool, ReadModelProgress } from '@mrn/platform';
import type { FastifyInstance } from 'fastify';
import type { SearchRecorder } from './search/search-recorder.ts';

export interface QueryDeps {
  pool: Pool;
  /**
   * The search statements (named, their best plan the same for any term): planned once per
   * connection. With the default plan choice Postgres re-planned the keyword scan on every search,
   * since a generic range over words looked costlier than the one for the word at hand.
   */
  lookups: Pool;
  /** Only for reading a merchant's history (the audit replay). */
  store: EventStore;
  searches: SearchRecorder;
  config: Config;
  logger: Logger;
  app: FastifyInstance;
  /** How a query learns that the read models have caught up with a client's last write. */
  consistency: ReadModelProgress;
}
