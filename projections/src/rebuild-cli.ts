import {
  createLogger,
  createPool,
  loadConfig,
  PostgresEventStore,
  SearchLog,
  startEmbeddedPostgres,
} from '@mrn/platform';
import { handledTypes, logOf } from './projector.ts';
import { allProjectors } from './read-models/index.ts';
import { rebuildProjectors } from './rebuild.ts';
import { progressLine, progressReporter } from './rebuild-progress.ts';

// `npm run rebuild -- <name|all>`: replays the log into one or every read model. Stop the server
// first (or point DATABASE_URL at a database whose projections are stopped).
const target = process.argv[2];
const names = allProjectors.map((p) => p.name);
if (!target || (target !== 'all' && !names.includes(target))) {
  console.error(`usage: npm run rebuild -- <${[...names, 'all'].join('|')}>`);
  process.exit(2);
}
const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL, 'rebuild');
const embedded = config.DATABASE_URL
  ? undefined
  : await startEmbeddedPostgres({ dataDir: config.DATA_DIR, port: config.EMBEDDED_PG_PORT, database: 'mrn' });
const url = config.DATABASE_URL ?? embedded!.url('mrn');
// Asynchronous commit: a batch and its checkpoint still commit together, and a rebuild cut short by
// a crash is simply run again; waiting for every batch's WAL flush only slowed it down.
const pool = createPool(url, allProjectors.length + 2, { asynchronousCommit: true });
const store = new PostgresEventStore(pool);
const searches = new SearchLog(pool);
try {
  // \`all\` is one pass over the log feeding every projector, not one pass per projector.
  const chosen = allProjectors.filter((p) => target === 'all' || p.name === target);
  // What the replay will read (the chosen projectors' event types), for its progress and time left.
  const types = [...new Set(chosen.filter((p) => logOf(p) === 'events').flatMap(handledTypes))];
  const total =
    (types.length > 0 ? await store.countOfTypes(types) : 0) +
    (chosen.some((p) => logOf(p) === 'searches') ? await searches.count() : 0);
  console.error(
    `Replaying ${total.toLocaleString('en-US')} events into ${chosen.map((p) => p.name).join(', ')}`,
  );
  const started = performance.now();
  const count = await rebuildProjectors({ pool, store, searches }, chosen, {
    onProgress: progressReporter(total, (line) => console.error(line)),
  });
  const seconds = (performance.now() - started) / 1000;
  console.error(progressLine(count, total, seconds));
  logger.info(
    {
      projectors: chosen.map((p) => p.name),
      events: count,
      seconds,
      eventsPerSecond: Math.round(count / seconds),
    },
    'rebuilt',
  );
} finally {
  await store.close();
  await searches.close();
  await pool.end();
  await embedded?.stop();
}
