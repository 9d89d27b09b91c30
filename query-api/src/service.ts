import {
  type Config,
  createPool,
  type EventStore,
  type Logger,
  type PartnerApiMount,
  type Pool,
  type ReadModelProgress,
  SearchLogWriter,
} from '@mrn/platform';
import type { FastifyInstance } from 'fastify';
import { registerOpenApiDocument } from './partner-api/openapi.ts';
import { registerQueryApi } from './plugin.ts';
import { ScreeningWorker } from './screenings/screening-worker.ts';
import { SearchRecorder } from './search/search-recorder.ts';

export interface QueryService {
  searches: SearchRecorder;
  /** The partner API's queries, to mount in the /api/v2 plugin (`registerPartnerApi`). */
  partnerApi: PartnerApiMount;
  stop(): Promise<void>;
}

/**
 * The query service on an HTTP shell: every query route (X-Consistent-After waits on `consistency`: the
 * projections runner in the all-in-one process, the checkpoints in PostgreSQL when run apart) and the
 * partner API's OpenAPI document.
 */
export async function startQueryService(deps: {
  app: FastifyInstance;
  pool: Pool;
  databaseUrl: string;
  store: EventStore;
  config: Config;
  logger: Logger;
  consistency: ReadModelProgress;
  /** `partner`: only the partner API, and no OpenAPI document (the sandbox). */
  only?: 'all' | 'partner';
  /** The search facts' pool size (the sandbox's traffic is small). */
  searchConnections?: number;
}): Promise<QueryService> {
  // Search facts are many and individually cheap: their own small pool commits asynchronously.
  const searchPool = createPool(deps.databaseUrl, deps.searchConnections ?? 4, { asynchronousCommit: true });
  const searches = new SearchRecorder(new SearchLogWriter(searchPool));
  const lookups = createPool(deps.databaseUrl, deps.searchConnections ? deps.searchConnections + 2 : 6, {
    genericPlans: true,
  });
  const partnerApi = registerQueryApi({ ...deps, lookups, searches }, deps.only);
  // Screenings asked for on the command side, screened in the background (one intake at a time across
  // processes, by its lease; every process's runner takes screenings no live runner holds).
  const screenings = new ScreeningWorker({
    pool: deps.pool,
    store: deps.store,
    logger: deps.logger,
    leaseUrl: deps.databaseUrl,
  }).start();
  if (deps.only !== 'partner')
    registerOpenApiDocument(deps.app, {
      productName: deps.config.PRODUCT_NAME,
      // PUBLIC_URL only: without it the document's addresses are relative, never this machine's.
      publicUrl: deps.config.PUBLIC_URL,
      rateLimits: {
        perApiKeyPerMinute: deps.config.RATE_LIMIT_API_PER_MINUTE,
        tokenPerMinute: deps.config.RATE_LIMIT_TOKEN_PER_MINUTE,
      },
    });
  return {
    searches,
    partnerApi,
    async stop() {
      await screenings.stop();
      await searches.flush();
      await searchPool.end();
      await lookups.end();
    },
  };
}
