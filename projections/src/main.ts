import {
  bootService,
  platformMigrations,
  SearchLog,
  serviceHealth,
  serviceShell,
  stopOnSignal,
} from '@mrn/platform';
import { projectionsProbe } from './health.ts';
import { projectionMigrations } from './migrations.ts';
import { allProjectors } from './read-models/index.ts';
import { ProjectionRunner } from './runner.ts';

// The projections process (`npm run start:split`, docker-compose.yml): every projector, each applied
// only while this process holds its lease, so a second process is a standby that takes over within
// seconds of this one's death. HTTP only for /health and /ready (and the operations listener's /metrics,
// lag and halted projectors in detail).
const migrations = [...platformMigrations(), ...projectionMigrations()];
const boot = await bootService('projections', migrations);
const { config, logger, pool, store, metrics } = boot;
const searchLog = new SearchLog(pool, { listenUrl: boot.databaseUrl });
const runner = new ProjectionRunner(
  {
    pool,
    store,
    searches: searchLog,
    logger,
    leaseUrl: boot.databaseUrl,
    // Query processes waiting for a position ask this one's readers to read now.
    notifications: boot.notifications,
    onProgress: (last, atHead) => {
      for (const name of runner.applying)
        metrics.setProjectionLag(name, { newestAppliedAt: last.recordedAt, atHead });
    },
  },
  allProjectors,
);
await runner.start();

// The shell every service runs in (error answers, security headers, request timing), with no route of
// the route table: /health and /ready only.
const app = await serviceShell(boot, null);
const ops = await serviceHealth(boot, app, { live: [projectionsProbe(runner, store)] });
await app.listen({ port: config.PORT, host: config.HOST });
logger.info({ port: config.PORT }, 'projections listening');
stopOnSignal(logger, async () => {
  await app.close();
  await ops.close();
  await runner.stop();
  await searchLog.close();
  await boot.close();
});
