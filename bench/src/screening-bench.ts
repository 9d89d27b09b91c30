import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { SCREENING_MAX_EINS } from '@mrn/contracts';
import { createPool, runMigrations } from '@mrn/platform';
import { SCREENING_CHUNK, screenChunk } from '@mrn/query-api';
import { allMigrations } from '@mrn/server';
import { CpuMeter } from './cpu.ts';
import type { BenchServer } from './database.ts';
import { reusedDatabase } from './seeding.ts';

export interface ScreeningBenchOptions {
  reuseDatabase: string | undefined;
  /** EINs a screening: half of the network's merchants, half unknown. */
  eins: number;
  runs: number;
}

/**
 * Issue 32: a portfolio screening's time on a kept search database (1,000,000 merchants, each with its
 * signal summary), as the query side's runner screens it: SCREENING_CHUNK EINs a transaction, each
 * looked up with its merchant, summary and disputes and written to the report. Wall time and
 * PostgreSQL's and this process's CPU per screening.
 */
export async function runScreeningBench(server: BenchServer, opts: ScreeningBenchOptions): Promise<void> {
  if (!opts.reuseDatabase)
    throw new Error(
      'the screening suite measures a kept search database: run `BENCH_KEEP_DATABASE=1 npm run bench -- search` first, then BENCH_REUSE_DATABASE=<its name>',
    );
  const db = reusedDatabase(server, opts.reuseDatabase);
  const pool = createPool(db.url, 2);
  try {
    await runMigrations(pool, allMigrations());
    const { rows: counts } = await pool.query<{ merchants: number; summaries: number }>(
      `select (select count(*) from read.merchants where archived_at is null)::int as merchants,
              (select count(*) from read.merchant_signals)::int as summaries`,
    );
    console.log(
      `bench:  ${counts[0]!.merchants.toLocaleString('en-US')} live merchants, ${counts[0]!.summaries.toLocaleString('en-US')} signal summaries in ${db.name}; ` +
        `a screening of ${opts.eins.toLocaleString('en-US')} EINs (half known, in random order), ${opts.runs} runs, ${SCREENING_CHUNK} EINs a transaction`,
    );
    console.log(
      `load:   ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' / ')} (1/5/15 min before the suite)`,
    );
    const { rows: known } = await pool.query<{ fein: string }>(
      `select fein from read.merchants where archived_at is null order by random() limit $1`,
      [Math.ceil(opts.eins / 2)],
    );
    const account = randomUUID();
    const backend = (await pool.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    // This process is the runner here (no server): its CPU is the client's.
    const meter = new CpuMeter(-1, backend);
    for (let run = 1; run <= opts.runs; run++) {
      const feins = [
        ...known.map((r) => r.fein),
        ...Array.from({ length: opts.eins - known.length }, (_, i) =>
          String(990_000_000 + run * SCREENING_MAX_EINS + i),
        ),
      ].sort(() => Math.random() - 0.5);
      const id = randomUUID();
      await pool.query(
        `insert into screenings (id, account_id, user_id, source, total, rejected, created_at)
         values ($1, $2, $2, 'api', $3, 0, now())`,
        [id, account, feins.length],
      );
      await pool.query(
        `insert into screening_rows (screening_id, row_no, input, fein)
         select $1, n, f, f from unnest($2::text[]) with ordinality as t(f, n)`,
        [id, feins],
      );
      const before = meter.sample();
      const started = performance.now();
      while (await screenChunk(pool, id, new Date())) {
        // One chunk a transaction, as the runner does.
      }
      const wall = performance.now() - started;
      const use = CpuMeter.between(before, meter.sample());
      const { rows } = await pool.query<{ status: string; screened: number; found: number; flagged: number }>(
        'select status, screened, found, flagged from screenings where id = $1',
        [id],
      );
      console.log(
        `run ${run}: ${rows[0]!.status}, ${rows[0]!.screened.toLocaleString('en-US')} screened, ${rows[0]!.found.toLocaleString('en-US')} found, ${rows[0]!.flagged.toLocaleString('en-US')} flagged in ${(wall / 1000).toFixed(2)} s ` +
          `(${Math.round(feins.length / (wall / 1000)).toLocaleString('en-US')} EINs/s); CPU: the runner (this process) ${(use.clientMs / 1000).toFixed(2)} s, PostgreSQL ${(use.postgresMs / 1000).toFixed(2)} s`,
      );
      await pool.query('delete from screenings where id = $1', [id]);
    }
  } finally {
    await pool.end();
  }
}
