import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import {
  type Clock,
  type Config,
  createLogger,
  type Logger,
  openEventStore,
  resolveJwtSecret,
} from '@mrn/platform';
import { startBilling } from './billing.ts';
import { ensurePlatformAdmin } from './bootstrap.ts';
import { openDatabase } from './database.ts';
import { startDevMailbox } from './dev-mailbox.ts';
import { createGatewayApp } from './gateway.ts';

export type ServiceName = 'command-api' | 'query-api' | 'projections' | 'webhook-dispatcher';

const MAIN: Record<ServiceName, string> = {
  'command-api': '../../command-api/src/main.ts',
  'query-api': '../../query-api/src/main.ts',
  projections: '../../projections/src/main.ts',
  'webhook-dispatcher': '../../webhook-dispatcher/src/main.ts',
};
const READY_TIMEOUT_MS = 60_000;

export interface ServiceProcessHandle {
  service: ServiceName;
  url: string;
  /** Its operations listener (loopback): /metrics and detailed /health and /ready. */
  opsUrl: string;
  child: ChildProcess;
  /** Resolves when the process has exited. */
  exited: Promise<void>;
}

export interface SplitTopology {
  /** The gateway's address: the product, as a user or a partner reaches it. */
  url: string;
  databaseUrl: string;
  processes: ServiceProcessHandle[];
  admin: { created: boolean; email: string; password?: string };
  /** Starts one more process of a service (a standby projections process, another replica). */
  startProcess(service: ServiceName): Promise<ServiceProcessHandle>;
  close(): Promise<void>;
}

export interface SplitOptions {
  logger?: Logger;
  clock?: Clock;
  webDist?: string;
  /** HTTP processes per API service (default: one per core). */
  commandProcesses?: number;
  queryProcesses?: number;
  /** Start a crashed service process again (default true; tests that kill one on purpose say false). */
  restart?: boolean;
}

/**
 * `npm run start:split`: the four services as processes of their own on one machine, behind a gateway
 * on PORT. This launcher opens the database (embedded PostgreSQL without DATABASE_URL) and applies every
 * migration, keeps the installation's secrets, runs the development helpers the services share (the dev
 * mailbox, the billing test server), then starts N command-api and N query-api processes, one projections
 * and one webhook-dispatcher process, and routes /api to them by the route table.
 */
