import {
  createLogger,
  createPool,
  loadConfig,
  openEventStore,
  resolveJwtSecret,
  stopOnSignal,
} from '@mrn/platform';
import { createGatewayApp } from './gateway.ts';

// The gateway as a process of its own (docker-compose.yml), in front of services found by name:
// COMMAND_API_URLS, QUERY_API_URLS and WEBHOOKS_URLS (the dispatcher's routes; comma-separated origins; a scaled service behind one DNS name
// is one origin, balanced by the container network), and PROJECTIONS_URLS, which it does not route to
// but asks on /ready. It hosts the partner sandbox, which reads
// production's database (DATABASE_URL) to check `test_` credentials.
const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL).child({ service: 'gateway' });
const listed = (name: string) =>
  process.env[name]
    ?.split(',')
    .map((o) => o.trim())
    .filter(Boolean) ?? [];
const origins = (name: string) => {
  const value = listed(name);
  if (value.length === 0) throw new Error(`gateway: ${name} is required (comma-separated origins)`);
  return value;
};
const projections = listed('PROJECTIONS_URLS');
const databaseUrl = config.DATABASE_URL;
if (!databaseUrl)
  throw new Error('gateway: DATABASE_URL is required (the partner sandbox checks credentials there)');
const pool = createPool(databaseUrl, 4);
const events = await openEventStore(config, { pool, databaseUrl });
const { app, sandbox } = await createGatewayApp({
  config,
  logger,
  production: { pool, store: events.store, databaseUrl },
  jwtSecret: resolveJwtSecret(config.JWT_SECRET, config.DATA_DIR),
  billingTokenUrl: config.BILLING_TEST_URL ? new URL('/v1/tokens', config.BILLING_TEST_URL).toString() : null,
  upstreams: {
    command: origins('COMMAND_API_URLS'),
    query: origins('QUERY_API_URLS'),
    webhooks: origins('WEBHOOKS_URLS'),
  },
  alsoReady: (): Record<string, readonly string[]> => (projections.length > 0 ? { projections } : {}),
});
await app.listen({ port: config.PORT, host: config.HOST });
logger.info({ port: config.PORT }, 'gateway listening');
stopOnSignal(logger, async () => {
  await app.close();
  await sandbox.close();
  await events.close();
  await pool.end();
});
