import { randomTestKeys, startBillingTestServer } from '@mrn/billing-test-server';
import {
  BILLING_TEST_KEYS_FILE,
  type BillingGateway,
  connectBilling,
  createBillingGateway,
  billingTestKeys as keptTestKeys,
  STRIPE_WEBHOOK_PATH,
} from '@mrn/command-api';
import type { Config, Logger } from '@mrn/platform';

export { BILLING_TEST_KEYS_FILE };
export interface Billing {
  gateway: BillingGateway;
  /** Billing test mode: the test server's address (services run apart talk to it: BILLING_TEST_URL). */
  testServerUrl?: string;
  /** Once the product listens: where the test server posts its webhooks. */
  listening(productUrl: string): void;
  stop(): Promise<void>;
}

/** This installation's billing test keys, made on its first run. */
export const billingTestKeys = (dataDir: string) => keptTestKeys(dataDir, randomTestKeys);

/**
 * Stripe with STRIPE_SECRET_KEY; otherwise billing test mode: the Stripe-compatible server of
 * `billing-test-server/` on loopback, which the same SDK talks to and which signs its webhooks to us
 * with this installation's own secret.
 */
export async function startBilling(config: Config, logger: Logger): Promise<Billing> {
  if (config.STRIPE_SECRET_KEY) {
    return {
      gateway: connectBilling(config, logger),
      listening: () => undefined,
      stop: async () => undefined,
    };
  }
  const keys = billingTestKeys(config.DATA_DIR);
  // After the last failed retry of a renewal the subscription stays, unpaid, until its open invoice is
  // paid (Stripe's "mark the subscription as unpaid" setting, the one to choose with a real key too):
  // the membership lapses meanwhile, and paying the invoice brings both back.
  const server = await startBillingTestServer({
    host: '127.0.0.1',
    port: 0,
    ...keys,
    afterFinalRetry: 'unpaid',
  });
  logger.info({ url: server.url }, 'billing test mode: the Stripe-compatible test server is running');
  return {
    gateway: createBillingGateway({
      secretKey: server.secretKey,
      publishableKey: server.publishableKey,
      webhookSecret: server.webhookSecret,
      testServer: { host: server.host, port: server.port, tokenUrl: `${server.url}/v1/tokens` },
    }),
    testServerUrl: server.url,
    listening: (productUrl) => server.configure({ webhookUrl: `${productUrl}${STRIPE_WEBHOOK_PATH}` }),
    stop: () => server.stop(),
  };
}
