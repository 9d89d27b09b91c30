import {
  bootService,
  CheckpointProgress,
  createHttpShell,
  platformMigrations,
  registerServiceHealth,
  resolveJwtSecret,
  stopOnSignal,
} from '@mrn/platform';
import { queryMigrations } from './plugin.ts';
import { startQueryService } from './service.ts';

// A query-api process of its own (`npm run start:split`, docker-compose.yml): every query route, the
// partner API's OpenAPI document, /health, /ready and /metrics.
const migrations = [...platformMigrations(), ...queryMigrations()];
const boot = await bootService('query-api', migrations);
const { config, logger, pool, store } = boot;
const app = await createHttpShell({
  logger,
  pool,
  jwtSecret: resolveJwtSecret(config.JWT_SECRET, config.DATA_DIR),
  rateLimits: {
    perKeyPerMinute: config.RATE_LIMIT_API_PER_MINUTE,
    tokenPerMinute: config.RATE_LIMIT_TOKEN_PER_MINUTE,
  },
  // The same Content-Security-Policy as the rest of the product (the card form's token endpoint).
  billingTokenUrl: config.BILLING_TEST_URL ? new URL('/v1/tokens', config.BILLING_TEST_URL).toString() : null,
  metrics: boot.metrics,
  trustProxy: config.TRUST_PROXY,
});
const service = await startQueryService({
  app,
  pool,
  databaseUrl: boot.databaseUrl,
  store,
  config,
  logger,
  // X-Consistent-After: the projections process's checkpoints, woken by its notices.
  consistency: new CheckpointProgress(pool, boot.notifications),
});
registerServiceHealth(app, { pool, migrations });
await app.listen({ port: config.PORT, host: config.HOST });
logger.info({ port: config.PORT }, 'query-api listening');
stopOnSignal(logger, async () => {
  await app.close();
  await service.stop();
  await boot.close();
});
