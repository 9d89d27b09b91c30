import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { untilStopped } from './cleanup.ts';
import { commandLineOf, descendantsOf, startTimeOf } from './cpu.ts';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The servers the bench starts run as production does: `NODE_ENV=production`, so answers are not checked
 * against their route schemas on every request (platform/src/http/register-routes.ts).
 */
export const BENCH_NODE_ENV = 'production';

export interface ServerProcess {
  process: ChildProcess;
  /**
   * SIGTERM, then SIGKILL after 15 s; then every process it had started that is still there (the split
   * topology's services, had its launcher died without stopping them) is killed too. Resolves with what
   * the server printed.
   */
  stop(): Promise<string>;
}

/**
 * `tsx server/src/main.ts` as `npm start` runs it (or another entry with the same environment, e.g.
 * `server/src/split-main.ts` as `npm run start:split` runs it), pointed at the bench database, with
 * NODE_ENV=production. It is stopped when the bench ends, however it ends (`untilStopped`).
 */
export async function startServerProcess(opts: {
  databaseUrl: string;
  port: number;
  env?: Record<string, string>;
  /** Relative to the repository; default `server/src/main.ts`. */
  entry?: string;
  /** Arguments of the entry, e.g. `--demo`. */
  args?: string[];
  /** Whether the server is ready to be measured; default: GET /health answers 200. */
  ready?: (baseUrl: string) => Promise<boolean>;
  /** How long it may take to become ready; default 120 s. */
  readySeconds?: number;
}): Promise<ServerProcess> {
  const { databaseUrl, port } = opts;
  const entry = opts.entry ?? 'server/src/main.ts';
  const dataDir = mkdtempSync(join(tmpdir(), 'mrn-bench-server-'));
  // BENCH_CPU_PROF_DIR: the server writes a V8 CPU profile there when it stops (open it in Chrome's
  // DevTools or speedscope): where a search's server time goes (issue 23).
  const profile = process.env.BENCH_CPU_PROF_DIR
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF_DIR}`]
    : [];
  const proc = spawn(process.execPath, [...profile, '--import', 'tsx', entry, ...(opts.args ?? [])], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      JWT_SECRET: 'bench-jwt-secret-0123456789abcdef0123456789abcdef',
      DATA_DIR: dataDir,
      NODE_ENV: BENCH_NODE_ENV,
      // The operations listener (/metrics, detailed health) on any free port: its default (9464) is
      // taken by any other server running on the machine.
      METRICS_PORT: '0',
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    // Only the tail matters when something goes wrong.
    output = (output + chunk.toString('utf8')).slice(-20_000);
  };
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  let exitCode: number | null = null;
  proc.once('exit', (code) => {
    exitCode = code;
  });
  // Every process it starts, noted while it runs: once it has gone, its children are no longer found
  // under it (they are the init process's), yet must not outlive the bench.
  const started = new Map<number, number>();
  const note = () => {
    for (const pid of descendantsOf(proc.pid ?? -1))
      if (!started.has(pid)) started.set(pid, startTimeOf(pid));
  };
  const noting = setInterval(note, 5000);
  noting.unref();
  const stop = untilStopped(`${entry} (pid ${proc.pid}, port ${port})`, async () => {
    clearInterval(noting);
    note();
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }
    await stopLeftovers([...started].map(([pid, since]) => ({ pid, since })));
    rmSync(dataDir, { recursive: true, force: true });
    // The "running at" banner is not news.
    return output.replace(/\n\s*Merchant Risk Network (\([^)]*\) )?is running at \S+\s*\n/, '\n');
  });
  const server: ServerProcess = { process: proc, stop };
  const baseUrl = `http://127.0.0.1:${port}`;
  const ready =
    opts.ready ??
    ((url: string) =>
      fetch(`${url}/health`)
        .then((r) => r.status === 200)
        .catch(() => false));
  const readySeconds = opts.readySeconds ?? 120;
  const deadline = Date.now() + readySeconds * 1000;
  for (;;) {
    note();
    if (exitCode !== null || proc.signalCode !== null) {
      await server.stop();
      throw new Error(`${entry} exited (${exitCode ?? proc.signalCode}) before it was ready:\n${output}`);
    }
    if (await ready(baseUrl)) return server;
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error(`${entry} was not ready after ${readySeconds} s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * The processes a server had started that outlived it (its launcher killed before it could stop them):
 * SIGTERM, then SIGKILL after 5 s. A pid is only signalled while it is still the process seen before.
 */
async function stopLeftovers(processes: { pid: number; since: number }[]): Promise<void> {
  const alive = () => processes.filter((p) => p.since >= 0 && startTimeOf(p.pid) === p.since);
  const signal = (name: NodeJS.Signals) => {
    for (const p of alive()) {
      try {
        process.kill(p.pid, name);
      } catch {
        // gone meanwhile
      }
    }
  };
  if (alive().length === 0) return;
  signal('SIGTERM');
  for (let waited = 0; alive().length > 0 && waited < 5000; waited += 100) {
    await new Promise((r) => setTimeout(r, 100));
  }
  signal('SIGKILL');
}

/**
 * The split topology is ready once its gateway's /ready answers 200: it asks every process behind it
 * (each command-api, query-api and webhook-dispatcher origin, and the projections process) for its own
 * /ready. The gateway's /health answers as soon as it listens, and names nothing behind it.
 */
export async function splitReady(baseUrl: string): Promise<boolean> {
  try {
    const res = await fetch(`${baseUrl}/ready`, { signal: AbortSignal.timeout(5000) });
    return res.status === 200;
  } catch {
    return false;
  }
}

/**
 * The service processes the split launcher `pid` started, by service, found under it (Linux /proc: the
 * entry each runs, `<service>/src/main.ts`); none where unreadable.
 */
export function serviceProcesses(pid: number, services: readonly string[]): Map<string, number[]> {
  const found = new Map<string, number[]>(services.map((s) => [s, []]));
  for (const child of descendantsOf(pid)) {
    const service = services.find((s) => commandLineOf(child).includes(`${s}/src/main.ts`));
    if (service) found.get(service)!.push(child);
  }
  return found;
}

/** The given port when free, otherwise one the system picks. */
export function freePort(preferred: number): Promise<number> {
  const attempt = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const probe = createServer();
      probe.once('error', reject);
      probe.listen(port, '127.0.0.1', () => {
        const address = probe.address();
        const chosen = typeof address === 'object' && address ? address.port : port;
        probe.close(() => resolve(chosen));
      });
    });
  return attempt(preferred).catch(() => attempt(0));
}
