import { createHash } from 'node:crypto';
import { loadAccount, openAccount } from '@mrn/command-api';
import { type RouteSpec, routes } from '@mrn/contracts';
import { createPool, type Pool, PostgresEventStore, runMigrations, SearchLog } from '@mrn/platform';
import { allProjectors, rebuildProjectors } from '@mrn/projections';
import { allMigrations } from '@mrn/server';
import { ALL_FOLLOWERS, waitForCheckpoints } from './consumers.ts';
import { type BenchServer, createBenchDatabase } from './database.ts';
import { type LoadResult, percentile, runLoad, signIn } from './http-load.ts';
import type { Owner } from './search-data.ts';
import {
  ADMIN_EMAIL,
  createFunder,
  existingFunder,
  PASSWORD,
  reusedDatabase,
  seedMerchants,
} from './seeding.ts';
import { freePort, type ServerProcess, startServerProcess } from './server-process.ts';
import { formatCount, formatMs, printLatencyReport, type Row } from './table.ts';

// The platform admins' dashboard widgets (issue 13: every widget ≤ 50 ms p99 at 1M merchants / 3M
// notes), each measured over HTTP against the real server in its own process, on the search bench's
// data: seeded here with its functions, or a database it kept (BENCH_REUSE_DATABASE).

export interface WidgetBenchOptions {
  merchants: number;
  notes: number;
  seedWriters: number;
  seedBatch: number;
  /** Measured seconds per widget. */
  seconds: number;
  warmupSeconds: number;
  /** Concurrent keep-alive connections of the second pass (a dashboard opens its eight widgets at once). */
  concurrency: number;
  /** Funders besides the seeded one, for contributor tables of a realistic length. */
  funders: number;
  port: number;
  keepDatabase: boolean;
  reuseDatabase: string | undefined;
}

const P99_TARGET_MS = 50;

