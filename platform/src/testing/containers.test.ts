import { createRequire } from 'node:module';
import { createServer, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  dockerCandidates,
  dockerEngine,
  kafkaForTests,
  kurrentDbForRun,
  kurrentDbForTests,
} from './containers.ts';

// What runs here, where there is no Docker engine: the variables win without loading testcontainers; with
// neither a variable nor Docker the suites skip, naming both ways; and asking a Docker endpoint that never
// answers gives up in bounded time. Starting a container has not run here (no Docker engine).
//
// The tests run in this order, in this file's own process: testcontainers is a CommonJS package, so once
// anything imports it, it is in require.cache.
const loaded = () =>
  Object.keys(createRequire(import.meta.url).cache).some((file) =>
    file.includes('/node_modules/testcontainers/'),
  );

describe('servers for the KurrentDB and Kafka suites', () => {
  it('uses EVENTSTORE_URL and KAFKA_BROKERS when set, without loading testcontainers', async () => {
    const env = {
      EVENTSTORE_URL: ' kurrentdb://kurrent.test:2113?tls=false ',
      KAFKA_BROKERS: 'k1:9092, k2:9092,',
    };
    const kurrent = await kurrentDbForTests({ env });
    expect(kurrent).toMatchObject({ from: 'EVENTSTORE_URL' });
    expect(kurrent.skip).toBeUndefined();
    expect(await kurrent.start?.()).toEqual({ url: 'kurrentdb://kurrent.test:2113?tls=false' });
    await expect(kurrent.stop?.()).resolves.toBeUndefined();

    const kafka = await kafkaForTests({ env });
    expect(kafka).toMatchObject({ from: 'KAFKA_BROKERS' });
    expect(await kafka.start?.()).toEqual({ brokers: ['k1:9092', 'k2:9092'] });
    await expect(kafka.stop?.()).resolves.toBeUndefined();

    await expect(kurrentDbForRun({ ...env, TEST_EVENT_STORE: 'kurrentdb' })).resolves.toMatchObject({
      url: 'kurrentdb://kurrent.test:2113?tls=false',
    });
    await expect(kurrentDbForRun(env)).resolves.toBeUndefined();
    expect(loaded()).toBe(false);
  });

  // Only where testcontainers would have nothing to try: no DOCKER_HOST, no settings file, no socket.
  it.runIf(dockerCandidates().length === 0)(
    'with neither a variable nor any Docker engine, skips at once naming both ways, without loading testcontainers',
    async () => {
      const started = performance.now();
      const kurrent = await kurrentDbForTests({ env: { EVENTSTORE_URL: '  ' } });
      const kafka = await kafkaForTests({ env: { KAFKA_BROKERS: ' , ' } });
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(kurrent.skip).toBe(
        'no EVENTSTORE_URL and no Docker engine for testcontainers to start KurrentDB on ' +
          '(no DOCKER_HOST, ~/.testcontainers.properties, /var/run/docker.sock or rootless Docker socket)',
      );
      expect(kafka.skip).toMatch(
        /^no KAFKA_BROKERS and no Docker engine for testcontainers to start Kafka on \(no DOCKER_HOST/,
      );
      expect(kurrent.start).toBeUndefined();
      await expect(kurrentDbForRun({ TEST_EVENT_STORE: 'kurrentdb' })).rejects.toThrow(
        /^TEST_EVENT_STORE=kurrentdb, but no EVENTSTORE_URL and no Docker engine/,
      );
      expect(loaded()).toBe(false);
    },
  );

  it('gives up within its time limit on a Docker endpoint that accepts and never answers', async () => {
    // A TCP listener that takes connections and says nothing: not an engine, the case the time limit is for.
    // DOCKER_HOST is read by testcontainers from process.env, once per process (this is the first time).
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    const before = process.env.DOCKER_HOST;
    process.env.DOCKER_HOST = `tcp://127.0.0.1:${port}`;
    try {
      const started = performance.now();
      const engine = await dockerEngine(1_500);
      // The import of testcontainers comes before the time limit starts.
      expect(performance.now() - started).toBeLessThan(6_000);
      expect(engine).toEqual({
        ok: false,
        reason: expect.stringMatching(
          /^no container runtime answered within 1500 ms \(tried DOCKER_HOST=tcp:/,
        ),
      });
      expect(sockets.size).toBeGreaterThan(0);
      expect(loaded()).toBe(true);

      const kafka = await kafkaForTests({ env: {}, dockerTimeoutMs: 500 });
      expect(kafka.skip).toMatch(
        /^no KAFKA_BROKERS and no Docker engine for testcontainers to start Kafka on \(no container runtime answered within 500 ms/,
      );
    } finally {
      if (before === undefined) delete process.env.DOCKER_HOST;
      else process.env.DOCKER_HOST = before;
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
