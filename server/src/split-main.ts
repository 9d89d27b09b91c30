import { createLogger, loadConfig } from '@mrn/platform';
import { startSplit } from './split.ts';

// `npm run start:split`: the four services as processes of their own behind a gateway on PORT.
const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL);
const topology = await startSplit(config, { logger });
if (topology.admin.created) {
  const shown =
    topology.admin.password && !config.ADMIN_PASSWORD
      ? topology.admin.password
      : '(the ADMIN_PASSWORD you set)';
  process.stdout.write(
    `\n  First platform administrator created — shown once, keep it safe:\n    email:    ${topology.admin.email}\n    password: ${shown}\n\n`,
  );
}
const counts = new Map<string, number>();
for (const p of topology.processes) counts.set(p.service, (counts.get(p.service) ?? 0) + 1);
process.stdout.write(
  `\n  Merchant Risk Network (split: ${[...counts].map(([s, n]) => `${n} × ${s}`).join(', ')}) is running at ${topology.url}\n\n`,
);
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) process.exit(1);
    stopping = true;
    topology
      .close()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  });
}
