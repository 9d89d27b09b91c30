import { z } from 'zod';

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

/** Every setting the services read from the environment (DESIGN §7), parsed once at start-up. */
export const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /**
   * The interface the product listens on: this machine only, unless told otherwise (a container, or
   * another machine on the network, needs `0.0.0.0`, which the Dockerfile and compose set).
   */
  HOST: z.string().default('127.0.0.1'),
  DATA_DIR: z.string().default('./.data'),
  DATABASE_URL: optionalString,
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
  ADMIN_EMAIL: optionalString,
  ADMIN_PASSWORD: optionalString,
  JWT_SECRET: optionalString,
  SESSION_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(30 * 86_400)
    .default(12 * 3600),
  SMTP_URL: optionalString,
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  STRIPE_PUBLISHABLE_KEY: optionalString,
  /**
   * Billing test mode run apart (`npm run start:split`): the address of the Stripe-compatible test
   * server the launcher started; its keys are this installation's, read from DATA_DIR.
   */
  BILLING_TEST_URL: optionalString,
  /**
   * The proxies whose X-Forwarded-For is believed, as addresses or CIDR ranges (`127.0.0.1`,
   * `172.30.0.10`): a service behind the gateway names the gateway; the gateway, a load balancer in front
   * of it if there is one. Unset: none, the peer is the client. `true` is refused: trusting every address
   * lets any client choose the address its per-IP limits count.
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .transform((v, ctx) => {
      if (/^(false|0|)$/i.test(v)) return false as const;
      if (/^(true|1|yes)$/i.test(v)) {
        ctx.addIssue({
          code: 'custom',
          message:
            'names the proxies to trust (e.g. 127.0.0.1 or 10.0.0.5,10.0.1.0/24), not true: trusting every address lets a client choose its own',
        });
        return z.NEVER;
      }
      const list = v
        .split(',')
        .map((a) => a.trim())
        .filter(Boolean);
      const bad = list.find((a) => !/^[0-9a-f.:]+(\/\d{1,3})?$/i.test(a));
      if (bad) {
        ctx.addIssue({ code: 'custom', message: `"${bad}" is not an address or CIDR range` });
        return z.NEVER;
      }
      return list;
    })
    .default(false),
  /**
   * The operations listener: Prometheus' /metrics and detailed /health and /ready, never on PORT.
   * Loopback by default; in a container network, 0.0.0.0 on a port that is not published.
   */
  METRICS_HOST: z.string().trim().default('127.0.0.1'),
  /** Its port (0: any free port, printed at start). */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
  /** Where the event log lives (DESIGN §3): the PostgreSQL database (default) or a KurrentDB server. */
  EVENT_STORE: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim().toLowerCase() || undefined : v),
    z.enum(['postgres', 'kurrentdb']).default('postgres'),
  ),
  /**
   * The KurrentDB connection string, e.g. `kurrentdb://localhost:2113?tls=false`: required with
   * EVENT_STORE=kurrentdb (loadConfig refuses to start without it). Set alone, only the KurrentDB
   * contract tests use it.
   */
  EVENTSTORE_URL: optionalString.refine(
    (v) => v === undefined || /^(kurrentdb|kurrent|kdb|esdb)(\+discover)?:\/\//i.test(v),
    'must be a KurrentDB connection string (kurrentdb://host:port?tls=false or kurrentdb+discover://…)',
  ),
  /**
   * `host:port[,host:port…]`. Set, a relay publishes the log to Kafka and the webhook dispatcher reads it
   * from there (DESIGN §4); unset, the dispatcher reads the event store. A typo would only show as a
   * relay retrying forever, so the form is checked at start-up.
   */
  KAFKA_BROKERS: optionalString.refine(
    (v) => v === undefined || v.split(',').every((b) => /^\S+:\d{1,5}$/.test(b.trim())),
    'must be a comma-separated list of host:port',
  ),
  PRODUCT_NAME: z.string().default('Merchant Risk Network'),
  PUBLIC_URL: optionalString,
  /** Lets webhooks reach 127.0.0.0/8 and ::1 (development and tests); every other internal address stays refused. */
  WEBHOOK_ALLOW_LOOPBACK: z
    .string()
    .trim()
    .toLowerCase()
    .transform((v) => v === 'true' || v === '1')
    .default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Partner API calls a minute per API user (and per IP for calls without a valid token). */
  RATE_LIMIT_API_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  /** POST /api/v2/token calls a minute per IP: lower, as each one checks credentials and opens a session. */
  RATE_LIMIT_TOKEN_PER_MINUTE: z.coerce.number().int().min(1).default(20),
  CONSISTENCY_TIMEOUT_MS: z.coerce.number().int().min(0).max(30_000).default(3000),
  /** `production` turns off the per-request check of answers against the route table's schemas. */
  NODE_ENV: z.enum(['development', 'test', 'production']).catch('development').default('development'),
});
export type Config = z.infer<typeof ConfigSchema>;

/** The brokers of KAFKA_BROKERS, or undefined when Kafka is not used. */
export function kafkaBrokers(config: Pick<Config, 'KAFKA_BROKERS'>): string[] | undefined {
  const brokers = config.KAFKA_BROKERS?.split(',')
    .map((b) => b.trim())
    .filter(Boolean);
  return brokers?.length ? brokers : undefined;
}

/** Rules across settings, which the per-variable schema above cannot state. */
function crossFieldProblems(config: Config): string[] {
  const problems: string[] = [];
  if (config.EVENT_STORE === 'kurrentdb' && config.EVENTSTORE_URL === undefined)
    problems.push(
      'EVENTSTORE_URL: is required when EVENT_STORE=kurrentdb (e.g. kurrentdb://localhost:2113?tls=false)',
    );
  return problems;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  const problems = parsed.success
    ? crossFieldProblems(parsed.data)
    : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  if (problems.length > 0) throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  return parsed.data!;
}
