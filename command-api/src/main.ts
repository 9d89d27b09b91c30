import {
  bootService,
  CheckpointProgress,
  createMailer,
  platformMigrations,
  serviceHealth,
  servicePartnerApi,
  serviceShell,
  stopOnSignal,
  systemClock,
} from '@mrn/platform';
import { connectBilling } from './billing/connect.ts';
import { commandMigrations } from './plugin.ts';
import { startCommandService } from './service.ts';

// A command-api process of its own (`npm run start:split`, docker-compose.yml): every command route,
// its consumers, /health and /ready (and the operations listener's /metrics).
const migrations = [...platformMigrations(), ...commandMigrations()];
const boot = await bootService('command-api', migrations);
const { config, logger, pool, store } = boot;
if (!config.SMTP_URL) throw new Error('command-api: SMTP_URL is required when run apart');
const billing = connectBilling(config, logger);
const app = await serviceShell(boot, billing.tokenUrl);
const mailer = createMailer(config.SMTP_URL, `${config.PRODUCT_NAME} <no-reply@merchantrisk.local>`);
const service = startCommandService({
  app,
  pool,
  store,
  config,
  logger,
  mailer,
  publicUrl: config.PUBLIC_URL ?? `http://localhost:${config.PORT}`,
  clock: systemClock,
  billing,
  // Work after a command that reads a read model waits for the projections process, through PostgreSQL.
  readModels: new CheckpointProgress(pool, boot.notifications),
  leaseUrl: boot.databaseUrl,
  notifications: boot.notifications,
});
boot.metrics.trackOutboxDepth('mail_outbox', async () => {
  const { rows } = await pool.query<{ n: number }>(
    'select count(*)::int as n from mail_outbox where sent_at is null and failed_at is null',
  );
  return rows[0]!.n;
});
await servicePartnerApi(app, boot, service.partnerApi);
const ops = await serviceHealth(boot, app);
await app.listen({ port: config.PORT, host: config.HOST });
logger.info({ port: config.PORT }, 'command-api listening');
stopOnSignal(logger, async () => {
  await app.close();
  await ops.close();
  await service.stop();
  mailer.close();
  await boot.close();
});