/** Stable ids, so a reused database gets its extra funders once. */
const funderId = (i: number): string => {
  const h = createHash('sha1').update(`mrn-bench-funder:${i}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

export async function runWidgetBench(server: BenchServer, opts: WidgetBenchOptions): Promise<void> {
  console.log(
    `bench:      the admin dashboard's widget routes over HTTP (keep-alive, 1 and ${opts.concurrency} connections, ` +
      `${opts.seconds} s per route after ${opts.warmupSeconds} s warm-up) as a platform administrator, on ` +
      (opts.reuseDatabase
        ? `the kept database ${opts.reuseDatabase}`
        : `${formatCount(opts.merchants)} merchants and ${formatCount(opts.notes)} notes seeded as the search bench ` +
          'seeds them, read models rebuilt in one pass') +
      `, with ${formatCount(opts.funders)} more funders`,
  );
  const db = opts.reuseDatabase
    ? reusedDatabase(server, opts.reuseDatabase)
    : await createBenchDatabase(server, 'widgets');
  const pools: Pool[] = [];
  let child: ServerProcess | undefined;
  const rows: Row[] = [];
  const checks: string[] = [];
  const notes: string[] = [];
  try {
    const pool = createPool(db.url, Math.max(opts.seedWriters, allProjectors.length) + 2, {
      asynchronousCommit: true,
    });
    pools.push(pool);
    await runMigrations(pool, allMigrations());
    const store = new PostgresEventStore(pool);
    let owner: Owner;
    if (opts.reuseDatabase) {
      owner = await existingFunder(pool);
    } else {
      owner = await createFunder(store);
      process.stderr.write('  seeding…\n');
      const seed = await seedMerchants(store, owner, opts);
      notes.push(`seeded ${formatCount(seed.events)} events in ${seed.seconds.toFixed(1)} s`);
    }
    await openFunders(store, opts.funders);
    if (!opts.reuseDatabase) {
      process.stderr.write(`  rebuilding ${allProjectors.length} read models…\n`);
      const started = performance.now();
      const count = await rebuildProjectors({ pool, store, searches: new SearchLog(pool) }, allProjectors);
      const seconds = (performance.now() - started) / 1000;
      notes.push(
        `replay of ${formatCount(count)} events into ${allProjectors.length} read models (admin_widgets among ` +
          `them): ${seconds.toFixed(1)} s, ${formatCount(count / seconds)} events/s`,
      );
      // As autovacuum soon would on a live system: visibility maps and statistics for the planner.
      await pool.query(
        'vacuum (analyze) read.widget_merchants, read.widget_account_counts, ' +
          'read.widget_category_counts, read.accounts, read.users, read.merchants',
      );
    }

    const port = await freePort(opts.port);
    process.stderr.write(`  starting the server on port ${port}…\n`);
    child = await startServerProcess({
      databaseUrl: db.url,
      port,
      env: { ADMIN_EMAIL, ADMIN_PASSWORD: PASSWORD },
    });
    const baseUrl = `http://127.0.0.1:${port}`;
    // A kept database from before the widgets existed: the server builds them from the log's start on a
    // catching-up group; every follower of both logs is waited for (consumers.ts).
    const waited = await waitForCheckpoints(pool, ALL_FOLLOWERS, 3600);
    notes.push(
      `the server's projections and consumers reached the logs' head ${waited.toFixed(0)} s after start-up`,
    );
    notes.push(await describeWidgetTables(pool));
    const { jwt: token } = await signIn(baseUrl, ADMIN_EMAIL, PASSWORD);

    const cases: { label: string; route: RouteSpec; query?: string }[] = [
      { label: 'total_merchants', route: routes.totalMerchants },
      {
        label: 'total_merchants?account_id (the seeded funder)',
        route: routes.totalMerchants,
        query: `account_id=${owner.accountId}`,
      },
      { label: 'total_notes', route: routes.totalNotes },
      { label: 'total_notes?account_id', route: routes.totalNotes, query: `account_id=${owner.accountId}` },
      { label: 'total_members', route: routes.totalMembers },
      { label: 'total_users', route: routes.totalUsers },
      { label: 'total_monthly_revenue', route: routes.totalMonthlyRevenue },
      { label: 'recent_merchants_by_category (All, page 1)', route: routes.recentMerchantsByCategory },
      {
        label: 'recent_merchants_by_category (Slow Pay, page 1)',
        route: routes.recentMerchantsByCategory,
        query: 'category=Slow%20Pay',
      },
      {
        label: 'recent_merchants_by_category (All, page 50)',
        route: routes.recentMerchantsByCategory,
        query: 'page=50',
      },
      { label: 'top_contributors (10 a page)', route: routes.topContributors },
      {
        label: 'bottom_contributors (100 a page, page 2)',
        route: routes.bottomContributors,
        query: 'per_page=100&page=2',
      },
      // What the dashboard asks for at sign-in: every widget's first page in one call (issue 31).
      { label: 'dashboard (the eight first pages at once)', route: routes.dashboardWidgets },
    ];

    // Each answer once, checked against the route's own response schema, and the totals against the seed.
    for (const c of cases) {
      const body = await getJson(baseUrl, pathOf(c), token);
      const parsed = c.route.response.safeParse(body);
      if (!parsed.success)
        throw new Error(`${c.label}: answer does not match the route: ${JSON.stringify(body).slice(0, 300)}`);
    }
    const merchants = (await getJson(baseUrl, routes.totalMerchants.path, token)) as {
      data: { total_merchants: number };
    };
    const totalNotes = (await getJson(baseUrl, routes.totalNotes.path, token)) as {
      data: { total_notes: number };
    };
    const counted =
      merchants.data.total_merchants === opts.merchants && totalNotes.data.total_notes === opts.notes;
    checks.push(
      `total_merchants ${formatCount(merchants.data.total_merchants)}, total_notes ${formatCount(totalNotes.data.total_notes)}` +
        (counted ? ' (as seeded)' : ` — SEEDED ${formatCount(opts.merchants)} / ${formatCount(opts.notes)}!`),
    );

    // A server just started plans and compiles each statement on first use: every route a few times
    // first, so the first route measured does not pay for the start-up.
    for (const c of cases) for (let i = 0; i < 20; i++) await getJson(baseUrl, pathOf(c), token);

    // One connection: what a widget costs when nothing queues. Then several at once, as a dashboard
    // opening sends its eight widget calls together.
    for (const concurrency of [...new Set([1, opts.concurrency])]) {
      rows.push({
        section: `widget routes over HTTP (GET, server in a second process, ${concurrency} connection${concurrency === 1 ? '' : 's'})`,
      });
      for (const c of cases) {
        process.stderr.write(`  ${c.label}, ${concurrency} connections…\n`);
        const path = pathOf(c);
        const result = await runLoad({
          baseUrl,
          token,
          concurrency,
          seconds: opts.seconds,
          warmupSeconds: opts.warmupSeconds,
          next: () => ({ path, kind: c.label }),
        });
        rows.push(resultRow(`  ${c.label}`, result));
        for (const [key, e] of result.errors)
          notes.push(`${c.label}: ${e.count} × ${key}, e.g. ${e.example}`);
      }
    }

    printLatencyReport(rows, checks, notes);
  } finally {
    if (child) {
      const output = await child.stop();
      if (output.trim()) process.stderr.write(`  server output (warn and above):\n${output}\n`);
    }
    for (const p of pools) await p.end().catch(() => undefined);
    if (opts.keepDatabase) console.log(`kept:   ${db.url}`);
    else if (!opts.reuseDatabase) await db.drop();
  }
}

