import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { buildPath, type RouteSpec, routes } from '@mrn/contracts';
import {
  createPool,
  type Pool,
  PostgresEventStore,
  RATE_LIMIT_TAKE,
  readCheckpointStates,
  runMigrations,
  SESSION_QUERY,
  SearchLog,
} from '@mrn/platform';
import { allProjectors, handledTypes, logOf, rebuildProjectors } from '@mrn/projections';
import { keywordKeys, keywordRange, keywordScan, keywordWords, SEARCH_STATEMENTS } from '@mrn/query-api';
import { allMigrations } from '@mrn/server';
import { ALL_FOLLOWERS, waitForCheckpoints } from './consumers.ts';
import { CpuMeter } from './cpu.ts';
import { type BenchDatabase, type BenchServer, createBenchDatabase } from './database.ts';
import { type LoadRequest, type LoadResult, percentile, postJson, runLoad, signIn } from './http-load.ts';
import { type LagResult, measureProjectionLag } from './projection-lag.ts';
import { einOf, keywordTerm, type Owner, Rng } from './search-data.ts';
import {
  ADMIN_EMAIL,
  createFunder,
  existingFunder,
  FUNDER_EMAIL,
  PASSWORD,
  reusedDatabase,
  seedMerchants,
} from './seeding.ts';
import {
  BENCH_NODE_ENV,
  freePort,
  type ServerProcess,
  serviceProcesses,
  splitReady,
  startServerProcess,
} from './server-process.ts';
import {
  formatCount,
  formatMs,
  formatRatio,
  printLatencyComparison,
  type Row,
  renderTable,
} from './table.ts';

export interface SearchBenchOptions {
  merchants: number;
  notes: number;
  /** Concurrent appendMany writers while seeding. */
  seedWriters: number;
  /** Merchants per appendMany (two streams each). */
  seedBatch: number;
  /** Measured seconds per HTTP phase. */
  seconds: number;
  /**
   * Measured seconds of each live-lag phase (default `seconds`): from 20 s the lag is also given by 10-s
   * slice, the seconds after a checkpoint apart from the steady state.
   */
  lagSeconds?: number;
  warmupSeconds: number;
  /** Concurrent keep-alive connections of the HTTP phases. */
  concurrency: number;
  /** Share of EIN searches in the mixed phase. */
  einShare: number;
  port: number;
  /** Print the full EXPLAIN (ANALYZE, BUFFERS) plans, not just their timings. */
  explain: boolean;
  /** Leave the database behind for a closer look (only useful with DATABASE_URL). */
  keepDatabase: boolean;
  /** A database kept by an earlier run: skip seeding and replay, measure the searches again. */
  reuseDatabase: string | undefined;
}

/** Issue 31's targets (issue 23's, with the CPU per search and the read model added), each where the bench measures it. */
const TARGETS = {
  /** CPU per EIN search (server + PostgreSQL) at the saturated connections, in ms, and as a multiple of the floor's. */
  einCpuMs: 0.6,
  einCpuFloorRatio: 2,
  /** CPU per keyword search (server + PostgreSQL) at the saturated connections, in ms. */
  keywordCpuMs: 1.5,
  /** EIN search p99 at 1 connection, and at 16 (saturated: mostly queueing). */
  einP99Ms: 5,
  einSaturatedP99Ms: 25,
  keywordP99Ms: 25,
  keywordSaturatedP99Ms: 60,
  /** The partner API's EIN search p99, as a multiple of the dashboard's at the same connections. */
  partnerP99Ratio: 1.2,
  searchesPerSecond: 2000,
  /** Into every read model, both logs read. */
  replayEventsPerSecond: 30_000,
  lagP99Ms: 250,
  commandsPerSecond: 1000,
  /** "Sent in full": the commands went out at this share of the rate at least, none failed. */
  sentShare: 0.98,
  /** The other read models' lag p99 while a read model added to the database builds. */
  buildingLagP99Ms: 1000,
};

/**
 * The floor a search's CPU is compared with: an authenticated route that reads one index. GET
 * /api/users/{id} of the funder herself: the session check (as every request's: cached in the process
 * for a second) and one statement, read.users by primary key joined to her account by primary key.
 */
const FLOOR_LABEL = 'GET /api/users/{own id} (session check + one primary-key look-up)';

/** Commands a second of the lag phase: the issue's 1,000 unless `BENCH_LAG_RATE` says otherwise. */
const lagRate = () => Number(process.env.BENCH_LAG_RATE ?? TARGETS.commandsPerSecond);

/**
 * The partner API's limit per API user on the bench server: high enough never to refuse a measured
 * call, so the figures are of the search with its rate-limit count, not of 429s.
 */
const BENCH_RATE_LIMIT_PER_MINUTE = 100_000_000;

