import { randomUUID } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';
import {
  createLogger,
  createPool,
  type Mailer,
  type Pool,
  PostgresEventStore,
  runMigrations,
} from '@mrn/platform';
import { allMigrations } from '@mrn/server';
import { type DispatcherOptions, startDispatcher, WebhookDispatcher } from '@mrn/webhook-dispatcher';
import { CpuMeter, type CpuSample } from './cpu.ts';
import { type BenchServer, createBenchDatabase } from './database.ts';
import { percentile } from './http-load.ts';
import { accountOpened, noteAdded, seedMerchant, seedWatchers } from './seeding.ts';
import { formatCount, formatMs, type Row, renderTable } from './table.ts';

export interface WebhookBenchOptions {
  /** Outbox rows waiting when the throughput phase starts. */
  deliveries: number;
  /** Watching accounts in the throughput phase, each with its own endpoint URL and signing secret. */
  watchers: number;
  /** HTTP servers (distinct loopback ports, so distinct connection pools in the dispatcher). */
  receivers: number;
  /**
   * Dispatcher options for the throughput phase; undefined keeps the dispatcher's default. `workers`
   * (BENCH_WEBHOOK_WORKERS) sets its pool of deliveries in flight (`maxInFlight`): since issue 20 it has
   * no worker loops.
   */
  workers: number | undefined;
  claimBatch: number | undefined;
  /** Connections of the dispatcher's pool, as the server's (createPool's default of 20). */
  poolSize: number;
  /** The throughput phase gives up after this long, reporting what it reached. */
  maxSeconds: number;
  /** Notes appended per second in the latency phase. */
  latencyRate: number;
  latencySeconds: number;
  /** Watching accounts per note in the latency phase: deliveries/s = latencyRate × this. */
  latencyWatchers: number;
  /** Endpoints that accept the connection and never answer, in the third phase (default 50, DESIGN §8). */
  hanging?: number;
  /** How long notes are offered in the third phase: long enough for the breakers to open (default 20 s). */
  hangSeconds?: number;
}

const TARGETS = { deliveriesPerSecond: 1000, latencyP99Ms: 1000 };
const HANGING_DEFAULT = 50;
const HANG_SECONDS_DEFAULT = 20;
const PUBLIC_URL = 'https://mrn.bench.example';
const MARK = 'bench-sent=';

// Nothing is e-mailed: every watcher has a webhook URL and no notification address.
const noMail: Mailer = { send: async () => undefined, close: () => undefined };

