import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ServerProcess {
  process: ChildProcess;
  /** SIGTERM, then SIGKILL after 15 s; resolves with what the server printed. */
  stop(): Promise<string>;
}

/** `tsx server/src/main.ts` as `npm start` runs it, pointed at the bench database. */
export async function startServerProcess(opts: {
  databaseUrl: string;
  port: number;
  env?: Record<string, string>;
  /** Arguments of main.ts, e.g. `--demo`. */
  args?: string[];
}): Promise<ServerProcess> {
  const { databaseUrl, port } = opts;
  const dataDir = mkdtempSync(join(tmpdir(), 'mrn-bench-server-'));
  const proc = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts', ...(opts.args ?? [])], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      JWT_SECRET: 'bench-jwt-secret-0123456789abcdef0123456789abcdef',
      DATA_DIR: dataDir,
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
  const server: ServerProcess = {
    process: proc,
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) {
        proc.kill('SIGTERM');
        const timer = setTimeout(() => proc.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dataDir, { recursive: true, force: true });
      // The "running at" banner is not news.
      return output.replace(/\n\s*Merchant Risk Network is running at \S+\s*\n/, '\n');
    },
  };
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (exitCode !== null || proc.signalCode !== null) {
      throw new Error(`The server exited (${exitCode ?? proc.signalCode}) before it was healthy:\n${output}`);
    }
    const healthy = await fetch(`http://127.0.0.1:${port}/health`)
      .then((r) => r.status === 200)
      .catch(() => false);
    if (healthy) return server;
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error(`The server was not healthy after 120 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
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
