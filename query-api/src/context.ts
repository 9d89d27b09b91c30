import type { Config, Logger, Pool, Position } from '@mrn/platform';
import type { FastifyInstance } from 'fastify';

/** How a query learns that the read models have caught up with a client's last write. */
export interface Consistency {
  waitFor(position: Position, readModels: readonly string[] | undefined, timeoutMs: number): Promise<boolean>;
}

export interface QueryDeps {
  pool: Pool;
  config: Config;
  logger: Logger;
  app: FastifyInstance;
  consistency: Consistency;
}
