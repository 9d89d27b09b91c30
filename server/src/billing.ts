import { randomTestKeys, startBillingTestServer, type TestKeys } from '@mrn/billing-test-server';
import { type BillingGateway, createBillingGateway, STRIPE_WEBHOOK_PATH } from '@mrn/command-api';
import type { Config, Logger } from '@mrn/platform';
import { keptSecret } from './jwt-secret.ts';

export interface Billing {
  gateway: BillingGateway;
  /** Once the product listens: where the test server posts its webhooks. */
  listening(productUrl: string): void;
  stop(): Promise<void>;
}

/** The file in DATA_DIR that keeps this installation's billing-test-mode keys. */
export const BILLING_TEST_KEYS_FILE = 'billing-test-keys.json';

/**
 * Billing test mode's keys (API secret and publishable keys, webhook signing secret): generated on
 * this installation's first run and kept in DATA_DIR like the JWT secret, never taken from the
 * repository, so nobody who merely read the code can sign a webhook this installation accepts.
 */
export function billingTestKeys(dataDir: string): TestKeys {
  const text = keptSecret(dataDir, BILLING_TEST_KEYS_FILE, () => JSON.stringify(randomTestKeys()));
  let keys: Partial<TestKeys>;
  try {
    keys = JSON.parse(text) as Partial<TestKeys>;
  } catch {
    keys = {};
  }
  const { secretKey, publishableKey, webhookSecret } = keys;
  if (
    typeof secretKey !== 'string' ||
    !secretKey.startsWith('sk_test_') ||
    typeof publishableKey !== 'string' ||
    !publishableKey.startsWith('pk_test_') ||
    typeof webhookSecret !== 'string' ||
    !webhookSecret.startsWith('whsec_')
  ) {
    throw new Error(
      `${BILLING_TEST_KEYS_FILE} in ${dataDir} is not this installation's billing test keys: delete it to have new ones made`,
    );
  }
  return { secretKey, publishableKey, webhookSecret };
}

/**
 * Stripe with STRIPE_SECRET_KEY; otherwise billing test mode: the Stripe-compatible server of
 * `billing-test-server/` on loopback, which the same SDK talks to and which signs its webhooks to us
 * with this installation's own secret.
 */
export async function startBilling(config: Config, logger: Logger): Promise<Billing> {
  if (config.STRIPE_SECRET_KEY) {
    if (!config.STRIPE_WEBHOOK_SECRET)
      logger.warn('STRIPE_WEBHOOK_SECRET is not set: every Stripe webhook will be refused');
    return {
      gateway: createBillingGateway({
        secretKey: config.STRIPE_SECRET_KEY,
        publishableKey: config.STRIPE_PUBLISHABLE_KEY ?? '',
        webhookSecret: config.STRIPE_WEBHOOK_SECRET ?? '',
      }),
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
    listening: (productUrl) => server.configure({ webhookUrl: `${productUrl}${STRIPE_WEBHOOK_PATH}` }),
    stop: () => server.stop(),
  };
}
