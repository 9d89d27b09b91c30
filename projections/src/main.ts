import {
  bootService,
  installMetrics,
  type Probe,
  platformMigrations,
  registerServiceHealth,
  stopOnSignal,
} from '@mrn/platform';
import Fastify from 'fastify';
import { projectionMigrations } from './migrations.ts';
import { allProjectors } from './read-models/index.ts';
import { ProjectionRunner } from './runner.ts';

// The projections process (`npm run start:split`, docker-compose.yml): every projector, each applied
// only while this process holds its lease, so a second process is a standby that takes over within
// seconds of this one's death. HTTP only for /health, /ready (lag, halted projectors) and /metrics.
const migrations = [...platformMigrations(), ...projectionMigrations()];
const boot = await bootService('projections', migrations);
const { config, logger, pool, store, metrics } = boot;
const runner = new ProjectionRunner(
  {
    pool,
    store,
    logger,
    leaseUrl: boot.databaseUrl,
    onProgress: (last, atHead) => {
      for (const name of runner.applying)
        metrics.setProjectionLag(name, { newestAppliedAt: last.recordedAt, atHead });
    },
  },
  allProjectors,
);
await runner.start();

const projectionsProbe: Probe = {
  name: 'projections',
  async check() {
    const halted = runner.quarantined.map((q) => ({ name: q.projector, event: q.eventId, type: q.type }));
    // A standby holds no lease and is ready all the same: it is there to take over.
    return { ok: runner.isRunning && halted.length === 0, applying: runner.applying, halted };
  },
};
const app = Fastify({ logger: false });
installMetrics(app, metrics);
registerServiceHealth(app, { pool, migrations, ready: [projectionsProbe] });
await app.listen({ port: config.PORT, host: config.HOST });
logger.info({ port: config.PORT }, 'projections listening');
stopOnSignal(logger, async () => {
  await app.close();
  await runner.stop();
  await boot.close();
});
