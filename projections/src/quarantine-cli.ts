import { createLogger, createPool, loadConfig, startEmbeddedPostgres } from '@mrn/platform';
import { listQuarantine, resolveQuarantine } from './quarantine.ts';
import { allProjectors } from './read-models/index.ts';

// `npm run projections -- status`: events a projector could not apply, and whether they are resolved.
// `npm run projections -- retry <name>`: after a fix, the running server retries that projector from
// where it stopped (it checks every few seconds). A full replay is `npm run rebuild -- <name>`.
const [command, name] = process.argv.slice(2);
const names = allProjectors.map((p) => p.name);
if (command !== 'status' && !(command === 'retry' && name && names.includes(name))) {
  console.error(`usage: npm run projections -- status | retry <${names.join('|')}>`);
  process.exit(2);
}
const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL, 'projections');
const embedded = config.DATABASE_URL
  ? undefined
  : await startEmbeddedPostgres({ dataDir: config.DATA_DIR, port: config.EMBEDDED_PG_PORT, database: 'mrn' });
const pool = createPool(config.DATABASE_URL ?? embedded!.url('mrn'), 2);
try {
  if (command === 'retry') {
    const count = await resolveQuarantine(pool, name!);
    logger.info({ projector: name, events: count }, count ? 'marked for retry' : 'nothing quarantined');
  } else {
    const rows = await listQuarantine(pool);
    if (rows.length === 0) console.log('No quarantined events.');
    for (const r of rows) {
      console.log(
        `${r.resolved_at ? 'resolved' : 'HALTED  '} ${r.projector} ${r.type} ${r.event_id} at ${r.position}, ${r.attempts} attempts since ${r.first_failed_at.toISOString()}: ${r.error}`,
      );
    }
  }
} finally {
  await pool.end();
  await embedded?.stop();
}