export async function runSearchBench(server: BenchServer, opts: SearchBenchOptions): Promise<void> {
  console.log(
    `bench:      ${formatCount(opts.merchants)} merchants, ${formatCount(opts.notes)} notes seeded through the ` +
      `event store (appendMany of ${opts.seedBatch} merchants = ${opts.seedBatch * 2} streams, ${opts.seedWriters} ` +
      `writers, 'no_stream', seeding pool with synchronous_commit=off); read models rebuilt as ` +
      '`npm run rebuild -- all` does (one pass over each log, the event log and the search log side by side); then the ' +
      `real server in processes of its own, run as in production (NODE_ENV=${BENCH_NODE_ENV}: answers are not ` +
      'checked against their route schemas per request), both topologies on that database one after the ' +
      'other: all-in-one (`server/src/main.ts`, one process), then, once it has stopped, split ' +
      '(`server/src/split-main.ts`: a gateway in front of command-api and query-api processes, one of each ' +
      'per core, a projections and a webhook-dispatcher process); each searched over HTTP (keep-alive, ' +
      `${opts.concurrency} connections, ${opts.seconds} s per phase after ${opts.warmupSeconds} s warm-up) as ` +
      'a PRO funder user (keyword cap 25), with the same searches, beside the floor of an authenticated ' +
      `route (${FLOOR_LABEL}); last, the all-in-one again with a read model added to the database`,
  );
  console.log(`load:       ${formatLoad()} (1/5/15 min load average before the suite)`);
  const db = opts.reuseDatabase
    ? reusedDatabase(server, opts.reuseDatabase)
    : await createBenchDatabase(server, 'search');
  const pools: Pool[] = [];
  const rows: Row[] = [];
  const checks: string[] = [];
  const notes: string[] = [];
  try {
    const seedPool = createPool(db.url, opts.seedWriters + 2, { asynchronousCommit: true });
    pools.push(seedPool);
    await runMigrations(seedPool, allMigrations());
    const seedStore = new PostgresEventStore(seedPool);
    // As `npm run rebuild` makes it (projections/src/rebuild-cli.ts).
    const rebuildPool = createPool(db.url, allProjectors.length + 2, { asynchronousCommit: true });
    pools.push(rebuildPool);
    let owner: Owner;
    let replay: { rate: number; seconds: number } | undefined;

    if (opts.reuseDatabase) {
      owner = await existingFunder(seedPool);
      notes.push(
        `reused database ${db.name}: seeding not run again${process.env.BENCH_REPLAY ? '' : ', nor the replay'}`,
      );
    } else {
      // ---- 1. seeding --------------------------------------------------------------------------------
      owner = await createFunder(seedStore);
      process.stderr.write('  seeding…\n');
      const seed = await seedMerchants(seedStore, owner, opts);
      // A live log has long been vacuumed; without this, the replay would pay for setting every row's
      // hint bits, and autovacuum would wake in the middle of a later measurement.
      const vacuumStarted = performance.now();
      await maintenance(seedPool, ['checkpoint', 'vacuum (analyze) events', 'checkpoint']);
      notes.push(
        `checkpoint, vacuum (analyze) events, checkpoint after seeding: ${seconds(vacuumStarted)} s`,
      );
      rows.push({
        section:
          'seeding through the event store (appendMany, asynchronous commit; once, before either server ran)',
      });
      rows.push(
        once(
          `  ${formatCount(seed.events)} events (${formatCount(opts.merchants)} EinReserved, ` +
            `${formatCount(opts.merchants)} MerchantAdded, ${formatCount(opts.notes)} NoteAdded) in ${seed.seconds.toFixed(1)} s`,
          [formatCount(seed.events / seed.seconds)],
        ),
      );
    }
    // ---- 2. projection replay ----------------------------------------------------------------------
    // BENCH_REPLAY=1 on a reused database: the replay again, into read models emptied first.
    if (!opts.reuseDatabase || process.env.BENCH_REPLAY) {
      // As `npm run rebuild -- all` does it: one pass over the log feeding every projector.
      const rebuildStore = new PostgresEventStore(rebuildPool);
      rows.push({
        section:
          'projection replay (`npm run rebuild -- all`: one pass over each log, every projector of it; once, before either server ran)',
      });
      process.stderr.write(`  rebuilding ${allProjectors.length} read models…\n`);
      const started = performance.now();
      // Both logs are read: the event log's events, then the search log's searches (none seeded here;
      // a kept database holds the searches of earlier runs).
      const { rows: sizes } = await rebuildPool.query<{ events: string; searches: string }>(
        'select (select count(*) from events) as events, (select count(*) from search_log) as searches',
      );
      const head = Number(sizes[0]!.events) + Number(sizes[0]!.searches);
      let reported = 0;
      const count = await rebuildProjectors(
        { pool: rebuildPool, store: rebuildStore, searches: new SearchLog(rebuildPool) },
        allProjectors,
        {
          onProgress: (done) => {
            const tenth = Math.floor((done * 10) / head);
            if (tenth > reported && tenth < 10) {
              reported = tenth;
              process.stderr.write(
                `  rebuilding: ${tenth * 10}% — ${formatCount(done / ((performance.now() - started) / 1000))} events/s\n`,
              );
            }
          },
        },
      );
      const replaySeconds = (performance.now() - started) / 1000;
      // The rate is of the whole logs: events of types no projector handles are skipped, not free.
      const rate = head / replaySeconds;
      replay = { rate, seconds: replaySeconds };
      rows.push(
        once(
          `  the event log's ${formatCount(Number(sizes[0]!.events))} events and the search log's ` +
            `${formatCount(Number(sizes[0]!.searches))} searches (${formatCount(count)} of types the projectors ` +
            `handle, applied) into ${allProjectors.length} read models (${allProjectors.map((p) => p.name).join(', ')}) in ` +
            `${replaySeconds.toFixed(1)} s`,
          [
            formatCount(rate),
            '',
            '',
            '',
            verdict(
              rate >= TARGETS.replayEventsPerSecond,
              `≥ ${formatCount(TARGETS.replayEventsPerSecond)} events/s`,
            ),
          ],
        ),
      );
      notes.push(await describeTables(rebuildPool));
      // Analyze for the planner; vacuum too, as autovacuum soon would, so it does not run mid-measurement.
      const analyzeStarted = performance.now();
      await maintenance(rebuildPool, [
        'vacuum (analyze) read.merchants, read.notes, read.merchant_words, read.merchant_keywords, read.search_words',
        'checkpoint',
      ]);
      notes.push(`vacuum (analyze) of the read models, checkpoint: ${seconds(analyzeStarted)} s`);
    }
    checks.push(await checkReadModels(rebuildPool, opts));

    // ---- 3. searches over HTTP, each topology in processes of its own, one after the other ----------
    const runs: (TopologyRun | undefined)[] = [];
    const failures: unknown[] = [];
    const failed = (what: string, error: unknown) => {
      failures.push(error);
      const message = error instanceof Error ? error.message : String(error);
      // The first line says what failed; the first error the server printed, why.
      const lines = message.split('\n');
      const cause = lines.slice(1).find((l) => /^\w*Error\b/.test(l.trim()));
      notes.push(`${what}: NOT MEASURED — ${lines[0]}${cause ? ` ${cause.trim()}` : ''}`);
      process.stderr.write(`  ${what} failed: ${error instanceof Error ? error.stack : message}\n`);
    };
    // BENCH_TOPOLOGIES=all-in-one (or split): one of them only, e.g. to profile it (BENCH_CPU_PROF_DIR).
    const chosen = process.env.BENCH_TOPOLOGIES?.split(',');
    for (const topology of TOPOLOGIES) {
      if (chosen && !chosen.includes(topology.name)) {
        runs.push(undefined);
        notes.push(`${topology.name}: not measured (BENCH_TOPOLOGIES=${chosen.join(',')})`);
        continue;
      }
      try {
        runs.push(await measureTopology(topology, { db, opts, owner, pool: rebuildPool, checks, notes }));
      } catch (error) {
        // The other topology's figures are still worth printing; the suite fails after the table.
        runs.push(undefined);
        failed(topology.name, error);
      }
    }

    // ---- 4. a read model added to the database: the all-in-one server started again, building it ----
    // BENCH_NEW_READ_MODEL: the projector made new (default broker_notes); `none` skips the phase.
    const added = process.env.BENCH_NEW_READ_MODEL ?? 'broker_notes';
    let build: BuildRun | undefined;
    if (added !== '' && added !== 'none') {
      try {
        build = await measureReadModelAdded(added, { db, opts, owner, pool: rebuildPool, checks, notes });
      } catch (error) {
        failed(`read model added (${added})`, error);
      }
    }

    const phaseRows = (group: PhaseGroup) => {
      const of = (run: TopologyRun | undefined) => run?.phases.filter((p) => p.group === group) ?? [];
      const listed = of(runs.find((r) => r !== undefined));
      listed.forEach(({ label }, i) => {
        const at = runs.map((run) => of(run)[i]);
        rows.push([`  ${label}`, ...at.flatMap((phase) => (phase ? phaseCells(phase) : blank(GROUP)))]);
        const results = at.flatMap((phase) => (phase ? [phase.result] : []));
        if (results.some((r) => r.byKind.size > 1) || label.startsWith('keyword')) {
          const kinds = [...new Set(results.flatMap((r) => [...r.byKind.keys()]))].sort((a, b) =>
            a.localeCompare(b),
          );
          for (const kind of kinds) {
            const byRun = at.map((phase) => phase?.result.byKind.get(kind));
            // The same requests (one seed) to both: shares and outcomes differ only by what each run got to.
            const described = TOPOLOGIES.map((t, j) => {
              const k = byRun[j];
              const result = at[j]?.result;
              return k && result
                ? {
                    topology: t.name,
                    text: `${formatShare(k.count, result.requests)} of searches, ${formatOutcomes(k.outcomes)}`,
                  }
                : undefined;
            }).filter((d) => d !== undefined);
            const texts = [...new Set(described.map((d) => d.text))];
            rows.push([
              `    ${kind}: ${texts.length === 1 ? texts[0] : described.map((d) => `${d.text} (${d.topology})`).join('; ')}`,
              ...byRun.flatMap((k) =>
                k
                  ? [
                      '',
                      formatMs(percentile(k.latencies, 0.5)),
                      formatMs(percentile(k.latencies, 0.99)),
                      '',
                      '',
                    ]
                  : blank(GROUP),
              ),
            ]);
          }
        }
        at.forEach((phase, j) => {
          const run = runs[j]!;
          if (phase?.result.cpu)
            rows.push([`    ${formatCpu(run, phase)}`, ...blank(GROUP * TOPOLOGIES.length)]);
          for (const [key, e] of phase?.result.errors ?? [])
            notes.push(
              `${TOPOLOGIES[j]!.name}: ${group === 'partner' ? 'partner API ' : ''}${label}: ${e.count} × ${key}, e.g. ${e.example}`,
            );
        });
      });
    };
    rows.push({
      section:
        'the floor: an authenticated route that reads one index, with the same CPU accounting as the ' +
        'searches (the server in processes of its own: all-in-one, then split, on the same database)',
    });
    phaseRows('floor');
    rows.push({
      section:
        'searches over HTTP (GET /api/search/merchants; same servers; CPU per search also as a multiple of ' +
        "the floor's, server + PostgreSQL)",
    });
    phaseRows('search');
    rows.push({
      section:
        'partner API searches over HTTP (GET /api/v2/merchants/{ein} with an API token, rate-limited per ' +
        `API user at ${formatCount(BENCH_RATE_LIMIT_PER_MINUTE)}/min; same servers, merchants and EINs)`,
    });
    phaseRows('partner');
    rows.push({
      section:
        'live projection lag (commands appended through the event store at a fixed rate, each an add of a ' +
        'merchant with its note: 3 events on 2 streams; from its commit to the progress notice that every ' +
        'projector of the event log has applied it), with mixed searches over one connection beside it',
    });
    rows.push([
      `  ${formatCount(lagRate())} commands/s: commands/s sent, lag p50, p99, unapplied or failed`,
      ...runs.flatMap((run) => (run ? lagCells(run.lag, TARGETS.lagP99Ms) : blank(GROUP))),
    ]);
    if (build) {
      const b = build;
      rows.push({
        section:
          `a read model added to the database (${b.projector}: its checkpoint deleted, the all-in-one server ` +
          "started again; the runner builds it from the log's start on a catching-up group, beside the live " +
          'one, then it joins): commands appended at the lag rate once the server answers, without searches',
      });
      rows.push(
        once(
          `  lag of the ${b.others} other read models of the event log while it built: ` +
            `${formatCount(b.whileBuilding.length)} commands of ${formatCount(b.lag.planned)}`,
          lagCells({ ...b.lag, lags: b.whileBuilding }, TARGETS.buildingLagP99Ms),
        ),
      );
      rows.push(
        once(
          `  ${b.projector} built in ${formatSeconds(b.builtSeconds)} after the server's start (ready after ` +
            `${b.readySeconds.toFixed(1)} s); GET ${b.route}: ${describeAnswers(b)}`,
          ['', '', '', '', answersVerdict(b).text],
        ),
      );
    }

    // With no server running: the machine is as quiet as the bench can make it.
    process.stderr.write('  EXPLAIN ANALYZE of the search queries…\n');
    const explained = await explainQueries(rebuildPool, opts, owner);

    printLatencyComparison(
      TOPOLOGIES.map((t) => t.heading),
      rows,
      checks,
      notes,
    );
    console.log(`\n${targetTable(runs, replay, build)}`);
    console.log(`\n${explained}`);
    if (failures.length > 0) throw failures[0];
  } finally {
    for (const p of pools) await p.end().catch(() => undefined);
    if (opts.keepDatabase) console.log(`kept:   ${db.url}`);
    else await db.drop();
  }
}

