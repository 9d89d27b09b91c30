import {
  bootService,
  CheckpointProgress,
  platformMigrations,
  serviceHealth,
  servicePartnerApi,
  serviceShell,
  stopOnSignal,
} from '@mrn/platform';
import { queryMigrations } from './plugin.ts';
import { startQueryService } from './service.ts';

// A query-api process of its own (`npm run start:split`, docker-compose.yml): every query route, the
// partner API's OpenAPI document, /health and /ready (and the operations listener's /metrics).
const migrations = [...platformMigrations(), ...queryMigrations()];
const boot = await bootService('query-api', migrations);
const { config, logger, pool, store } = boot;
const app = await serviceShell(boot);
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
await servicePartnerApi(app, boot, service.partnerApi);
const ops = await serviceHealth(boot, app);
await app.listen({ port: config.PORT, host: config.HOST });
logger.info({ port: config.PORT }, 'query-api listening');
stopOnSignal(logger, async () => {
  await app.close();
  await ops.close();
  await service.stop();
  await boot.close();
});