export async function startSplit(config: Config, opts: SplitOptions = {}): Promise<SplitTopology> {
  const logger = opts.logger ?? createLogger(config.LOG_LEVEL);
  const db = await openDatabase(config, logger);
  const events = await openEventStore(config, { pool: db.pool, databaseUrl: db.url });
  const jwtSecret = resolveJwtSecret(config.JWT_SECRET, config.DATA_DIR);
  const billing = await startBilling(config, logger);
  const mailbox = config.SMTP_URL ? undefined : await startDevMailbox(db.pool, logger);
  const admin = await ensurePlatformAdmin(
    { store: events.store, logger },
    { productName: config.PRODUCT_NAME, email: config.ADMIN_EMAIL, password: config.ADMIN_PASSWORD },
  );

  // The gateway listens first: the services' links (PUBLIC_URL) name its address.
  const commandPorts = await freePorts(opts.commandProcesses ?? availableParallelism());
  const queryPorts = await freePorts(opts.queryProcesses ?? availableParallelism());
  const [dispatcherPort] = await freePorts(1);
  const processes: ServiceProcessHandle[] = [];
  const { app: gateway, sandbox } = await createGatewayApp({
    config,
    logger,
    clock: opts.clock,
    production: { pool: db.pool, store: events.store, databaseUrl: db.url },
    jwtSecret,
    billingTokenUrl: billing.gateway.tokenUrl,
    upstreams: {
      command: commandPorts.map((p) => `http://127.0.0.1:${p}`),
      query: queryPorts.map((p) => `http://127.0.0.1:${p}`),
      webhooks: [`http://127.0.0.1:${dispatcherPort}`],
    },
    webDist: opts.webDist,
    // The gateway is ready once every process behind it is, the projections process included.
    alsoReady: () => ({
      projections: processes.filter((p) => p.service === 'projections').map((p) => p.url),
    }),
  });
  const address = await gateway.listen({ port: config.PORT, host: config.HOST });
  const gatewayPort = Number(new URL(address).port);
  const publicUrl = config.PUBLIC_URL ?? `http://localhost:${gatewayPort}`;
  billing.listening(`http://127.0.0.1:${gatewayPort}`);

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...configEnv(config),
    DATABASE_URL: db.url,
    JWT_SECRET: jwtSecret,
    PUBLIC_URL: publicUrl,
    HOST: '127.0.0.1',
    // Client addresses come from the gateway alone: it connects from loopback and overwrites
    // X-Forwarded-For with the address it sees.
    TRUST_PROXY: '127.0.0.1',
    METRICS_HOST: '127.0.0.1',
    ...(mailbox ? { SMTP_URL: mailbox.smtpUrl } : {}),
    ...(billing.testServerUrl ? { BILLING_TEST_URL: billing.testServerUrl } : {}),
  };
  let stopping = false;
  const startProcess = async (service: ServiceName, port?: number): Promise<ServiceProcessHandle> => {
    const at = port ?? (await freePorts(1))[0]!;
    const [opsPort] = await freePorts(1);
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL(MAIN[service], import.meta.url))],
      {
        env: { ...env, PORT: String(at), METRICS_PORT: String(opsPort) },
        stdio: ['ignore', 'inherit', 'inherit'],
      },
    );
    const handle: ServiceProcessHandle = {
      service,
      url: `http://127.0.0.1:${at}`,
      opsUrl: `http://127.0.0.1:${opsPort}`,
      child,
      exited: once(child, 'exit').then(() => undefined),
    };
    processes.push(handle);
    void handle.exited.then(() => {
      processes.splice(processes.indexOf(handle), 1);
      if (stopping || opts.restart === false) return;
      logger.error(
        { service, pid: child.pid, code: child.exitCode },
        'service process exited; starting it again',
      );
      setTimeout(
        () => void startProcess(service, at).catch((err: unknown) => logger.error({ err }, 'restart failed')),
        1000,
      );
    });
    await untilReady(handle);
    return handle;
  };

  try {
    await Promise.all([
      startProcess('projections'),
      startProcess('webhook-dispatcher', dispatcherPort),
      ...commandPorts.map((p) => startProcess('command-api', p)),
      ...queryPorts.map((p) => startProcess('query-api', p)),
    ]);
  } catch (error) {
    stopping = true;
    for (const p of processes) p.child.kill('SIGKILL');
    await gateway.close();
    throw error;
  }

  return {
    url: `http://localhost:${gatewayPort}`,
    databaseUrl: db.url,
    processes,
    admin,
    startProcess: (service) => startProcess(service),
    async close() {
      stopping = true;
      await gateway.close();
      await Promise.all(
        processes.map(async (p) => {
          p.child.kill('SIGTERM');
          const timer = setTimeout(() => p.child.kill('SIGKILL'), 15_000);
          await p.exited;
          clearTimeout(timer);
        }),
      );
      await sandbox.close();
      await billing.stop();
      await mailbox?.close();
      await events.close();
      await db.close();
    },
  };
}

/** The configuration as environment variables, for the service processes. */
function configEnv(config: Config): Record<string, string> {
  return Object.fromEntries(
    Object.entries(config)
      .filter(([, v]) => v !== undefined && v !== null && typeof v !== 'object')
      .map(([k, v]) => [k, String(v)]),
  );
}

async function freePorts(n: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: n }, async () => {
      const server = createServer();
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      return server;
    }),
  );
  const ports = servers.map((s) => (s.address() as { port: number }).port);
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  return ports;
}

async function untilReady(handle: ServiceProcessHandle): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let exited = false;
  void handle.exited.then(() => {
    exited = true;
  });
  while (Date.now() < deadline) {
    if (exited) throw new Error(`${handle.service} exited before it was ready`);
    try {
      const res = await fetch(`${handle.url}/ready`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`${handle.service} was not ready within ${READY_TIMEOUT_MS / 1000} s`);
}
