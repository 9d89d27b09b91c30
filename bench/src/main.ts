import { cpus } from 'node:os';
import { type BenchServer, describeServer, startBenchServer } from './database.ts';
import { runEventStoreBench } from './event-store-bench.ts';
import { runSearchBench } from './search-bench.ts';
import { runWebBench } from './web-bench.ts';

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
      warmupSeconds: numberFromEnv('BENCH_WARMUP_SECONDS', 1.5),
      concurrency: Math.round(numberFromEnv('BENCH_CONCURRENCY', 16)),
      einShare: 0.7,
      port: Math.round(numberFromEnv('BENCH_SERVER_PORT', 8097)),
      explain: process.env.BENCH_EXPLAIN === '1',
      keepDatabase: process.env.BENCH_KEEP_DATABASE === '1',
      reuseDatabase: process.env.BENCH_REUSE_DATABASE || undefined,
    }),
  web: (server) =>
    runWebBench(server, {
      runs: Math.round(numberFromEnv('BENCH_WEB_RUNS', 7)),
      port: Math.round(numberFromEnv('BENCH_SERVER_PORT', 8097)),
    }),
};

function numberFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0.5) throw new Error(`${name} must be a number ≥ 0.5, got ${raw}`);
  return value;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(`usage: npm run bench -- [${Object.keys(SUITES).join('|')}]...
env: DATABASE_URL (server to create a scratch database on; default: embedded Postgres in ./.data-bench),
     BENCH_SECONDS (measured seconds per case, default 10), BENCH_WARMUP_SECONDS (default 1.5),
     eventstore: BENCH_WRITERS (default 8), BENCH_ROUNDS (interleaved slices per case, default 10)
     search: BENCH_MERCHANTS (default 1000000), BENCH_NOTES (default 3000000), BENCH_SEED_WRITERS (default 4),
       BENCH_SEED_BATCH (merchants per appendMany, default 200), BENCH_CONCURRENCY (HTTP connections, default 16),
       BENCH_SERVER_PORT (default 8097, another free one if taken), BENCH_EXPLAIN=1 (print full query plans),
       BENCH_KEEP_DATABASE=1 (keep the search database, with DATABASE_URL, to look closer),
       BENCH_REUSE_DATABASE=<name> (measure the searches again on a kept database, skipping seeding and replay)
     web: BENCH_WEB_RUNS (sign-ins measured in Chromium, default 7; needs web/dist from npm run build)`);
    return;
  }
  const unknown = args.filter((a) => !(a in SUITES));
  if (unknown.length > 0) {
    throw new Error(`Unknown suite ${unknown.join(', ')}; known: ${Object.keys(SUITES).join(', ')}`);
  }
  const selected = args.length > 0 ? args : Object.keys(SUITES);

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