/** The two ways the product runs, measured one after the other on the same database. */
interface Topology {
  name: 'all-in-one' | 'split';
  /** Over the topology's columns. */
  heading: string;
  /** What starts it, as its npm script does. */
  entry: string;
  /** The followers of the logs that must have reached their head before a measurement. */
  followers: readonly string[];
  followersText: string;
}

const SPLIT_SERVICES = ['command-api', 'query-api', 'projections', 'webhook-dispatcher'] as const;

const FOLLOWERS_TEXT =
  `every follower of the logs (the projections' live groups, ${allProjectors.length} projectors, the ` +
  "webhook intake, the being-shopped and search-watch readers of projections' feeds, the mail outbox)";

const TOPOLOGIES: Topology[] = [
  {
    name: 'all-in-one',
    heading: 'all-in-one (npm start: server/src/main.ts)',
    entry: 'server/src/main.ts',
    // Every follower: the rebuild set the projectors' checkpoints at the head, but a reused database may
    // lack a read model added since (it catches up on a group of its own when the server starts).
    followers: ALL_FOLLOWERS,
    followersText: FOLLOWERS_TEXT,
  },
  {
    name: 'split',
    heading: 'split (npm run start:split: server/src/split-main.ts)',
    entry: 'server/src/split-main.ts',
    // After the all-in-one's searches the projections' search group may have searches left to apply.
    followers: ALL_FOLLOWERS,
    followersText: FOLLOWERS_TEXT,
  },
];

/** The latency columns of one topology: per s, p50, p99, errors, target. */
const GROUP = 5;

const blank = (n: number): string[] => Array.from({ length: n }, () => '');

/** A figure measured once, not per topology: in the first topology's columns. */
const once = (label: string, cells: string[]): string[] => [
  label,
  ...cells,
  ...blank(GROUP * TOPOLOGIES.length - cells.length),
];

/** Where a phase's row goes: the floor, the dashboard's searches, the partner API's. */
type PhaseGroup = 'floor' | 'search' | 'partner';

/** The phases the issue's targets name. */
type PhaseId =
  | 'floor'
  | 'ein-saturated'
  | 'keyword-saturated'
  | 'mixed'
  | 'ein-1'
  | 'keyword-1'
  | 'partner-saturated'
  | 'partner-4'
  | 'partner-1';

interface Phase {
  label: string;
  result: LoadResult;
  group: PhaseGroup;
  id?: PhaseId;
  /** The dashboard's EIN search p99 at the same connections (the partner API's phases). */
  dashboardP99?: number;
  p99Target?: number;
  /** How the target is written when it is not a fixed figure (the partner API's: relative). */
  p99TargetText?: string;
  rateTarget?: number;
}

interface TopologyRun {
  topology: Topology;
  phases: Phase[];
  lag: LagResult;
  /** What the CPU line calls the server: one process, or the split topology's launcher and services. */
  server: string;
  seesPostgres: boolean;
}

function phaseCells({ result, p99Target, p99TargetText, rateTarget }: Phase): string[] {
  const p99 = percentile(result.latencies, 0.99);
  return [
    formatCount(result.perSecond),
    formatMs(percentile(result.latencies, 0.5)),
    formatMs(p99),
    formatErrors(result),
    p99Target !== undefined
      ? verdict(p99 <= p99Target, p99TargetText ?? `p99 ≤ ${p99Target} ms`)
      : rateTarget !== undefined
        ? verdict(result.perSecond >= rateTarget, `≥ ${formatCount(rateTarget)}/s`)
        : '',
  ];
}

/** Server and PostgreSQL CPU per request of a phase, in ms; undefined when PostgreSQL's is not seen here. */
function serverCpuPerRequest(run: TopologyRun, phase: Phase | undefined): number | undefined {
  const cpu = phase?.result.cpu;
  if (!cpu || !run.seesPostgres || phase.result.requests === 0) return undefined;
  return (cpu.serverMs + cpu.postgresMs) / phase.result.requests;
}

const phaseOf = (run: TopologyRun | undefined, id: PhaseId): Phase | undefined =>
  run?.phases.find((p) => p.id === id);

/** The lag columns: commands/s sent, p50, p99, unapplied or failed, the verdict. */
function lagCells(lag: LagResult, p99Target: number): string[] {
  // None measured: a read model added that was built before the first command committed.
  if (lag.lags.length === 0)
    return [formatCount(lag.perSecond), '—', '—', String(lag.unapplied), 'none measured'];
  const p99 = percentile(lag.lags, 0.99);
  return [
    formatCount(lag.perSecond),
    formatMs(percentile(lag.lags, 0.5)),
    formatMs(p99),
    String(lag.unapplied),
    verdict(lagOk(lag, p99Target), `p99 ≤ ${formatCount(p99Target)} ms, sent in full`),
  ];
}

/** The lag's target: p99 within it, the commands sent in full (at the rate, none failed), all applied. */
const lagOk = (lag: LagResult, p99Target: number): boolean =>
  lag.lags.length > 0 && percentile(lag.lags, 0.99) <= p99Target && sentInFull(lag) && lag.unapplied === 0;

const sentInFull = (lag: LagResult): boolean =>
  lag.failed === 0 && lag.perSecond >= TARGETS.sentShare * lagRate();

/**
 * Starts the topology on the bench database, waits until it is ready and its followers of the logs have
 * reached the head, signs in, runs the floor and every search phase against it over HTTP and stops it
 * again (all its processes). Its checks and notes are added, named by the topology.
 */
