import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Config, keptSecret, type Logger } from '@mrn/platform';
import { type BillingGateway, createBillingGateway } from './gateway.ts';

/** The file in DATA_DIR that keeps this installation's billing-test-mode keys. */
export const BILLING_TEST_KEYS_FILE = 'billing-test-keys.json';

export interface BillingTestKeys {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
}

/**
 * Billing test mode's keys (API secret and publishable keys, webhook signing secret): generated on
 * this installation's first run by `generate` and kept in DATA_DIR like the JWT secret, never taken
 * from the repository, so nobody who merely read the code can sign a webhook this installation accepts.
 * Without `generate` they must already be there (a service run apart reads what its launcher made).
 */
export function billingTestKeys(dataDir: string, generate?: () => BillingTestKeys): BillingTestKeys {
  const text = generate
    ? keptSecret(dataDir, BILLING_TEST_KEYS_FILE, () => JSON.stringify(generate()))
    : readFileSync(join(dataDir, BILLING_TEST_KEYS_FILE), 'utf8');
  let keys: Partial<BillingTestKeys>;
  try {
    keys = JSON.parse(text) as Partial<BillingTestKeys>;
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
 * The payment provider a command-api process talks to: Stripe with STRIPE_SECRET_KEY; otherwise the
 * billing test server its launcher started (BILLING_TEST_URL), with this installation's keys.
 */
export function connectBilling(config: Config, logger: Logger): BillingGateway {
  if (config.STRIPE_SECRET_KEY) {
    if (!config.STRIPE_WEBHOOK_SECRET)
      logger.warn('STRIPE_WEBHOOK_SECRET is not set: every Stripe webhook will be refused');
    return createBillingGateway({
      secretKey: config.STRIPE_SECRET_KEY,
      publishableKey: config.STRIPE_PUBLISHABLE_KEY ?? '',
      webhookSecret: config.STRIPE_WEBHOOK_SECRET ?? '',
    });
  }
  if (!config.BILLING_TEST_URL)
    throw new Error(
      'Set STRIPE_SECRET_KEY, or BILLING_TEST_URL for billing test mode (npm run start:split does)',
    );
  const url = new URL(config.BILLING_TEST_URL);
  return createBillingGateway({
    ...billingTestKeys(config.DATA_DIR),
    testServer: { host: url.hostname, port: Number(url.port), tokenUrl: `${url.origin}/v1/tokens` },
  });
}
