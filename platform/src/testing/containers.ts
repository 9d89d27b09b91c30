import { existsSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { join } from 'node:path';

/**
 * The servers of the suites that need KurrentDB or Kafka. The environment variable wins when it is set
 * (EVENTSTORE_URL, KAFKA_BROKERS: a server someone started). Otherwise, when a Docker engine answers, a
 * container started through testcontainers; otherwise the suite is skipped, and the reason says both ways
 * to run it. testcontainers is imported (a dynamic `import()`) only when no variable is set and there is
 * a Docker engine to ask, so the runs that use a variable, and those that skip for want of any Docker
 * (this machine), never load it.
 *
 * A suite decides when it is collected, starts the server in `beforeAll` and stops it in `afterAll`:
 *
 *   const kafka = await kafkaForTests();
 *   describe.skipIf(kafka.skip !== undefined)(`… ${kafka.skip ? `(skipped: ${kafka.skip})` : ''}`, () => {
 *     let brokers: string[];
 *     beforeAll(async () => {
 *       ({ brokers } = await kafka.start!());
 *     }, CONTAINER_START_TIMEOUT_MS);
 *     afterAll(() => kafka.stop?.(), CONTAINER_START_TIMEOUT_MS);
 *   });
 *
 * The development machine has no Docker engine: the container paths have never run there.
 */

/** Where a suite's server comes from, decided without starting anything. */
export type ServerForTests<T> =
  | { skip: string; from?: undefined; start?: undefined; stop?: undefined }
  | {
      skip?: undefined;
      /** The variable that named the server, or testcontainers. */
      from: 'EVENTSTORE_URL' | 'KAFKA_BROKERS' | 'testcontainers';
      /** The server's address; starts its container the first time (later calls share it). */
      start(): Promise<T>;
      /** Stops the container this started, if any; a server named by a variable is left alone. */
      stop(): Promise<void>;
    };

export interface ForTestsOptions {
  /** Where EVENTSTORE_URL / KAFKA_BROKERS are read; process.env by default. */
  env?: Record<string, string | undefined>;
  /** How long a Docker engine may take to answer; DOCKER_TIMEOUT_MS by default. */
  dockerTimeoutMs?: number;
  /** The image to start; the constants below by default. */
  image?: string;
}

/** The one docker-compose.yml runs (25.1 or later: multi-stream appends), in insecure mode. */
export const KURRENTDB_IMAGE = 'docker.kurrent.io/kurrent-latest/kurrentdb:25.1';
/**
 * Confluent's image, which @testcontainers/kafka drives, in KRaft mode: 7.9 is Apache Kafka 3.9, the 3.x
 * broker docker-compose.yml runs (kafkajs is known to work with 3.x).
 */
export const KAFKA_IMAGE = 'confluentinc/cp-kafka:7.9.0';
/** A Docker engine that takes longer than this to answer counts as none. */
export const DOCKER_TIMEOUT_MS = 10_000;
/** For the `beforeAll` that starts a container: the first run may pull its image. */
export const CONTAINER_START_TIMEOUT_MS = 300_000;

export type DockerEngine = { ok: true; host: string } | { ok: false; reason: string };

/**
 * Whether a container runtime answers, found the way testcontainers finds it and within `timeoutMs` (a
 * socket that accepts and never answers counts as none): the runtime it finds is the one it then starts
 * containers on. Where testcontainers would have nothing to try (no TESTCONTAINERS settings file, no
 * DOCKER_HOST, none of the sockets it looks for), the answer is no at once, without loading it.
 */
export async function dockerEngine(timeoutMs = DOCKER_TIMEOUT_MS): Promise<DockerEngine> {
  const candidates = dockerCandidates();
  if (candidates.length === 0)
    return {
      ok: false,
      reason: 'no DOCKER_HOST, ~/.testcontainers.properties, /var/run/docker.sock or rootless Docker socket',
    };
  let testcontainers: typeof import('testcontainers');
  try {
    testcontainers = await import('testcontainers');
  } catch (error) {
    return { ok: false, reason: `testcontainers could not be loaded (${messageOf(error)})` };
  }
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<DockerEngine>((resolve) => {
    timer = setTimeout(
      () =>
        resolve({
          ok: false,
          reason: `no container runtime answered within ${timeoutMs} ms (tried ${candidates.join(', ')})`,
        }),
      timeoutMs,
    );
  });
  const found = testcontainers.getContainerRuntimeClient().then(
    (client): DockerEngine => ({ ok: true, host: client.info.containerRuntime.host }),
    (error): DockerEngine => ({ ok: false, reason: `${messageOf(error)} (tried ${candidates.join(', ')})` }),
  );
  try {
    return await Promise.race([found, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * What testcontainers' runtime strategies would try (testcontainers/build/container-runtime/strategies):
 * tc.host or docker.host in ~/.testcontainers.properties, DOCKER_HOST, /var/run/docker.sock, the
 * rootless and Docker Desktop sockets, Windows' named pipe. Read from process.env, as testcontainers does.
 */
export function dockerCandidates(): string[] {
  if (process.platform === 'win32') return ['//./pipe/docker_engine'];
  const properties = join(homedir(), '.testcontainers.properties');
  return [
    ...(existsSync(properties) ? [properties] : []),
    ...(process.env.DOCKER_HOST ? [`DOCKER_HOST=${process.env.DOCKER_HOST}`] : []),
    ...dockerSockets().filter((socket) => existsSync(socket)),
  ];
}

function dockerSockets(): string[] {
  if (process.platform !== 'linux' && process.platform !== 'darwin') return [];
  const runtimeDir = process.env.XDG_RUNTIME_DIR;
  return [
    '/var/run/docker.sock',
    ...(runtimeDir ? [join(runtimeDir, 'docker.sock')] : []),
    join(homedir(), '.docker', 'run', 'docker.sock'),
    join(homedir(), '.docker', 'desktop', 'docker.sock'),
    join('/run', 'user', String(userInfo().uid), 'docker.sock'),
  ];
}

/** KurrentDB: EVENTSTORE_URL, or a container (`KURRENTDB_INSECURE`, so `?tls=false`) when Docker answers. */
export async function kurrentDbForTests(
  options: ForTestsOptions = {},
): Promise<ServerForTests<{ url: string }>> {
  const url = (options.env ?? process.env).EVENTSTORE_URL?.trim();
  if (url) return fromVariable('EVENTSTORE_URL', { url });
  const engine = await dockerEngine(options.dockerTimeoutMs);
  if (!engine.ok)
    return {
      skip: `no EVENTSTORE_URL and no Docker engine for testcontainers to start KurrentDB on (${engine.reason})`,
    };
  const image = options.image ?? KURRENTDB_IMAGE;
  return fromContainer(`KurrentDB (${image})`, 'EVENTSTORE_URL', async () => {
    const { KurrentDbContainer } = await import('@testcontainers/kurrentdb');
    // Insecure, one node, waiting for the image's health check (the module's defaults).
    const container = await new KurrentDbContainer(image).start();
    return { address: { url: container.getConnectionString() }, stop: () => container.stop() };
  });
}

/** Kafka: KAFKA_BROKERS, or a one-node KRaft broker in a container when Docker answers. */
export async function kafkaForTests(
  options: ForTestsOptions = {},
): Promise<ServerForTests<{ brokers: string[] }>> {
  const brokers = (options.env ?? process.env).KAFKA_BROKERS?.split(',')
    .map((b) => b.trim())
    .filter(Boolean);
  if (brokers?.length) return fromVariable('KAFKA_BROKERS', { brokers });
  const engine = await dockerEngine(options.dockerTimeoutMs);
  if (!engine.ok)
    return {
      skip: `no KAFKA_BROKERS and no Docker engine for testcontainers to start Kafka on (${engine.reason})`,
    };
  const image = options.image ?? KAFKA_IMAGE;
  return fromContainer(`Kafka (${image})`, 'KAFKA_BROKERS', async () => {
    const { KafkaContainer } = await import('@testcontainers/kafka');
    // The module waits until the broker answers on its plaintext listener (9093, advertised as the
    // mapped port on the Docker host).
    const container = await new KafkaContainer(image).withKraft().start();
    return {
      address: { brokers: [`${container.getHost()}:${container.getMappedPort(9093)}`] },
      stop: () => container.stop(),
    };
  });
}

/**
 * For the global setup: the KurrentDB of the run's whole-product HTTP suites when TEST_EVENT_STORE is
 * `kurrentdb` (undefined otherwise). Asked for KurrentDB with no way to get one, it fails: running those
 * suites on PostgreSQL instead would pass for a KurrentDB run.
 */
export async function kurrentDbForRun(
  env: Record<string, string | undefined> = process.env,
): Promise<{ url: string; stop(): Promise<void> } | undefined> {
  if (env.TEST_EVENT_STORE !== 'kurrentdb') return undefined;
  const kurrent = await kurrentDbForTests({ env });
  if (kurrent.skip !== undefined) throw new Error(`TEST_EVENT_STORE=kurrentdb, but ${kurrent.skip}`);
  const { url } = await kurrent.start();
  return { url, stop: kurrent.stop };
}

function fromVariable<T>(from: 'EVENTSTORE_URL' | 'KAFKA_BROKERS', address: T): ServerForTests<T> {
  return { from, start: async () => address, stop: async () => undefined };
}

function fromContainer<T>(
  what: string,
  variable: string,
  run: () => Promise<{ address: T; stop(): Promise<unknown> }>,
): ServerForTests<T> {
  let started: Promise<{ address: T; stop(): Promise<unknown> }> | undefined;
  return {
    from: 'testcontainers',
    start() {
      started ??= run().catch((error) => {
        throw new Error(
          `A Docker engine answers, but the ${what} container did not start: ${messageOf(error)}. ` +
            `Set ${variable} to use a running server instead.`,
          { cause: error },
        );
      });
      return started.then((s) => s.address);
    },
    async stop() {
      const running = started;
      started = undefined;
      const container = await running?.catch(() => undefined);
      await container?.stop();
    },
  };
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

declare module 'vitest' {
  export interface ProvidedContext {
    /** TEST_EVENT_STORE=kurrentdb: the run's KurrentDB (`kurrentDbForRun`, vitest.global-setup.ts). */
    kurrentDbUrl?: string;
  }
}