async function measureTopology(
  topology: Topology,
  ctx: {
    db: BenchDatabase;
    opts: SearchBenchOptions;
    owner: Owner;
    pool: Pool;
    checks: string[];
    notes: string[];
  },
): Promise<TopologyRun> {
  const { db, opts, owner, pool } = ctx;
  const name = topology.name;
  const note = (text: string) => ctx.notes.push(`${name}: ${text}`);
  const port = await freePort(opts.port);
  process.stderr.write(`  ${name}: starting ${topology.entry} on port ${port}…\n`);
  const child = await startServerProcess({
    databaseUrl: db.url,
    port,
    entry: topology.entry,
    env: benchServerEnv(),
    ...(name === 'split'
      ? {
          // Its gateway answers /health as soon as it listens; /ready once every process behind it is.
          readySeconds: 300,
          ready: splitReady,
        }
      : {}),
  });
  try {
    const baseUrl = `http://127.0.0.1:${port}`;
    process.stderr.write(`  ${name}: waiting for the followers of the logs to reach their head…\n`);
    const caughtUp = await waitForCheckpoints(pool, topology.followers, 3600);
    note(
      `${topology.followersText} read the logs to their head in ${caughtUp.toFixed(0)} s after start-up, ` +
        'before any measurement',
    );
    let server = 'server';
    if (name === 'split') {
      const processes = serviceProcesses(child.process.pid ?? -1, SPLIT_SERVICES);
      const count = [...processes.values()].reduce((n, pids) => n + pids.length, 0);
      server = `server (${count + 1} processes)`;
      note(
        `a gateway (the launcher's own process) in front of ${[...processes].map(([s, pids]) => `${pids.length} × ${s}`).join(', ')} ` +
          `(split-main's defaults: a command-api and a query-api process per core); its CPU is all ${count + 1}`,
      );
    }
    const token = await untilSignedIn(baseUrl);
    const apiToken = await partnerApiToken(baseUrl, token, owner, pool);
    const backend = (await pool.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    const meter = new CpuMeter(child.process.pid ?? -1, backend);
    note(`load average (1/5/15 min) before the HTTP phases: ${formatLoad()}`);

    // The same seed for each topology: both are sent the same searches.
    const rng = new Rng(0x5eed);
    const einRequest = (checkEvery: number): LoadRequest => {
      const ein = einOf(Math.floor(rng.next() * opts.merchants));
      return {
        path: `/api/search/merchants?search=${ein}`,
        kind: 'EIN',
        // Parsing every answer would load the client; every nth proves the right merchant comes back.
        ...(rng.next() < 1 / checkEvery ? { check: (body: string) => einFound(body, ein) } : {}),
      };
    };
    const keywordRequest = (): LoadRequest => {
      const { term, kind } = keywordTerm(rng);
      return {
        path: `/api/search/merchants?search=${encodeURIComponent(term)}`,
        kind: `keyword, ${kind}`,
        keepBody: true,
      };
    };
    // The partner API's EIN search: the same merchants, as an integration calls it with its API token.
    const partnerEinRequest = (checkEvery: number): LoadRequest => {
      const ein = einOf(Math.floor(rng.next() * opts.merchants));
      return {
        path: buildPath(routes.partnerSearchMerchants.path, { key: ein }),
        kind: 'EIN',
        ...(rng.next() < 1 / checkEvery ? { check: (body: string) => einFound(body, ein) } : {}),
      };
    };
    // The floor: the funder's own user record.
    const floorPath = buildPath(routes.getUser.path, { id: owner.userId });
    const floorRequest = (): LoadRequest => ({
      path: floorPath,
      kind: 'floor',
      ...(rng.next() < 1 / 64 ? { check: (body: string) => userFound(body, owner.userId) } : {}),
    });
    const load = (concurrency: number, seconds: number, next: () => LoadRequest, as = token) =>
      runLoad({ baseUrl, token: as, concurrency, seconds, warmupSeconds: opts.warmupSeconds, next, meter });

    const recordedBefore = await countRecordedSearches(pool, owner.accountId);
    let searchesSent = 0;
    const phases: Phase[] = [];
    const phase = async (
      label: string,
      concurrency: number,
      seconds: number,
      next: () => LoadRequest,
      more: Omit<Phase, 'label' | 'result' | 'group'> & { group?: PhaseGroup } = {},
    ) => {
      const group = more.group ?? 'search';
      process.stderr.write(`  ${name}: ${group === 'partner' ? 'partner API ' : ''}${label}…\n`);
      const result = await load(concurrency, seconds, next, group === 'partner' ? apiToken : token);
      // Every search answered is recorded; the floor is no search.
      if (group !== 'floor') searchesSent += result.sent;
      phases.push({ label, result, ...more, group });
      return result;
    };
    // The partner API's EIN search against the dashboard's just measured with as many connections.
    const relativeTo = (dashboard: LoadResult) => {
      const p99 = percentile(dashboard.latencies, 0.99);
      return {
        group: 'partner' as const,
        dashboardP99: p99,
        p99Target: TARGETS.partnerP99Ratio * p99,
        p99TargetText: `p99 ≤ ${TARGETS.partnerP99Ratio} × dashboard (${formatMs(p99)} ms)`,
      };
    };
    // BENCH_LAG_ONLY=1: the lag phase alone (to look at the projections under commands).
    if (!process.env.BENCH_LAG_ONLY) {
      const c = opts.concurrency;
      // The floor first, with as many connections as the searches' CPU figures: what any authenticated
      // request costs the server and PostgreSQL, to which a search's cost is compared.
      await phase(`${FLOOR_LABEL}, ${c} connections`, c, opts.seconds, floorRequest, {
        group: 'floor',
        id: 'floor',
      });
      // Throughput: every connection sends its next search as soon as the last is answered, so the
      // latency here is mostly queueing (with c searches in flight it is at least c / throughput).
      const ein16 = await phase(
        `EIN search, ${c} connections (saturated)`,
        c,
        opts.seconds,
        () => einRequest(64),
        { id: 'ein-saturated', p99Target: TARGETS.einSaturatedP99Ms },
      );
      // Beside the dashboard's: the partner API's EIN search adds its rate-limit count (one statement on
      // the API user's row, which every call of that user updates) and the partner envelope.
      await phase(`EIN search, ${c} connections (saturated)`, c, opts.seconds, () => partnerEinRequest(64), {
        id: 'partner-saturated',
        ...relativeTo(ein16),
      });
      await phase(`keyword search, ${c} connections (saturated)`, c, opts.seconds, keywordRequest, {
        id: 'keyword-saturated',
        p99Target: TARGETS.keywordSaturatedP99Ms,
      });
      await phase(
        `mixed ${Math.round(opts.einShare * 100)}% EIN / ${Math.round((1 - opts.einShare) * 100)}% keyword, ${c} connections`,
        c,
        opts.seconds,
        () => (rng.next() < opts.einShare ? einRequest(256) : keywordRequest()),
        { id: 'mixed', rateTarget: TARGETS.searchesPerSecond },
      );
      // Latency with a few and with one search in flight: what a search costs when it does not queue.
      const quiet = Math.max(2, opts.seconds / 2);
      // The issue sets no figure at 4 connections: printed to show how latency grows with them.
      const ein4 = await phase('EIN search, 4 connections', 4, quiet, () => einRequest(16));
      await phase('EIN search, 4 connections', 4, quiet, () => partnerEinRequest(16), {
        id: 'partner-4',
        ...relativeTo(ein4),
      });
      await phase('keyword search, 4 connections', 4, quiet, keywordRequest);
      const ein1 = await phase('EIN search, 1 connection', 1, quiet, () => einRequest(16), {
        id: 'ein-1',
        p99Target: TARGETS.einP99Ms,
      });
      await phase('EIN search, 1 connection', 1, quiet, () => partnerEinRequest(16), {
        id: 'partner-1',
        ...relativeTo(ein1),
      });
      await phase('keyword search, 1 connection', 1, quiet, keywordRequest, {
        id: 'keyword-1',
        p99Target: TARGETS.keywordP99Ms,
      });
    }

    // Live projection lag: commands at a fixed rate while searches run.
    process.stderr.write(`  ${name}: projection lag, ${formatCount(lagRate())} commands/s and searches…\n`);
    let duringSearches: LoadResult | undefined;
    // Searches beside the commands, one connection by default: a closed loop of more takes every core
    // there is, and the projectors would be measured on what the searches leave them.
    const searchConnections = Number(process.env.BENCH_LAG_SEARCH_CONNECTIONS ?? 1);
    const lagSeconds = opts.lagSeconds ?? opts.seconds;
    const lag = await commandLag(db, pool, owner, {
      seconds: lagSeconds,
      warmupSeconds: opts.warmupSeconds,
      projectors: EVENT_LOG_PROJECTORS,
      during: async () => {
        if (searchConnections === 0) return;
        duringSearches = await runLoad({
          baseUrl,
          token,
          concurrency: searchConnections,
          seconds: lagSeconds,
          warmupSeconds: opts.warmupSeconds,
          next: () => (rng.next() < opts.einShare ? einRequest(256) : keywordRequest()),
        });
      },
    });
    searchesSent += duringSearches?.sent ?? 0;
    note(
      `projection lag: ${formatCount(lag.commands)} commands appended in ${lagSeconds} s beside ` +
        `${formatCount(duringSearches?.requests ?? 0)} mixed searches (${searchConnections} connection(s), ` +
        `${formatCount(duringSearches?.perSecond ?? 0)}/s)${lagBySlice(lag)}`,
    );

    // Every search is a fact of the search log (DESIGN §4): none may be lost on the way.
    const recorded = (await countRecordedSearches(pool, owner.accountId)) - recordedBefore;
    ctx.checks.push(
      `${name}: ${formatCount(searchesSent)} searches answered 200/404, ${formatCount(recorded)} recorded in the search log` +
        (recorded === searchesSent ? '' : ' — MISMATCH!'),
    );
    return { topology, phases, lag, server, seesPostgres: meter.seesPostgres };
  } finally {
    await stopServer(name, child);
  }
}

/**
 * Lag p50/p99 by 10-s slice of the run (from 20 s): the first seconds after a checkpoint write a full
 * image of every index page a command first touches, so where the slow commands fall says whether the
 * p99 is that storm or the steady state.
 */
function lagBySlice(lag: LagResult): string {
  const first = lag.samples[0]?.committedAt;
  const last = lag.samples[lag.samples.length - 1]?.committedAt;
  if (first === undefined || last === undefined || last - first < 20_000) return '';
  const slices: string[] = [];
  for (let from = first; from <= last; from += 10_000) {
    const ms = lag.samples
      .filter((x) => x.committedAt >= from && x.committedAt < from + 10_000)
      .map((x) => x.ms)
      .sort((a, b) => a - b);
    if (ms.length > 0) slices.push(`${formatMs(percentile(ms, 0.5))}/${formatMs(percentile(ms, 0.99))}`);
  }
  return `; lag p50/p99 ms by 10 s: ${slices.join(', ')}`;
}

/** The server's environment besides the database and port (startServerProcess's production settings). */
const benchServerEnv = (): Record<string, string> => ({
  ADMIN_EMAIL,
  ADMIN_PASSWORD: PASSWORD,
  RATE_LIMIT_API_PER_MINUTE: String(BENCH_RATE_LIMIT_PER_MINUTE),
});

async function stopServer(name: string, child: ServerProcess): Promise<void> {
  process.stderr.write(`  ${name}: stopping…\n`);
  const output = await child.stop();
  if (output.trim()) process.stderr.write(`  ${name} server output (warn and above):\n${indent(output)}\n`);
}

/** The projectors a command changes: those of the event log (the search log's read searches). */
const EVENT_LOG_PROJECTORS = allProjectors.filter((p) => logOf(p) === 'events').map((p) => p.name);

/** Commands at the lag rate on a pool of their own (`measureProjectionLag`), new merchants from the log's count. */
async function commandLag(
  db: BenchDatabase,
  pool: Pool,
  owner: Owner,
  opts: {
    seconds: number;
    warmupSeconds: number;
    projectors: readonly string[];
    during?: () => Promise<unknown>;
  },
): Promise<LagResult> {
  const commandPool = createPool(db.url, 32);
  try {
    const firstMerchant = Number(
      // The EIN streams (each began with its EinReserved), counted on the stream index: a count by type
      // read the whole log (1.9 s of a core) just before the measurement.
      (
        await pool.query<{ n: string }>(
          "select count(*) as n from events where stream_id >= 'ein-' and stream_id < 'ein.' and revision = 0",
        )
      ).rows[0]!.n,
    );
    return await measureProjectionLag({
      databaseUrl: db.url,
      // With listenUrl it wakes the server's followers as command-api's store does (NOTIFY after each append).
      store: new PostgresEventStore(commandPool, { listenUrl: db.url }),
      owner,
      firstMerchant,
      ratePerSecond: lagRate(),
      ...opts,
    });
  } finally {
    await commandPool.end();
  }
}

/** What the read model added to the database gave. */
interface BuildRun {
  projector: string;
  /** The route that reads it, and the answers it gave while it built and after. */
  route: string;
  answers: {
    building: Map<number, number>;
    after: number[];
    /** Seconds from the server's start: the first and last answer while it built, the first after. */
    buildingFrom?: number;
    buildingTo?: number;
    afterFrom?: number;
  };
  /** The other read models of the event log, whose lag was measured. */
  others: number;
  /** From the server process's start until the server answered, and until the read model joined. */
  readySeconds: number;
  builtSeconds: number | undefined;
  lag: LagResult;
  /** Lags (sorted) of the commands committed while it built. */
  whileBuilding: number[];
}

/**
 * Issue 31: a read model added to the database is built beside the live ones, which keep their lag,
 * and answers only once complete. The projector's checkpoint row is deleted (as a database that never
 * had it): the all-in-one server started on it empties its tables and builds it from the log's start on
 * a catching-up group; it then joins the live group. Once the server answers, commands go in at the lag
 * rate (no warm-up: the build began with the server's start) and the other read models of the event log are
 * timed; a route that reads it is asked every 100 ms, each answer compared with the checkpoint's
 * `building` read after it: 503 while building, 200 once joined.
 */
async function measureReadModelAdded(
  name: string,
  ctx: {
    db: BenchDatabase;
    opts: SearchBenchOptions;
    owner: Owner;
    pool: Pool;
    checks: string[];
    notes: string[];
  },
): Promise<BuildRun> {
  const { db, opts, owner, pool } = ctx;
  const projector = allProjectors.find((p) => p.name === name);
  if (!projector)
    throw new Error(
      `BENCH_NEW_READ_MODEL=${name}: no such projector (${allProjectors.map((p) => p.name).join(', ')})`,
    );
  const route = (Object.values(routes) as RouteSpec[]).find(
    (r) =>
      r.method === 'GET' &&
      !r.path.includes(':') &&
      ((r.readModels ?? []) as readonly string[]).includes(name),
  );
  if (!route) throw new Error(`No GET route without parameters reads ${name}: its answers cannot be checked`);
  const { rows } = await pool.query<{ n: string }>('select count(*) as n from events where type = any($1)', [
    handledTypes(projector),
  ]);
  await pool.query('delete from subscription_checkpoints where name = $1', [name]);
  const others = EVENT_LOG_PROJECTORS.filter((p) => p !== name);
  const label = `read model added (${name})`;
  const port = await freePort(opts.port);
  process.stderr.write(`  ${label}: starting server/src/main.ts on port ${port}…\n`);
  const started = performance.now();
  const child = await startServerProcess({ databaseUrl: db.url, port, env: benchServerEnv() });
  const readySeconds = (performance.now() - started) / 1000;
  try {
    const baseUrl = `http://127.0.0.1:${port}`;
    let builtAt: number | undefined;
    let stop = false;
    // The row is made again, building, by the runner's start; built once it is there and no longer building.
    const isBuilding = async () => {
      const state = (await readCheckpointStates(pool, [name])).get(name);
      const building = state === undefined || state.building;
      if (!building) builtAt ??= performance.now();
      return building;
    };
    const answers: BuildRun['answers'] = { building: new Map(), after: [] };
    const since = () => (performance.now() - started) / 1000;
    const asking = (async () => {
      const token = await untilSignedIn(baseUrl);
      while (!stop && answers.after.length < 3) {
        const res = await fetch(new URL(route.path, baseUrl), {
          headers: { authorization: `Bearer ${token}` },
        });
        await res.arrayBuffer();
        if (await isBuilding()) {
          answers.building.set(res.status, (answers.building.get(res.status) ?? 0) + 1);
          answers.buildingFrom ??= since();
          answers.buildingTo = since();
        } else {
          answers.after.push(res.status);
          answers.afterFrom ??= since();
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    try {
      process.stderr.write(`  ${label}: commands at ${formatCount(lagRate())}/s while it builds…\n`);
      const lag = await commandLag(db, pool, owner, {
        seconds: opts.seconds,
        warmupSeconds: 0,
        projectors: others,
      });
      const deadline = performance.now() + 3600_000;
      while ((await isBuilding()) && performance.now() < deadline)
        await new Promise((r) => setTimeout(r, 200));
      // A few answers once it has joined (the route is asked until then).
      const asked = performance.now() + 30_000;
      while (answers.after.length < 3 && performance.now() < asked)
        await new Promise((r) => setTimeout(r, 100));
      stop = true;
      await asking;
      const whileBuilding = lag.samples
        .filter((s) => builtAt === undefined || s.committedAt <= builtAt)
        .map((s) => s.ms)
        .sort((a, b) => a - b);
      ctx.notes.push(
        `${label}: ${formatCount(Number(rows[0]!.n))} events of the ${handledTypes(projector).length} types it ` +
          `handles in the event log; ${formatCount(lag.commands)} commands in ${opts.seconds} s once the server ` +
          `answered, ${formatCount(whileBuilding.length)} of them committed before it joined the live group` +
          (whileBuilding.length < lag.lags.length
            ? `; all ${formatCount(lag.lags.length)}: p99 ${formatMs(percentile(lag.lags, 0.99))} ms`
            : ''),
      );
      return {
        projector: name,
        route: route.path,
        answers,
        others: others.length,
        readySeconds,
        builtSeconds: builtAt === undefined ? undefined : (builtAt - started) / 1000,
        lag,
        whileBuilding,
      };
    } finally {
      stop = true;
      await asking.catch(() => undefined);
    }
  } finally {
    await stopServer(label, child);
  }
}

const formatSeconds = (s: number | undefined) =>
  s === undefined ? 'NOT within the hour' : `${s.toFixed(1)} s`;

/**
 * The route's answers while it built, then after, and when (seconds from the server's start):
 * "503 × 12 while building (4.1–9.8 s), then 200 × 3 (from 10.0 s)".
 */
function describeAnswers(b: BuildRun): string {
  const { buildingFrom, buildingTo, afterFrom } = b.answers;
  const building = [...b.answers.building].map(([status, n]) => `${status} × ${n}`).join(', ');
  const after = [...new Set(b.answers.after)].map(
    (s) => `${s} × ${b.answers.after.filter((x) => x === s).length}`,
  );
  return (
    `${building || 'no answer'} while building` +
    (buildingFrom !== undefined ? ` (${buildingFrom.toFixed(1)}–${buildingTo!.toFixed(1)} s)` : '') +
    `, then ${after.join(', ') || 'no answer'}` +
    (afterFrom !== undefined ? ` (from ${afterFrom.toFixed(1)} s)` : '')
  );
}

/** 503 and nothing else while it built, at least once; 200 once joined. Unverified when built before the first answer. */
function answersVerdict(b: BuildRun): { ok: boolean | undefined; text: string } {
  const building = [...b.answers.building];
  const after = b.answers.after;
  const afterOk = after.length > 0 && after.every((s) => s === 200);
  if (building.length === 0)
    return {
      ok: undefined,
      text: `503 while building: not seen (built first)${afterOk ? ', 200 after' : ''}`,
    };
  const ok = building.every(([status]) => status === 503) && afterOk;
  return { ok, text: verdict(ok, '503 while building, 200 after') };
}

/** The funder's session, once sign-in works: in the split topology, through the gateway to a command-api. */
async function untilSignedIn(baseUrl: string): Promise<string> {
  for (let waited = 0; ; waited += 500) {
    try {
      return await signInAsFunder(baseUrl);
    } catch (error) {
      if (waited >= 60_000) throw error;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

async function checkReadModels(pool: Pool, opts: SearchBenchOptions): Promise<string> {
  const { rows } = await pool.query<{ merchants: number; notes: number; last: number }>(
    `select (select count(*) from read.merchants) as merchants, (select count(*) from read.notes) as notes,
            (select count(*) from read.merchants where last_note_category is not null) as last`,
  );
  const r = rows[0]!;
  const ok = r.merchants === opts.merchants && r.notes === opts.notes && r.last === opts.merchants;
  return (
    `read models: ${formatCount(r.merchants)} merchants, ${formatCount(r.notes)} notes, ` +
    `${formatCount(r.last)} with a last note category${ok ? '' : ' — EXPECTED OTHERWISE!'}`
  );
}

async function describeTables(pool: Pool): Promise<string> {
  const { rows } = await pool.query<{
    name: string;
    live: number;
    dead: number;
    updated: number;
    hot: number;
    heap: string;
    indexes: string;
  }>(
    `select relname as name, n_live_tup as live, n_dead_tup as dead, n_tup_upd as updated, n_tup_hot_upd as hot,
            pg_size_pretty(pg_table_size(relid)) as heap, pg_size_pretty(pg_indexes_size(relid)) as indexes
       from pg_stat_user_tables
      where relname in ('merchants', 'notes', 'events', 'merchant_words', 'merchant_keywords') order by relname`,
  );
  return `sizes after the rebuild: ${rows
    .map(
      (r) =>
        `${r.name} ${r.heap} + ${r.indexes} indexes (${formatCount(r.live)} live, ${formatCount(r.dead)} dead rows` +
        (r.updated > 0 ? `, ${formatCount(r.updated)} updates of which ${formatCount(r.hot)} HOT)` : ')'),
    )
    .join('; ')}`;
}

/** The account's searches recorded in the search log (the dashboard's and the partner API's alike). */
async function countRecordedSearches(pool: Pool, accountId: string): Promise<number> {
  const { rows } = await pool.query<{ n: string }>(
    'select count(*) as n from search_log where account_id = $1',
    [accountId],
  );
  return Number(rows[0]!.n);
}

/** The seeded funder's session; the keyword cap measured is PRO's. */
async function signInAsFunder(baseUrl: string): Promise<string> {
  const { jwt, user } = await signIn(baseUrl, FUNDER_EMAIL, PASSWORD);
  if (user.plan_level !== 'PRO') throw new Error(`The funder should be PRO, is ${user.plan_level}`);
  return jwt;
}

/**
 * An API token for the funder, as a partner gets one: a platform administrator grants the account
 * API access, the funder (its administrator) grants herself credentials, and exchanges them at
 * POST /api/v2/token. On a reused database the grants may exist already: the key is regenerated.
 */
async function partnerApiToken(
  baseUrl: string,
  funderToken: string,
  owner: Owner,
  pool: Pool,
): Promise<string> {
  const put = async (path: string, token: string) => {
    const res = await fetch(new URL(path, baseUrl), {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}` },
    });
    return { status: res.status, json: (await res.json().catch(() => null)) as { data?: unknown } | null };
  };
  const { jwt: adminToken } = await signIn(baseUrl, ADMIN_EMAIL, PASSWORD);
  const account = await put(
    buildPath(routes.grantAccountApiAccess.path, { id: owner.accountId }),
    adminToken,
  );
  if (account.status >= 500) throw new Error(`Granting the account API access failed: ${account.status}`);
  let credentials = await put(buildPath(routes.grantUserApiAccess.path, { id: owner.userId }), funderToken);
  if (credentials.status !== 200) {
    credentials = await put(buildPath(routes.regenerateApiKey.path, { id: owner.userId }), funderToken);
  }
  if (credentials.status !== 200) {
    throw new Error(`No API credentials: ${credentials.status} ${JSON.stringify(credentials.json)}`);
  }
  const auth = credentials.json?.data as { authentication_token: string };
  // The token call finds the credentials through the users read model: wait for the grant to reach it.
  for (let waited = 0; ; waited += 100) {
    const { rowCount } = await pool.query('select 1 from read.users where id = $1 and api_token = $2', [
      owner.userId,
      auth.authentication_token,
    ]);
    if (rowCount) break;
    if (waited > 30_000) throw new Error('The API grant did not reach the users read model in 30 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  const issued = await postJson(baseUrl, routes.getApiToken.path, { auth });
  const apiToken = (issued.json as { data?: { token?: string } } | null)?.data?.token;
  if (issued.status !== 200 || !apiToken) {
    throw new Error(`No API token: ${issued.status} ${JSON.stringify(issued.json)}`);
  }
  return apiToken;
}

function userFound(body: string, userId: string): boolean {
  return (JSON.parse(body) as { data?: { id?: string } }).data?.id === userId;
}

function einFound(body: string, ein: string): boolean {
  const data = (JSON.parse(body) as { data?: { fein?: string }[] }).data;
  return data?.length === 1 && data[0]?.fein === ein;
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of the statements one search runs, with sample terms, timed warm: the
 * session check (platform/src/http/authenticate.ts) and the statements of query-api's search handler,
 * imported from where the server runs them.
 */
async function explainQueries(pool: Pool, opts: SearchBenchOptions, owner: Owner): Promise<string> {
  const rng = new Rng(0xe7);
  const { rows: session } = await pool.query<{ id: string; user_id: string }>(
    'select id, user_id from auth_sessions where user_id = $1 limit 1',
    [owner.userId],
  );
  const keyword = (kind: string) => {
    for (;;) {
      const k = keywordTerm(rng);
      if (k.kind === kind) return k.term;
    }
  };
  const scan = (term: string) => ({
    label: `keyword scan '${term}'`,
    sql: SEARCH_STATEMENTS.keywordScan,
    params: keywordScan(keywordWords(term)),
  });
  // What the search runs for two words or more (the scan only past KEYWORD_CROWDED: the keyword suite).
  const intersection = (term: string) => ({
    label: `keyword intersection '${term}'`,
    sql: SEARCH_STATEMENTS.keywordPairs,
    params: [...keywordScan(keywordWords(term)), keywordKeys(keywordWords(term))],
  });
  // What a keyword search sends: one statement, the account's standing, the ids and their merchants.
  const withStanding = (term: string) => {
    const words = keywordWords(term);
    const keys = keywordKeys(words);
    return keys.length > 0
      ? {
          label: `keyword search '${term}' (intersection, standing and merchants in one statement)`,
          sql: SEARCH_STATEMENTS.keywordPairsWithStanding,
          params: [owner.accountId, ...keywordScan(words), keys],
        }
      : {
          label: `keyword search '${term}' (scan, standing and merchants in one statement)`,
          sql: SEARCH_STATEMENTS.keywordScanWithStanding,
          params: [owner.accountId, ...keywordScan(words)],
        };
  };
  const oneWord = keyword('one word');
  const misspelt = keyword('misspelt');
  const cases: { label: string; sql: string; params: unknown[] }[] = [
    {
      label: 'session check (a request whose session is not cached)',
      sql: SESSION_QUERY,
      params: [session[0]?.id ?? randomUUID(), owner.userId],
    },
    {
      // It writes: the bench's own key, so the measured API user's count is untouched.
      label: 'rate-limit count (partner API calls; one row per API user, one statement per burst of a key)',
      sql: RATE_LIMIT_TAKE,
      params: ['bench:explain', 60_000, 1],
    },
    {
      label: 'EIN and account standing (every EIN search)',
      sql: SEARCH_STATEMENTS.einWithStanding,
      params: [owner.accountId, einOf(Math.floor(rng.next() * opts.merchants))],
    },
    ...[keyword('two words'), keyword('two words')].flatMap((term) => [
      scan(term),
      intersection(term),
      withStanding(term),
    ]),
    ...[oneWord, keyword('one word')].flatMap((term) => [scan(term), withStanding(term)]),
    {
      label: `corrections of '${misspelt}' (when nothing matched)`,
      sql: SEARCH_STATEMENTS.corrections,
      params: [keywordWords(misspelt), keywordWords(misspelt).map((w) => keywordRange(w)[1])],
    },
  ];
  const lines = [
    "EXPLAIN (ANALYZE, BUFFERS) of one search's statements, best of 3 warm runs: execution + planning time",
    '(an unnamed statement pays its planning on every call, a named one once per connection):',
  ];
  const client = await pool.connect();
  try {
    // As the server plans them: prepared with parameters, so generic plans would show too.
    for (const c of cases) {
      let best = Number.POSITIVE_INFINITY;
      let bestPlanning = Number.NaN;
      let plan: string[] = [];
      for (let run = 0; run < 3; run++) {
        const { rows } = await client.query<{ 'QUERY PLAN': string }>(
          `explain (analyze, buffers) ${c.sql}`,
          c.params,
        );
        const text = rows.map((r) => r['QUERY PLAN']);
        const all = text.join('\n');
        const ms = Number(/Execution Time: ([\d.]+) ms/.exec(all)?.[1] ?? Number.NaN);
        const planning = Number(/Planning Time: ([\d.]+) ms/.exec(all)?.[1] ?? Number.NaN);
        if (ms < best || plan.length === 0) {
          best = ms;
          bestPlanning = planning;
          plan = text;
        }
      }
      const actualRows = /actual time=[\d.]+\.\.[\d.]+ rows=([\d.]+)/.exec(plan[0] ?? '')?.[1] ?? '?';
      const scans = plan
        .filter((l) => /Scan|Sort|Recheck|Heap Blocks|Buffers/.test(l))
        .slice(0, 4)
        .map((l) => l.trim().replace(/\s+/g, ' '));
      lines.push(
        `  ${formatMs(best).padStart(6)} + ${formatMs(bestPlanning).padStart(5)} ms  ${c.label} → ${actualRows} rows; ${scans.join(' | ')}`,
      );
      if (opts.explain) lines.push(indent(plan.join('\n'), 14));
    }
  } finally {
    client.release();
  }
  return lines.join('\n');
}

/** Statements that may outlast the pool's statement_timeout on a large database. */
async function maintenance(pool: Pool, statements: string[]): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('set statement_timeout = 0');
    for (const sql of statements) await client.query(sql);
    await client.query('reset statement_timeout');
  } finally {
    client.release();
  }
}

const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);

const formatLoad = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');

function formatCpu(run: TopologyRun, phase: Phase): string {
  const { seesPostgres } = run;
  const cpu = phase.result.cpu!;
  const requests = phase.result.requests;
  const per = (ms: number) => `${(ms / requests).toFixed(2)} ms`;
  const ours = cpu.clientMs + cpu.serverMs + (seesPostgres ? cpu.postgresMs : 0);
  const others = Math.max(0, cpu.machineBusyMs - ours);
  const pct = (ms: number) => `${Math.round((100 * ms) / Math.max(1, cpu.machineTotalMs))}%`;
  const what = phase.group === 'floor' ? 'request' : 'search';
  const served = serverCpuPerRequest(run, phase);
  const floor = serverCpuPerRequest(run, phaseOf(run, 'floor'));
  return (
    `CPU per ${what}, ${run.topology.name}: bench client ${per(cpu.clientMs)}, ${run.server} ${per(cpu.serverMs)}` +
    (seesPostgres ? `, Postgres ${per(cpu.postgresMs)}` : '') +
    (served !== undefined ? ` (server + Postgres ${served.toFixed(2)} ms` : '') +
    (served !== undefined && floor !== undefined && phase.group !== 'floor'
      ? `, ${formatRatio(served / floor)} the floor's)`
      : served !== undefined
        ? ')'
        : '') +
    `; machine ${pct(cpu.machineBusyMs)} busy, other processes ${pct(others)}`
  );
}

/**
 * Issue 31's targets in one table: each target, then per topology its figure and whether it passed (`—`
 * where not measured there; figures measured once are in the first topology's columns).
 */
function targetTable(
  runs: readonly (TopologyRun | undefined)[],
  replay: { rate: number; seconds: number } | undefined,
  build: BuildRun | undefined,
): string {
  type Cell = { figure: string; ok: boolean | undefined } | undefined;
  const rows: Row[] = [];
  const row = (target: string, cell: (run: TopologyRun) => Cell) =>
    rows.push([
      target,
      ...runs.flatMap((run) => {
        const c = run ? cell(run) : undefined;
        return c ? [c.figure, pass(c.ok)] : ['', '—'];
      }),
    ]);
  const onceRow = (target: string, c: Cell) =>
    rows.push([
      target,
      ...(c ? [c.figure, pass(c.ok)] : ['not measured', '—']),
      ...blank(2 * (runs.length - 1)),
    ]);
  const c = concurrencyOf(runs);
  const cpu = (id: PhaseId, limit: number) => (run: TopologyRun) => {
    const ms = serverCpuPerRequest(run, phaseOf(run, id));
    return ms === undefined ? undefined : { figure: `${ms.toFixed(2)} ms`, ok: ms <= limit };
  };
  const p99 = (id: PhaseId, limit: number) => (run: TopologyRun) => {
    const phase = phaseOf(run, id);
    if (!phase) return undefined;
    const ms = percentile(phase.result.latencies, 0.99);
    return { figure: `${formatMs(ms)} ms`, ok: ms <= limit };
  };
  const partner = (id: PhaseId) => (run: TopologyRun) => {
    const phase = phaseOf(run, id);
    if (!phase?.dashboardP99) return undefined;
    const ms = percentile(phase.result.latencies, 0.99);
    const ratio = ms / phase.dashboardP99;
    return {
      figure: `${formatMs(ms)} ms = ${formatRatio(ratio)} (${formatMs(phase.dashboardP99)} ms)`,
      ok: ratio <= TARGETS.partnerP99Ratio,
    };
  };
  rows.push({ section: 'CPU per search (server + PostgreSQL, as the CPU lines above)' });
  row(`  EIN search, ${c} connections: ≤ ${TARGETS.einCpuMs} ms`, cpu('ein-saturated', TARGETS.einCpuMs));
  row(
    `  EIN search, ${c} connections: ≤ ${TARGETS.einCpuFloorRatio} × the floor's (${FLOOR_LABEL})`,
    (run) => {
      const ein = serverCpuPerRequest(run, phaseOf(run, 'ein-saturated'));
      const floor = serverCpuPerRequest(run, phaseOf(run, 'floor'));
      if (ein === undefined || floor === undefined) return undefined;
      return {
        figure: `${formatRatio(ein / floor)} (floor ${floor.toFixed(2)} ms)`,
        ok: ein / floor <= TARGETS.einCpuFloorRatio,
      };
    },
  );
  row(
    `  keyword search, ${c} connections: ≤ ${TARGETS.keywordCpuMs} ms`,
    cpu('keyword-saturated', TARGETS.keywordCpuMs),
  );
  rows.push({ section: 'throughput and latency' });
  row(
    `  mixed 70% EIN / 30% keyword, ${c} connections: ≥ ${formatCount(TARGETS.searchesPerSecond)} searches/s`,
    (run) => {
      const phase = phaseOf(run, 'mixed');
      return phase
        ? {
            figure: `${formatCount(phase.result.perSecond)}/s`,
            ok: phase.result.perSecond >= TARGETS.searchesPerSecond,
          }
        : undefined;
    },
  );
  row(`  EIN search p99, 1 connection: ≤ ${TARGETS.einP99Ms} ms`, p99('ein-1', TARGETS.einP99Ms));
  row(
    `  EIN search p99, ${c} connections: ≤ ${TARGETS.einSaturatedP99Ms} ms`,
    p99('ein-saturated', TARGETS.einSaturatedP99Ms),
  );
  row(
    `  keyword search p99, 1 connection: ≤ ${TARGETS.keywordP99Ms} ms`,
    p99('keyword-1', TARGETS.keywordP99Ms),
  );
  row(
    `  keyword search p99, ${c} connections: ≤ ${TARGETS.keywordSaturatedP99Ms} ms`,
    p99('keyword-saturated', TARGETS.keywordSaturatedP99Ms),
  );
  for (const [id, n] of [
    ['partner-saturated', c],
    ['partner-4', 4],
    ['partner-1', 1],
  ] as const)
    row(
      `  partner API EIN p99, ${n} connection${n === 1 ? '' : 's'}: ≤ ${TARGETS.partnerP99Ratio} × the dashboard's`,
      partner(id),
    );
  rows.push({ section: 'projections' });
  onceRow(
    `  replay into every read model (both logs): ≥ ${formatCount(TARGETS.replayEventsPerSecond)} events/s`,
    replay && {
      figure: `${formatCount(replay.rate)} events/s`,
      ok: replay.rate >= TARGETS.replayEventsPerSecond,
    },
  );
  row(
    `  live lag p99 at ${formatCount(lagRate())} commands/s sent in full (≥ ${Math.round(TARGETS.sentShare * 100)}%) ` +
      `beside searches, 0 failed: ≤ ${TARGETS.lagP99Ms} ms`,
    (run) => ({ figure: describeLag(run.lag, run.lag.lags), ok: lagOk(run.lag, TARGETS.lagP99Ms) }),
  );
  onceRow(
    `  a read model added (${build?.projector ?? 'none'}): every other read model's lag p99 while it builds ≤ ` +
      `${formatCount(TARGETS.buildingLagP99Ms)} ms`,
    build && {
      figure: `${describeLag(build.lag, build.whileBuilding)}; built in ${formatSeconds(build.builtSeconds)}`,
      ok:
        build.whileBuilding.length === 0
          ? undefined
          : lagOk({ ...build.lag, lags: build.whileBuilding }, TARGETS.buildingLagP99Ms),
    },
  );
  onceRow(
    `  … and it answers only once complete (GET ${build?.route ?? '—'})`,
    build && { figure: describeAnswers(build), ok: answersVerdict(build).ok },
  );
  return `issue 31's targets:\n${renderTable(
    [
      { header: 'target' },
      ...runs.flatMap((_, j) => [{ header: `${TOPOLOGIES[j]!.name}: figure` }, { header: 'pass' }]),
    ],
    rows,
  )}`;
}

const pass = (ok: boolean | undefined) => (ok === undefined ? '?' : ok ? 'ok' : 'MISSED');

/** The saturated phases' connections, as their labels say. */
const concurrencyOf = (runs: readonly (TopologyRun | undefined)[]) =>
  /(\d+) connections/.exec(
    runs.find((r) => r)?.phases.find((p) => p.id === 'ein-saturated')?.label ?? '16 connections',
  )?.[1] ?? '16';

function describeLag(lag: LagResult, lags: number[]): string {
  if (lags.length === 0) return `no command measured, ${formatCount(lag.perSecond)}/s sent`;
  return (
    `p99 ${formatMs(percentile(lags, 0.99))} ms (${formatCount(lags.length)} commands), ` +
    `${formatCount(lag.perSecond)}/s sent, ${lag.failed} failed, ${lag.unapplied} unapplied`
  );
}

const verdict = (ok: boolean, target: string) => `${target} ${ok ? 'ok' : 'MISSED'}`;

const formatShare = (n: number, total: number) => `${((100 * n) / total).toFixed(0)}%`;

/** In one order whatever came first, so the topologies' outcomes read alike side by side. */
const OUTCOME_ORDER = ['found', 'over the cap', 'no match', 'error'];

function formatOutcomes(outcomes: Map<string, number>): string {
  const total = [...outcomes.values()].reduce((a, b) => a + b, 0);
  // Outcomes not listed go last.
  const rank = (o: string) => (OUTCOME_ORDER.includes(o) ? OUTCOME_ORDER.indexOf(o) : OUTCOME_ORDER.length);
  return [...outcomes]
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([o, n]) => `${formatShare(n, total)} ${o}`)
    .join(', ');
}

function formatErrors(r: LoadResult): string {
  let n = 0;
  for (const e of r.errors.values()) n += e.count;
  return formatCount(n);
}

const indent = (text: string, by = 4) =>
  text
    .split('\n')
    .map((l) => `${' '.repeat(by)}${l}`)
    .join('\n');
