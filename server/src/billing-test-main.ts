import { startBillingTestServer } from '@mrn/billing-test-server';
import { createLogger, loadConfig, stopOnSignal } from '@mrn/platform';
import { billingTestKeys } from './billing.ts';

// Billing test mode as a process of its own (docker-compose.yml): the Stripe-compatible test server
// with this installation's keys (made on first run in DATA_DIR, a volume the command-api replicas
// share), posting its webhooks to STRIPE_WEBHOOK_URL (the gateway's /api/stripe/webhooks).
const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL).child({ service: 'billing-test' });
const server = await startBillingTestServer({
  host: config.HOST,
  port: config.PORT,
  ...billingTestKeys(config.DATA_DIR),
  afterFinalRetry: 'unpaid',
});
const webhookUrl = process.env.STRIPE_WEBHOOK_URL;
if (webhookUrl) server.configure({ webhookUrl });
logger.info({ url: server.url }, 'billing test server listening');
stopOnSignal(logger, () => server.stop());
