import { cpus } from 'node:os';
import { installExitHandlers } from './cleanup.ts';
import { type BenchServer, describeServer, startBenchServer } from './database.ts';
import { runEventStoreBench } from './event-store-bench.ts';
import { runKeywordBench } from './keyword-bench.ts';
import { runScreeningBench } from './screening-bench.ts';
import { runSearchBench } from './search-bench.ts';
import { runSlonikBench } from './slonik-bench.ts';
import { runWebBench } from './web-bench.ts';
import { runWebhookBench } from './webhook-bench.ts';
import { runWidgetBench } from './widget-bench.ts';

// `npm run bench` runs every suite; `npm run bench -- eventstore` only the ones named.
const SUITES: Record<string, (server: BenchServer) => Promise<void>> = {
  eventstore: (server) =>
    runEventStoreBench(server, {
      seconds: numberFromEnv('BENCH_SECONDS', 10),
      warmupSeconds: numberFromEnv('BENCH_WARMUP_SECONDS', 1.5),
      writers: Math.round(numberFromEnv('BENCH_WRITERS', 8)),
      appendsPerStream: 10,
      rounds: Math.round(numberFromEnv('BENCH_ROUNDS', 10)),
    }),
  search: (server) =>
    runSearchBench(server, {
      merchants: Math.round(numberFromEnv('BENCH_MERCHANTS', 1_000_000)),
      notes: Math.round(numberFromEnv('BENCH_NOTES', 3_000_000)),
      seedWriters: Math.round(numberFromEnv('BENCH_SEED_WRITERS', 4)),
      seedBatch: Math.round(numberFromEnv('BENCH_SEED_BATCH', 200)),
      seconds: numberFromEnv('BENCH_SECONDS', 10),
      lagSeconds: optionalNumberFromEnv('BENCH_LAG_SECONDS'),
      warmupSeconds: numberFromEnv('BENCH_WARMUP_SECONDS', 1.5),
      concurrency: Math.round(numberFromEnv('BENCH_CONCURRENCY', 16)),
      einShare: 0.7,
      port: Math.round(numberFromEnv('BENCH_SERVER_PORT', 8097)),
      explain: process.env.BENCH_EXPLAIN === '1',
      keepDatabase: process.env.BENCH_KEEP_DATABASE === '1',
      reuseDatabase: process.env.BENCH_REUSE_DATABASE || undefined,
    }),
  // Issue 31 item 4: the keyword search's statements before and after the intersection, on a kept database.
  keyword: (server) =>
    runKeywordBench(server, {
      reuseDatabase: process.env.BENCH_REUSE_DATABASE || undefined,
      terms: Math.round(numberFromEnv('BENCH_KEYWORD_TERMS', 40)),
      runs: Math.round(numberFromEnv('BENCH_KEYWORD_RUNS', 10)),
      copies: Math.round(numberFromEnv('BENCH_KEYWORD_COPIES', 1)),
      explain: process.env.BENCH_EXPLAIN === '1',
    }),
  // Issue 32: a 10,000-EIN portfolio screening's time, as the query side's runner screens it, on a kept database.
  screening: (server) =>
    runScreeningBench(server, {
      reuseDatabase: process.env.BENCH_REUSE_DATABASE || undefined,
      eins: Math.round(numberFromEnv('BENCH_SCREENING_EINS', 10_000)),
      runs: Math.round(numberFromEnv('BENCH_SCREENING_RUNS', 3)),
    }),
  // Issue 22 item 9: the event store's and search's statements as plain pg and as slonik tokens, side by side.
  slonik: async (server) => {
    await runSlonikBench(server, {
      merchants: Math.round(numberFromEnv('BENCH_SLONIK_MERCHANTS', 100_000)),
      seconds: numberFromEnv('BENCH_SECONDS', 10),
      warmupSeconds: numberFromEnv('BENCH_WARMUP_SECONDS', 1.5),
      rounds: Math.round(numberFromEnv('BENCH_ROUNDS', 10)),
      concurrency: Math.round(numberFromEnv('BENCH_SLONIK_CONCURRENCY', 8)),
    });
  },
  web: (server) =>
    runWebBench(server, {
      runs: Math.round(numberFromEnv('BENCH_WEB_RUNS', 7)),
      port: Math.round(numberFromEnv('BENCH_SERVER_PORT', 8097)),
    }),
  // The admin dashboard's widgets over HTTP; BENCH_REUSE_DATABASE measures them on a kept search database.
  widgets: (server) =>
    runWidgetBench(server, {
      merchants: Math.round(numberFromEnv('BENCH_MERCHANTS', 1_000_000)),
      notes: Math.round(numberFromEnv('BENCH_NOTES', 3_000_000)),
      seedWriters: Math.round(numberFromEnv('BENCH_SEED_WRITERS', 4)),
      seedBatch: Math.round(numberFromEnv('BENCH_SEED_BATCH', 200)),
      seconds: numberFromEnv('BENCH_WIDGET_SECONDS', 3),
      warmupSeconds: numberFromEnv('BENCH_WARMUP_SECONDS', 1.5),
      concurrency: Math.round(numberFromEnv('BENCH_WIDGET_CONCURRENCY', 4)),
      funders: Math.round(numberFromEnv('BENCH_WIDGET_FUNDERS', 300)),
      port: Math.round(numberFromEnv('BENCH_SERVER_PORT', 8097)),
      keepDatabase: process.env.BENCH_KEEP_DATABASE === '1',
      reuseDatabase: process.env.BENCH_REUSE_DATABASE || undefined,
    }),
  webhooks: (server) =>
    runWebhookBench(server, {
      deliveries: Math.round(numberFromEnv('BENCH_WEBHOOK_DELIVERIES', 20_000)),
      watchers: Math.round(numberFromEnv('BENCH_WEBHOOK_WATCHERS', 200)),
      receivers: Math.round(numberFromEnv('BENCH_WEBHOOK_RECEIVERS', 4)),
      workers: optionalNumberFromEnv('BENCH_WEBHOOK_WORKERS'),
      claimBatch: optionalNumberFromEnv('BENCH_WEBHOOK_CLAIM_BATCH'),
      poolSize: Math.round(numberFromEnv('BENCH_WEBHOOK_POOL', 20)),
      maxSeconds: numberFromEnv('BENCH_WEBHOOK_MAX_SECONDS', 60),
      latencyRate: numberFromEnv('BENCH_WEBHOOK_RATE', 100),
      latencySeconds: numberFromEnv('BENCH_WEBHOOK_LATENCY_SECONDS', 10),
      latencyWatchers: Math.round(numberFromEnv('BENCH_WEBHOOK_LATENCY_WATCHERS', 2)),
    }),
};

function numberFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0.5) throw new Error(`${name} must be a number ≥ 0.5, got ${raw}`);
  return value;
}

/** Unset means "the component's own default", which the bench must not restate and drift from. */
function optionalNumberFromEnv(name: string): number | undefined {
  const raw = process.env[name];
  return raw === undefined || raw === '' ? undefined : Math.round(numberFromEnv(name, 0));
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(`usage: npm run bench -- [${Object.keys(SUITES).join('|')}]...
env: DATABASE_URL (server to create a scratch database on; default: embedded Postgres in ./.data-bench),
     BENCH_PG_SETTINGS (further settings of the embedded server, name=value,name=value: a setting's effect),
     BENCH_SECONDS (measured seconds per case, default 10), BENCH_WARMUP_SECONDS (default 1.5),
     eventstore: BENCH_WRITERS (default 8), BENCH_ROUNDS (interleaved slices per case, default 10)
     search (dashboard searches, and the partner API's EIN search with an API token, against the all-in-one
       server and then the split topology, run with NODE_ENV=production, on the same database, side by side
       in one table with the floor, GET /api/users/{own id}; then issue 31's targets in a table of their own):
       BENCH_MERCHANTS (default 1000000), BENCH_NOTES (default 3000000), BENCH_SEED_WRITERS (default 4),
       BENCH_SEED_BATCH (merchants per appendMany, default 200), BENCH_CONCURRENCY (HTTP connections, default 16),
       BENCH_SERVER_PORT (the all-in-one server's, then the split gateway's; default 8097, another free one
       if taken), BENCH_EXPLAIN=1 (print full query plans),
       BENCH_KEEP_DATABASE=1 (keep the search database, with DATABASE_URL, to look closer),
       BENCH_REUSE_DATABASE=<name> (measure the searches again on a kept database, skipping seeding and replay;
       BENCH_REPLAY=1 replays it again), BENCH_TOPOLOGIES (all-in-one, split, or none: which servers to measure)
       BENCH_LAG_RATE (commands/s of the lag phases, default 1000), BENCH_LAG_SECONDS (measured seconds of
       each lag phase, default BENCH_SECONDS; from 20 s also by 10-s slice), BENCH_NEW_READ_MODEL (the projector whose
       checkpoint is deleted for the last phase, a read model added, default broker_notes; none skips it)
     screening (a portfolio screening's time as the query side's runner screens it, on a kept search
       database: BENCH_REUSE_DATABASE=<name>; the search suite's server builds its signal summaries first):
       BENCH_SCREENING_EINS (default 10000), BENCH_SCREENING_RUNS (default 3)
     keyword (the keyword search's statements before and after the intersection, term by term per query
       shape, PostgreSQL's CPU per search; needs a kept search database): BENCH_REUSE_DATABASE=<name>,
       BENCH_KEYWORD_TERMS (per shape, default 40), BENCH_KEYWORD_RUNS (of each term each way, default 10),
       BENCH_KEYWORD_COPIES (the keyword tables copied this many times with fresh ids, to measure at that
       many times the merchants without seeding them; default 1), BENCH_EXPLAIN=1 (full plans)
     slonik (the event store's appends and log reads and the search statements, plain pg vs slonik tokens
       with zod rows, interleaved rounds): BENCH_SLONIK_MERCHANTS (seeded for the searches, default 100000;
       notes three times as many), BENCH_SLONIK_CONCURRENCY (loops and connections per way, default 8),
       BENCH_SECONDS, BENCH_WARMUP_SECONDS, BENCH_ROUNDS as the eventstore suite's
     web: BENCH_WEB_RUNS (sign-ins measured in Chromium per user, a platform administrator and a funder's
       member, default 7; needs web/dist from npm run build)
     webhooks: BENCH_WEBHOOK_DELIVERIES (outbox rows delivered in the throughput phase, default 20000),
       BENCH_WEBHOOK_WATCHERS (watching funders, each its own endpoint and secret, default 200),
       BENCH_WEBHOOK_RECEIVERS (loopback HTTP servers on distinct ports, default 4),
       BENCH_WEBHOOK_WORKERS, BENCH_WEBHOOK_CLAIM_BATCH (dispatcher options; default: the dispatcher's own),
       BENCH_WEBHOOK_POOL (dispatcher's pool connections, default 20 as the server's),
       BENCH_WEBHOOK_MAX_SECONDS (throughput phase gives up after, default 60),
       BENCH_WEBHOOK_RATE (notes/s in the latency phase, default 100), BENCH_WEBHOOK_LATENCY_SECONDS (default 10),
       BENCH_WEBHOOK_LATENCY_WATCHERS (funders watching each latency note, default 2)
     widgets: the search suite's sizes and BENCH_REUSE_DATABASE, BENCH_WIDGET_SECONDS (per case, default 3),
       BENCH_WIDGET_CONCURRENCY (the second pass's connections, default 4),
       BENCH_WIDGET_FUNDERS (empty funders added for the contributor tables, default 300)`);
    return;
  }
  const unknown = args.filter((a) => !(a in SUITES));
  if (unknown.length > 0) {
    throw new Error(`Unknown suite ${unknown.join(', ')}; known: ${Object.keys(SUITES).join(', ')}`);
  }
  const selected = args.length > 0 ? args : Object.keys(SUITES);

  // Whatever ends the bench (a failure, Ctrl-C), what it started is stopped before it exits.
  installExitHandlers();
  const server = await startBenchServer();
  try {
    const { version, settings } = await describeServer(server.adminUrl);
    console.log(`PostgreSQL: ${version}${server.embedded ? ' (embedded, ./.data-bench)' : ''}`);
    console.log(`settings:   ${settings}`);
    console.log(`client:     Node ${process.version}, ${cpus().length} CPUs shared with the server`);
    for (const name of selected) {
      console.log(`\n== ${name} ==`);
      await SUITES[name]!(server);
    }
  } finally {
    await server.stop();
  }
}

await main();
