import { createLogger, loadConfig } from '@mrn/platform';
import { startServer } from './app.ts';

// `npm start` (add `-- --demo` for a small demo network).
const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL);
const demo = process.argv.includes('--demo');

const server = await startServer(config, { logger, demo });
if (server.admin.created) {
  const shown =
    server.admin.password && !config.ADMIN_PASSWORD ? server.admin.password : '(the ADMIN_PASSWORD you set)';
  process.stdout.write(
    `\n  First platform administrator created — shown once, keep it safe:\n    email:    ${server.admin.email}\n    password: ${shown}\n\n`,
  );
}
process.stdout.write(`\n  Merchant Risk Network is running at ${server.url}\n\n`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    server
      .close()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  });
}
