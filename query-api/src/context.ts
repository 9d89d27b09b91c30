import type { Config, EventStore, Logger, Pool, Position } from '@mrn/platform';
import type { FastifyInstance } from 'fastify';

/** How a query learns that the read models have caught up with a client's last write. */
export interface Consistency {
  waitFor(position: Position, readModels: readonly string[] | undefined, timeoutMs: number): Promise<boolean>;
}

export interface QueryDeps {
  pool: Pool;
  /** Only for recording searches and reading a merchant's history. */
  store: EventStore;
  config: Config;
  logger: Logger;
  app: FastifyInstance;
  consistency: Consistency;
}
