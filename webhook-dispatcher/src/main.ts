import {
  bootService,
  createMailer,
  installMetrics,
  platformMigrations,
  registerServiceHealth,
  stopOnSignal,
  systemClock,
} from '@mrn/platform';
import Fastify from 'fastify';
import { startDispatcher } from './dispatcher.ts';
import { startKafka } from './kafka.ts';
import { dispatcherMigrations } from './migrations.ts';

// The webhook dispatcher's process (`npm run start:split`, docker-compose.yml): reads the log (or Kafka
// with KAFKA_BROKERS), delivers webhooks and notification e-mails from its outbox. Two processes share
// the work: the intake's checkpoint and each delivery's claim are taken in PostgreSQL.
const migrations = [...platformMigrations(), ...dispatcherMigrations()];
const boot = await bootService('webhook-dispatcher', migrations);
const { config, logger, pool, store, metrics } = boot;
if (!config.SMTP_URL) throw new Error('webhook-dispatcher: SMTP_URL is required when run apart');
const mailer = createMailer(config.SMTP_URL, `${config.PRODUCT_NAME} <no-reply@merchantrisk.local>`);
const kafka = startKafka(config, { pool, store, logger });
const publicUrl = config.PUBLIC_URL ?? `http://localhost:${config.PORT}`;
const dispatcher = startDispatcher({
  pool,
  store,
  mailer,
  clock: systemClock,
  logger,
  publicUrl: () => publicUrl,
  allowLoopback: config.WEBHOOK_ALLOW_LOOPBACK,
  source: kafka.dispatcherSource,
});
metrics.trackOutboxDepth('webhook_deliveries', async () => {
  const { rows } = await pool.query<{ n: number }>(
    `select count(*)::int as n from webhook_deliveries where status in ('pending', 'failed')`,
  );
  return rows[0]!.n;
});
const app = Fastify({ logger: false });
installMetrics(app, metrics);
registerServiceHealth(app, { pool, migrations });
await app.listen({ port: config.PORT, host: config.HOST });
logger.info({ port: config.PORT }, 'webhook-dispatcher listening');
stopOnSignal(logger, async () => {
  await app.close();
  await dispatcher.stop();
  await kafka.stop();
  mailer.close();
  await boot.close();
});
