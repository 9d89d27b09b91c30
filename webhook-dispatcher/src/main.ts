import {
  bootService,
  createMailer,
  platformMigrations,
  serviceHealth,
  serviceShell,
  stopOnSignal,
  systemClock,
} from '@mrn/platform';
import { startDispatcher } from './dispatcher.ts';
import { registerWebhookApi } from './http/webhook-api.ts';
import { startKafka } from './kafka/kafka.ts';
import { dispatcherMigrations } from './migrations.ts';

// The webhook dispatcher's process (`npm run start:split`, docker-compose.yml): reads the log (or Kafka
// with KAFKA_BROKERS) while it holds the intake's lease, and projections' feed of look-ups of watched
// merchants while it holds the look-ups reader's (woken by projections' progress notices), delivers webhooks and notification e-mails from
// its outbox (deliveries are shared by every dispatcher process, each row claimed in PostgreSQL), and
// serves its own routes: the webhook log and the signing secret's rotation.
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
  leaseUrl: boot.databaseUrl,
  notifications: boot.notifications,
  onDelivered: (outcome, seconds, fromEvent) => {
    metrics.webhookDeliveryDuration.observe({ outcome }, seconds);
    if (fromEvent !== null) metrics.webhookEventToDelivery.observe(fromEvent);
  },
});
metrics.trackOutboxDepth('webhook_deliveries', async () => {
  const { rows } = await pool.query<{ n: number }>(
    `select count(*)::int as n from webhook_deliveries where status in ('pending', 'failed')`,
  );
  return rows[0]!.n;
});
const app = await serviceShell(boot);
registerWebhookApi({ app, pool, config, clock: systemClock });
const ops = await serviceHealth(boot, app);
await app.listen({ port: config.PORT, host: config.HOST });
logger.info({ port: config.PORT }, 'webhook-dispatcher listening');
stopOnSignal(logger, async () => {
  await app.close();
  await ops.close();
  await dispatcher.stop();
  await kafka.stop();
  mailer.close();
  await boot.close();
});
