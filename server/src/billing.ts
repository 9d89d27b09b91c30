import { startBillingTestServer } from '@mrn/billing-test-server';
import { type BillingGateway, createBillingGateway, STRIPE_WEBHOOK_PATH } from '@mrn/command-api';
import type { Config, Logger } from '@mrn/platform';

export interface Billing {
  gateway: BillingGateway;
  /** Once the product listens: where the test server posts its webhooks. */
  listening(productUrl: string): void;
  stop(): Promise<void>;
}

/**
 * Stripe with STRIPE_SECRET_KEY; otherwise billing test mode: the Stripe-compatible server of
 * `billing-test-server/` on loopback, which the same SDK talks to and which signs its webhooks to us.
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
  const server = await startBillingTestServer({ host: '127.0.0.1', port: 0 });
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
