import { createServer } from './server.ts';

export type { Delivery } from './webhooks.ts';
export { signatureHeader } from './webhooks.ts';

export interface BillingTestServerOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default `sk_test_mrn_local`. */
  secretKey?: string;
  /** Default `pk_test_mrn_local`; accepted only by POST /v1/tokens, as with Stripe. */
  publishableKey?: string;
  /** Where events are POSTed; none → events are only recorded (GET /v1/events). */
  webhookUrl?: string;
  /** Default {@link DEFAULT_WEBHOOK_SECRET}. */
  webhookSecret?: string;
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

export const DEFAULT_SECRET_KEY = 'sk_test_mrn_local';
export const DEFAULT_PUBLISHABLE_KEY = 'pk_test_mrn_local';
export const DEFAULT_WEBHOOK_SECRET = 'whsec_mrn_local_billing_test_server';

/**
 * Starts a Stripe-compatible server for billing test mode (state in memory, one instance each).
 * Point the official SDK at it with {@link stripeClientOptions}.
 */
export async function startBillingTestServer(
  opts: BillingTestServerOptions = {},
): Promise<BillingTestServer> {
  const secretKey = opts.secretKey ?? DEFAULT_SECRET_KEY;
  const publishableKey = opts.publishableKey ?? DEFAULT_PUBLISHABLE_KEY;
  const server = await createServer({
    host: opts.host ?? '127.0.0.1',
    port: opts.port ?? 0,
    secretKey,
    publishableKey,
    webhookUrl: opts.webhookUrl || null,
    webhookSecret: opts.webhookSecret ?? DEFAULT_WEBHOOK_SECRET,
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
