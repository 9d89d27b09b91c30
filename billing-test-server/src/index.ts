import { randomBytes } from 'node:crypto';
import { createServer } from './server.ts';
import type { AfterFinalRetry } from './state.ts';

export type { AfterFinalRetry } from './state.ts';

export type { Delivery } from './webhooks.ts';
export { signatureHeader } from './webhooks.ts';

export interface BillingTestServerOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default: a new random `sk_test_…` each start (see {@link randomTestKeys}). */
  secretKey?: string;
  /** Default: a new random `pk_test_…` each start; accepted only by POST /v1/tokens, as with Stripe. */
  publishableKey?: string;
  /** Where events are POSTed; none → events are only recorded (GET /v1/events). */
  webhookUrl?: string;
  /** Default: a new random `whsec_…` each start. */
  webhookSecret?: string;
  /**
   * When the last retry of a renewal fails: `cancel` (Stripe's default setting) ends the subscription;
   * `unpaid` keeps it unpaid (no more charges) until its open invoice is paid, which makes it active.
   */
  afterFinalRetry?: AfterFinalRetry;
}

export interface BillingTestServer {
  /** `http://127.0.0.1:<port>`; the portal, hosted invoice and PDF links start with it. */
  url: string;
  /** Where clients connect (127.0.0.1 when listening on every interface). */
  host: string;
  port: number;
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  /** A URL of null (or '') stops delivery; events that happen meanwhile are not sent later. */
  configure(opts: { webhookUrl?: string | null; webhookSecret?: string }): void;
  /** Resolves once no webhook is queued, in flight or waiting for a retry (at most 15 s). */
  webhooksIdle(): Promise<void>;
  stop(): Promise<void>;
}

export interface TestKeys {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
}

/**
 * Keys nobody else knows: none is fixed in the repository, where anyone could read it and sign a
 * webhook (a forged `customer.subscription.deleted` would end a funder's membership). The product
 * keeps one set per installation in its DATA_DIR; a server started without keys makes its own.
 */
export function randomTestKeys(): TestKeys {
  const random = () => randomBytes(24).toString('hex');
  return {
    secretKey: `sk_test_${random()}`,
    publishableKey: `pk_test_${random()}`,
    webhookSecret: `whsec_${random()}`,
  };
}

/**
 * Starts a Stripe-compatible server for billing test mode (state in memory, one instance each).
 * Point the official SDK at it with {@link stripeClientOptions}.
 */
export async function startBillingTestServer(
  opts: BillingTestServerOptions = {},
): Promise<BillingTestServer> {
  const generated = randomTestKeys();
  const secretKey = opts.secretKey || generated.secretKey;
  const publishableKey = opts.publishableKey || generated.publishableKey;
  const server = await createServer({
    host: opts.host ?? '127.0.0.1',
    port: opts.port ?? 0,
    secretKey,
    publishableKey,
    webhookUrl: opts.webhookUrl || null,
    webhookSecret: opts.webhookSecret || generated.webhookSecret,
    afterFinalRetry: opts.afterFinalRetry ?? 'cancel',
  });
  const handle: BillingTestServer = {
    url: server.url,
    host: server.host,
    port: server.port,
    secretKey,
    publishableKey,
    webhookSecret: server.webhooks.secret,
    configure(config) {
      if (config.webhookUrl !== undefined) server.webhooks.url = config.webhookUrl || null;
      if (config.webhookSecret !== undefined) {
        server.webhooks.secret = config.webhookSecret;
        handle.webhookSecret = config.webhookSecret;
      }
    },
    webhooksIdle: () => server.webhooks.idle(),
    stop: () => server.close(),
  };
  return handle;
}

/** `new Stripe(server.secretKey, { ...stripeClientOptions(server), apiVersion })`. */
export function stripeClientOptions(server: { host: string; port: number }) {
  return { host: server.host, port: server.port, protocol: 'http' as const };
}