const pathOf = (c: { route: RouteSpec; query?: string }) =>
  c.query ? `${c.route.path}?${c.query}` : c.route.path;

function resultRow(label: string, result: LoadResult): Row {
  const p99 = percentile(result.latencies, 0.99);
  const errors = [...result.errors.values()].reduce((n, e) => n + e.count, 0);
  return [
    label,
    formatCount(result.perSecond),
    formatMs(percentile(result.latencies, 0.5)),
    formatMs(p99),
    formatCount(errors),
    `${p99 <= P99_TARGET_MS ? 'ok' : 'MISSED'}: p99 ≤ ${P99_TARGET_MS} ms`,
  ];
}

/** Funders with no records, on BASIC and PRO memberships, opened once each. */
async function openFunders(store: PostgresEventStore, count: number): Promise<void> {
  const ctx = { now: new Date() };
  for (let i = 0; i < count; i++) {
    const accountId = funderId(i);
    if ((await loadAccount({ store }, accountId)).state.status === 'open') continue;
    await openAccount(
      { store },
      {
        accountId,
        name: `Bench Funder ${String(i).padStart(4, '0')}`,
        website: null,
        primaryContactEmail: `ops${i}@bench-funder.example`,
        planLevel: i % 3 === 0 ? 'PRO' : 'BASIC',
        membershipStatus: i % 5 === 0 ? 'trialing' : 'active',
        isPlatform: false,
      },
      ctx,
      { source: 'system' },
    );
  }
}

async function describeWidgetTables(pool: Pool): Promise<string> {
  const { rows } = await pool.query<{ name: string; live: number; heap: string; indexes: string }>(
    `select relname as name, n_live_tup as live, pg_size_pretty(pg_table_size(relid)) as heap,
            pg_size_pretty(pg_indexes_size(relid)) as indexes
       from pg_stat_user_tables where schemaname = 'read' and relname like 'widget\\_%' order by relname`,
  );
  return `widget read models: ${rows
    .map((r) => `${r.name} ${r.heap} + ${r.indexes} indexes (~${formatCount(r.live)} rows)`)
    .join('; ')}`;
}

async function getJson(baseUrl: string, path: string, token: string): Promise<unknown> {
  const res = await fetch(new URL(path, baseUrl), { headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}
