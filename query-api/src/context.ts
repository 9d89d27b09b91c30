import type { Config, EventStore, Logger, Pool, Position } from '@mrn/platform';
import type { FastifyInstance } from 'fastify';
import type { SearchRecorder } from './search/search-recorder.ts';

/** How a query learns that the read models have caught up with a client's last write. */
export interface Consistency {
  waitFor(position: Position, readModels: readonly string[], timeoutMs: number): Promise<boolean>;
  /** Among `readModels`, those still being built (not served yet). */
  building?(readModels: readonly string[]): Promise<readonly string[]>;
}

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
  consistency: Consistency;
}