export async function runWebhookBench(server: BenchServer, opts: WebhookBenchOptions): Promise<void> {
  const hanging = opts.hanging ?? HANGING_DEFAULT;
  const hangSeconds = opts.hangSeconds ?? HANG_SECONDS_DEFAULT;
  const watchers = Math.min(opts.watchers, opts.deliveries);
  const notes = Math.ceil(opts.deliveries / watchers);
  const deliveries = notes * watchers;
  console.log(
    `bench:      throughput: ${formatCount(deliveries)} webhook deliveries already in the outbox (${formatCount(notes)} ` +
      `notes by one funder on a merchant watched by ${formatCount(watchers)} funders, seeded through the event ` +
      `store and enqueued by the dispatcher's own pump), delivered to ${opts.receivers} node:http receiver(s) ` +
      `on 127.0.0.1 in a worker thread answering 200 at once; dispatcher in flight ${opts.workers ?? 'default'}, ` +
      `claimBatch ${opts.claimBatch ?? 'default'}, pool ${opts.poolSize}. latency: the dispatcher started as ` +
      `the server starts it (startDispatcher, defaults, one store with LISTEN), ${opts.latencyRate} notes/s for ` +
      `${opts.latencySeconds} s, each watched by ${opts.latencyWatchers} funders; from the append call to the ` +
      `request's arrival at the receiver. while endpoints hang: the same, for ${hangSeconds} s, with ` +
      `${hanging} more funders (a tenth of them watching each merchant) whose endpoints (loopback TCP servers ` +
      `in the receiver thread) accept the connection and never answer`,
  );
  console.log(`load:       ${formatLoad()} (1/5/15 min load average before the suite)`);
  const db = await createBenchDatabase(server, 'webhooks');
  const pool = createPool(db.url, opts.poolSize);
  const store = new PostgresEventStore(pool, { listenUrl: db.url });
  const receiver = await startReceiverThread(opts.receivers, hanging);
  const logger = createLogger('warn');
  const rows: Row[] = [];
  const checks: string[] = [];
  const notesOut: string[] = [];
  let running: { stop(): Promise<void> } | undefined;
  try {
    await runMigrations(pool, allMigrations());
    const base: DispatcherOptions = {
      pool,
      store,
      mailer: noMail,
      logger,
      publicUrl: PUBLIC_URL,
      allowLoopback: true,
    };

    // ---- seeding ------------------------------------------------------------------------------------
    process.stderr.write('  seeding…\n');
    const actor = randomUUID();
    const seedStarted = performance.now();
    await store.appendToStream(`account-${actor}`, [accountOpened(actor, 'Harbor Bench Capital')], {
      expectedRevision: 'no_stream',
    });
    const fein = '870000001';
    // The merchant first: watchers who start watching after it was added get no Merchant Added row, so
    // the outbox holds exactly notes × watchers.
    const merchantId = await seedMerchant(store, actor, fein, 'Throughput Bakery LLC');
    await seedWatchers(store, watchers, [fein], receiver.urls);
    for (let done = 0; done < notes; done += 500) {
      const n = Math.min(500, notes - done);
      await store.appendToStream(
        `merchant-${merchantId}`,
        Array.from({ length: n }, (_, i) => noteAdded(actor, merchantId, `Missed ACH debit #${done + i}.`)),
        { expectedRevision: 'any' },
      );
    }
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const pumpStarted = performance.now();
    const throughput = new WebhookDispatcher({
      ...base,
      ...(opts.workers === undefined ? {} : { maxInFlight: opts.workers }),
      ...(opts.claimBatch === undefined ? {} : { claimBatch: opts.claimBatch }),
    });
    const enqueued = await throughput.pump();
    const pumpSeconds = (performance.now() - pumpStarted) / 1000;
    rows.push({
      section: 'enqueue (the dispatcher reading the log and writing outbox rows with its checkpoint)',
    });
    rows.push([
      `  ${formatCount(enqueued)} outbox rows from ${formatCount(notes)} notes ` +
        `(events appended in ${seedSeconds.toFixed(1)} s, pump ${pumpSeconds.toFixed(1)} s)`,
      formatCount(enqueued / pumpSeconds),
      '',
      '',
      '',
    ]);
    if (enqueued !== deliveries) checks.push(`enqueued ${enqueued} rows, expected ${deliveries}!`);
    await pool.query('vacuum (analyze) webhook_deliveries');
    await pool.query('checkpoint').catch(() => undefined);

    // ---- 1. throughput -------------------------------------------------------------------------------
    process.stderr.write(`  delivering ${formatCount(deliveries)} webhooks…\n`);
    const backend = (await pool.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    const meter = new CpuMeter(-1, backend);
    await receiver.report(true);
    const cpuBefore = meter.sample();
    const startedAt = Date.now();
    throughput.start();
    running = throughput;
    const outcome = await waitForDeliveries(pool, receiver, deliveries, opts.maxSeconds);
    const cpuAfter = meter.sample();
    await throughput.stop();
    running = undefined;
    const tally = await throughputTally(pool, startedAt);
    const reached = await receiver.report(true);
    const rate = tally.succeeded / tally.seconds;
    rows.push({ section: 'throughput: outbox already full, dispatcher started' });
    rows.push([
      `  ${formatCount(tally.succeeded)} of ${formatCount(deliveries)} delivered in ${tally.seconds.toFixed(1)} s` +
        (outcome.timedOut ? ` (stopped after ${opts.maxSeconds} s)` : ''),
      formatCount(rate),
      '',
      '',
      verdict(
        rate >= TARGETS.deliveriesPerSecond,
        `≥ ${formatCount(TARGETS.deliveriesPerSecond)} deliveries/s`,
      ),
    ]);
    rows.push([
      `  attempts logged (webhook_attempts), ${formatCount(tally.failed)} failed`,
      formatCount(tally.attempts / tally.seconds),
      '',
      '',
      '',
    ]);
    rows.push([
      '  per-request duration (webhook_attempts.duration_ms, as the dispatcher logs it)',
      '',
      formatMs(tally.p50Ms),
      formatMs(tally.p99Ms),
      '',
    ]);
    notesOut.push(cpuLine(cpuBefore, cpuAfter, tally.succeeded, meter.seesPostgres, true));
    checks.push(
      `throughput: receiver got ${formatCount(reached.requests)} requests, ${formatCount(reached.distinct)} distinct ` +
        `webhook-ids${reached.requests === tally.succeeded && reached.distinct === tally.succeeded ? ' — each delivered once' : ' (retries or duplicates!)'}`,
    );

    // ---- 2. latency ---------------------------------------------------------------------------------
    process.stderr.write(
      `  latency: ${opts.latencyRate} notes/s for ${opts.latencySeconds} s, dispatcher running…\n`,
    );
    const merchantCount = 10;
    const feins = Array.from({ length: merchantCount }, (_, i) => String(880_000_001 + i));
    await seedWatchers(store, opts.latencyWatchers, feins, receiver.urls);
    const merchants: string[] = [];
    for (const [i, f] of feins.entries())
      merchants.push(await seedMerchant(store, actor, f, `Latency Deli ${i}`));
    // Seeding raised Merchant Added rows for the watchers; deliver them before measuring anything.
    const live = startDispatcher({ ...base, publicUrl: () => PUBLIC_URL });
    running = live;
    const expectedSeed = merchantCount * opts.latencyWatchers;
    await until(async () => (await receiver.report(false)).requests >= expectedSeed, 30_000);
    await receiver.report(true);

    const latencyCpuBefore = meter.sample();
    const offered = await offerNotes(store, actor, merchants, opts.latencyRate, opts.latencySeconds);
    const { total, appendLatencies, appendErrors, offeredSeconds } = offered;
    const expected = total * opts.latencyWatchers;
    const arrived = await collectArrivals(receiver, expected);
    const latencyCpuAfter = meter.sample();
    await live.stop();
    running = undefined;
    const latencies = arrived.map((a) => a.arrived - a.sent).sort((a, b) => a - b);
    appendLatencies.sort((a, b) => a - b);
    const p99 = percentile(latencies, 0.99);
    rows.push({
      section: `latency: dispatcher live (startDispatcher, defaults), notes appended at a steady rate`,
    });
    rows.push([
      `  ${formatCount(total)} notes at ${(total / offeredSeconds).toFixed(0)}/s × ${opts.latencyWatchers} ` +
        `watchers = ${formatCount(expected)} deliveries; append call → arrival at the receiver`,
      formatCount(latencies.length / offeredSeconds),
      formatMs(percentile(latencies, 0.5)),
      formatMs(p99),
      verdict(p99 <= TARGETS.latencyP99Ms && latencies.length === expected, 'p99 ≤ 1,000 ms'),
    ]);
    rows.push([
      `  same, p95 ${formatMs(percentile(latencies, 0.95))} ms, max ${formatMs(latencies.at(-1) ?? Number.NaN)} ms`,
      '',
      '',
      '',
      '',
    ]);
    rows.push([
      '  the append itself (appendToStream of one note, committed)',
      '',
      formatMs(percentile(appendLatencies, 0.5)),
      formatMs(percentile(appendLatencies, 0.99)),
      '',
    ]);
    notesOut.push(cpuLine(latencyCpuBefore, latencyCpuAfter, latencies.length, meter.seesPostgres, false));
    checks.push(
      `latency: ${formatCount(latencies.length)} of ${formatCount(expected)} deliveries arrived` +
        (latencies.length === expected ? '' : ' — SOME MISSING!') +
        (appendErrors.length > 0 ? `; ${appendErrors.length} appends failed: ${appendErrors[0]}` : ''),
    );

    // ---- 3. latency while endpoints hang -------------------------------------------------------------
    process.stderr.write(
      `  while ${hanging} endpoints hang: ${opts.latencyRate} notes/s for ${hangSeconds} s, dispatcher running…\n`,
    );
    const hangFeins = Array.from({ length: merchantCount }, (_, i) => String(890_000_001 + i));
    const hangMerchants: string[] = [];
    // The merchants first, then the watchers: no Merchant Added rows to deliver before measuring.
    for (const [i, f] of hangFeins.entries())
      hangMerchants.push(await seedMerchant(store, actor, f, `Hanging Grill ${i}`));
    await seedWatchers(store, opts.latencyWatchers, hangFeins, receiver.urls);
    // Each hanging endpoint watches one of the merchants: every note goes to the healthy watchers and to
    // a tenth of the hanging ones, so the outbox takes what the throughput target allows, not 26 times
    // the healthy rate, and what is measured is isolation rather than an overloaded outbox.
    for (const [i, f] of hangFeins.entries()) {
      const urls = receiver.hangingUrls.filter((_, j) => j % hangFeins.length === i);
      await seedWatchers(store, urls.length, [f], urls);
    }
    const hangLive = startDispatcher({ ...base, publicUrl: () => PUBLIC_URL });
    running = hangLive;
    const head = await store.headPosition();
    await until(async () => (await hangLive.dispatcher.readCheckpoint()) >= head, 30_000);
    await receiver.report(true);
    const hangCpuBefore = meter.sample();
    const hangOffered = await offerNotes(store, actor, hangMerchants, opts.latencyRate, hangSeconds);
    const hangExpected = hangOffered.total * opts.latencyWatchers;
    const hangArrived = await collectArrivals(receiver, hangExpected);
    const hangCpuAfter = meter.sample();
    const hangReport = await receiver.report(true);
    const parked = await pool.query<{ n: number }>(
      'select count(*)::int as n from webhook_endpoint_circuits where open_until is not null',
    );
    await hangLive.stop();
    running = undefined;
    const hangLatencies = hangArrived.map((a) => a.arrived - a.sent).sort((a, b) => a - b);
    const hangP99 = percentile(hangLatencies, 0.99);
    rows.push({
      section:
        `latency while ${hanging} endpoints hang (accept the connection, never answer), dispatcher live: ` +
        `${formatCount(hangOffered.total)} notes at ${(hangOffered.total / hangOffered.offeredSeconds).toFixed(0)}/s ` +
        `× ${opts.latencyWatchers} healthy + ${hanging / merchantCount} hanging watchers`,
    });
    rows.push([
      `  event → delivery p99 while ${hanging} endpoints hang (append call → arrival, healthy receivers)`,
      formatCount(hangLatencies.length / hangOffered.offeredSeconds),
      formatMs(percentile(hangLatencies, 0.5)),
      formatMs(hangP99),
      verdict(hangP99 <= TARGETS.latencyP99Ms && hangLatencies.length === hangExpected, 'p99 ≤ 1,000 ms'),
    ]);
    rows.push([
      `  same, p95 ${formatMs(percentile(hangLatencies, 0.95))} ms, max ${formatMs(hangLatencies.at(-1) ?? Number.NaN)} ms`,
      '',
      '',
      '',
      '',
    ]);
    notesOut.push(cpuLine(hangCpuBefore, hangCpuAfter, hangLatencies.length, meter.seesPostgres, false));
    checks.push(
      `while hanging: ${formatCount(hangLatencies.length)} of ${formatCount(hangExpected)} healthy deliveries arrived` +
        (hangLatencies.length === hangExpected ? '' : ' — SOME MISSING!') +
        `; the hanging endpoints accepted ${formatCount(hangReport.hanging.connections)} connections, at most ` +
        `${hangReport.hanging.maxOpen} open at once on one (cap 4), ${parked.rows[0]!.n} of ${hanging} parked by their breakers at the end` +
        (hangOffered.appendErrors.length > 0
          ? `; ${hangOffered.appendErrors.length} appends failed: ${hangOffered.appendErrors[0]}`
          : ''),
    );

    console.log(
      renderTable(
        [
          { header: 'case' },
          { header: 'per second', align: 'right' },
          { header: 'p50 ms', align: 'right' },
          { header: 'p99 ms', align: 'right' },
          { header: 'target' },
        ],
        rows,
      ),
    );
    console.log(`\nchecks: ${checks.join('; ')}`);
    for (const line of notesOut) console.log(`note:   ${line}`);
  } finally {
    await running?.stop().catch(() => undefined);
    await receiver.close();
    await store.close();
    await pool.end();
    await db.drop();
  }
}

/** Epoch milliseconds with sub-millisecond precision, comparable across threads of this process. */
const nowMs = () => performance.timeOrigin + performance.now();

async function waitForDeliveries(
  pool: Pool,
  receiver: ReceiverThread,
  expected: number,
  maxSeconds: number,
): Promise<{ timedOut: boolean }> {
  const deadline = performance.now() + maxSeconds * 1000;
  // The receiver's count costs nothing; the database is asked only once every request has arrived,
  // so the waiting adds no queries to the load being measured.
  while ((await receiver.report(false)).distinct < expected) {
    if (performance.now() > deadline) return { timedOut: true };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  while (performance.now() < deadline) {
    const { rows } = await pool.query<{ n: number }>(
      `select count(*)::int as n from webhook_deliveries where status in ('pending', 'failed')`,
    );
    if (rows[0]!.n === 0) return { timedOut: false };
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { timedOut: true };
}

async function throughputTally(pool: Pool, startedAt: number) {
  const { rows } = await pool.query<{
    succeeded: number;
    last: Date | null;
    attempts: number;
    failed: number;
    p50: number | null;
    p99: number | null;
  }>(
    `select (select count(*)::int from webhook_deliveries where status = 'succeeded') as succeeded,
            (select max(finished_at) from webhook_deliveries) as last,
            count(*)::int as attempts,
            (count(*) filter (where not succeeded))::int as failed,
            percentile_cont(0.5) within group (order by duration_ms) as p50,
            percentile_cont(0.99) within group (order by duration_ms) as p99
       from webhook_attempts`,
  );
  const r = rows[0]!;
  // Up to the last row finished (finished_at is the dispatcher's clock, the wall clock here).
  const seconds = Math.max(0.001, ((r.last?.getTime() ?? Date.now()) - startedAt) / 1000);
  return {
    succeeded: r.succeeded,
    attempts: r.attempts,
    failed: r.failed,
    seconds,
    p50Ms: r.p50 ?? Number.NaN,
    p99Ms: r.p99 ?? Number.NaN,
  };
}

/** Notes appended at a steady rate, each carrying its send time for the receiver to read. */
async function offerNotes(
  store: PostgresEventStore,
  actor: string,
  merchants: string[],
  rate: number,
  seconds: number,
): Promise<{ total: number; appendLatencies: number[]; appendErrors: string[]; offeredSeconds: number }> {
  const total = Math.round(rate * seconds);
  const appendLatencies: number[] = [];
  const appendErrors: string[] = [];
  const pending: Promise<void>[] = [];
  const paceStarted = performance.now();
  for (let i = 0; i < total; i++) {
    // Paced by the schedule, not by the last append: a slow append must not slow the offered load.
    const due = paceStarted + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const merchant = merchants[i % merchants.length]!;
    pending.push(
      (async () => {
        const sent = nowMs();
        try {
          await store.appendToStream(
            `merchant-${merchant}`,
            [noteAdded(actor, merchant, `Returned payment. ${MARK}${sent.toFixed(3)}`)],
            { expectedRevision: 'any' },
          );
          appendLatencies.push(nowMs() - sent);
        } catch (err) {
          appendErrors.push(String(err));
        }
      })(),
    );
  }
  await Promise.all(pending);
  return { total, appendLatencies, appendErrors, offeredSeconds: (performance.now() - paceStarted) / 1000 };
}

/** The receiver's arrivals until `expected` have come, or 30 s have passed. */
async function collectArrivals(
  receiver: ReceiverThread,
  expected: number,
): Promise<{ sent: number; arrived: number }[]> {
  const arrived: { sent: number; arrived: number }[] = [];
  const deadline = performance.now() + 30_000;
  while (arrived.length < expected && performance.now() < deadline) {
    arrived.push(...(await receiver.report(true)).arrivals);
    if (arrived.length < expected) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return arrived;
}

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`webhook bench: gave up waiting after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function cpuLine(
  a: CpuSample,
  b: CpuSample,
  deliveries: number,
  seesPostgres: boolean,
  saturated: boolean,
): string {
  const cpu = CpuMeter.between(a, b);
  const per = (ms: number) => `${(ms / Math.max(1, deliveries)).toFixed(3)} ms`;
  const pct = (ms: number) => `${Math.round((100 * ms) / Math.max(1, cpu.machineTotalMs))}%`;
  const ours = cpu.clientMs + (seesPostgres ? cpu.postgresMs : 0);
  // What the machine's CPUs could deliver with nothing else running: a figure that a busy neighbour
  // (tests on the same 2 cores) does not move, unlike the measured rate.
  const ceiling =
    saturated && seesPostgres && ours > 0 ? (cpus().length * 1000 * deliveries) / ours : Number.NaN;
  return (
    `CPU per delivery: bench process (dispatcher + receiver thread) ${per(cpu.clientMs)}` +
    (seesPostgres ? `, Postgres ${per(cpu.postgresMs)}` : '') +
    `; machine ${pct(cpu.machineBusyMs)} busy, other processes ${pct(Math.max(0, cpu.machineBusyMs - ours))}` +
    (Number.isFinite(ceiling)
      ? `; CPU-bound ceiling on ${cpus().length} idle CPUs ≈ ${formatCount(ceiling)}/s`
      : '')
  );
}

// ---- events, shaped as the command API writes them (contracts' schemas parse them) --------------------

// ---- the receiver: its own thread, so the dispatcher's event loop does not also serve the requests ----

interface ReceiverReport {
  requests: number;
  distinct: number;
  /** Arrivals of requests whose note carries the send time, since the last report that reset them. */
  arrivals: { sent: number; arrived: number }[];
  /** The hanging endpoints (only the third phase uses them): connections accepted, the most one held open. */
  hanging: { connections: number; maxOpen: number };
}

interface ReceiverThread {
  urls: string[];
  /** Endpoints that accept the connection, read the request and never answer. */
  hangingUrls: string[];
  report(reset: boolean): Promise<ReceiverReport>;
  close(): Promise<void>;
}

// Plain JavaScript: an eval'd worker is not compiled by tsx. It answers as soon as the body has been
// read, and notes the arrival time of each body that carries a send time (the latency phase).
const RECEIVER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { createServer } = require('node:http');
const net = require('node:net');
const mark = ${JSON.stringify(MARK)};
let requests = 0;
let ids = new Set();
let arrivals = [];
const servers = [];
function handle(req, res) {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const arrived = performance.timeOrigin + performance.now();
    requests++;
    ids.add(req.headers['webhook-id']);
    const body = Buffer.concat(chunks).toString('utf8');
    const at = body.indexOf(mark);
    if (at >= 0) arrivals.push({ sent: parseFloat(body.slice(at + mark.length)), arrived });
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' }).end('ok');
  });
}
const hangers = [];
const hangingSockets = new Set();
let hangingConnections = 0;
let hangingMaxOpen = 0;
function hang(socket) {
  hangingConnections++;
  hangingSockets.add(socket);
  socket.server.open = (socket.server.open || 0) + 1;
  hangingMaxOpen = Math.max(hangingMaxOpen, socket.server.open);
  socket.on('data', () => {});
  socket.on('error', () => {});
  socket.on('close', () => { hangingSockets.delete(socket); socket.server.open--; });
}
let listening = 0;
const all = workerData.count + workerData.hanging;
function listened() {
  if (++listening === all) {
    parentPort.postMessage({
      ready: servers.map((s) => s.address().port),
      hanging: hangers.map((s) => s.address().port),
    });
  }
}
for (let i = 0; i < workerData.count; i++) {
  const server = createServer(handle);
  server.keepAliveTimeout = 60000;
  servers.push(server);
  server.listen(0, '127.0.0.1', listened);
}
for (let i = 0; i < workerData.hanging; i++) {
  const server = net.createServer((socket) => { socket.server = server; hang(socket); });
  hangers.push(server);
  server.listen(0, '127.0.0.1', listened);
}
parentPort.on('message', (m) => {
  if (m.cmd === 'report') {
    parentPort.postMessage({
      id: m.id, requests, distinct: ids.size, arrivals,
      hanging: { connections: hangingConnections, maxOpen: hangingMaxOpen },
    });
    if (m.reset) { requests = 0; ids = new Set(); }
    arrivals = [];
  } else if (m.cmd === 'close') {
    for (const s of hangingSockets) s.destroy();
    let open = servers.length + hangers.length;
    const closed = () => { if (--open === 0) process.exit(0); };
    for (const s of servers) { s.closeAllConnections(); s.close(closed); }
    for (const s of hangers) s.close(closed);
  }
});
`;

async function startReceiverThread(count: number, hanging: number): Promise<ReceiverThread> {
  const worker = new Worker(RECEIVER_SOURCE, { eval: true, workerData: { count, hanging } });
  const { ready: ports, hanging: hangingPorts } = await new Promise<{ ready: number[]; hanging: number[] }>(
    (resolve, reject) => {
      worker.once('error', reject);
      worker.once('message', resolve);
    },
  );
  let next = 0;
  const waiting = new Map<number, (r: ReceiverReport) => void>();
  worker.on('message', (m: ReceiverReport & { id?: number }) => {
    if (m.id === undefined) return;
    waiting.get(m.id)?.(m);
    waiting.delete(m.id);
  });
  return {
    urls: ports.map((p) => `http://127.0.0.1:${p}/hook`),
    hangingUrls: hangingPorts.map((p) => `http://127.0.0.1:${p}/hook`),
    report: (reset) =>
      new Promise((resolve) => {
        const id = next++;
        waiting.set(id, resolve);
        worker.postMessage({ cmd: 'report', id, reset });
      }),
    close: async () => {
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      worker.postMessage({ cmd: 'close' });
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 2000))]);
      await worker.terminate();
    },
  };
}

const verdict = (ok: boolean, target: string) => `${target} ${ok ? 'ok' : 'MISSED'}`;

const formatLoad = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');
