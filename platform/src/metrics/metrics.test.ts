import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PostgresEventStore } from '../event-store/postgres-event-store.ts';
import { WrongExpectedRevisionError } from '../event-store/types.ts';
import { createTestDatabase, type TestDatabase } from '../testing.ts';
import { serveMetrics, timeRequests } from './fastify.ts';
import { createMetrics, type Metrics } from './registry.ts';

interface Sample {
  labels: Record<string, string>;
  value: number;
}

/** The samples of one metric in Prometheus text exposition. */
function samples(text: string, name: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const labels = Object.fromEntries(
      [...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1]!, x[2]!]),
    );
    out.push({ labels, value: Number(m[3]) });
  }
  return out;
}

/** The value of the one sample of `name` carrying all of `labels`, undefined when there is none. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples(text, name).filter((s) =>
    Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  expect(found.length, `${name} ${JSON.stringify(labels)}: ${JSON.stringify(found)}`).toBeLessThanOrEqual(1);
  return found[0]?.value;
}

function thingsApp(metrics: Metrics): FastifyInstance {
  const app = Fastify();
  timeRequests(app, metrics);
  app.get<{ Params: { id: string } }>('/things/:id', async (request, reply) => {
    if (request.params.id === 'missing') return reply.code(404).send({ error: 'no such thing' });
    return { id: request.params.id };
  });
  app.post('/things', async (_request, reply) => reply.code(201).send({ id: 'new' }));
  return app;
}

describe('request timing, served apart', () => {
  const metrics = createMetrics('test-api');
  const app = thingsApp(metrics);
  // The operations listener's side: the exposition, on an app of its own.
  const ops = Fastify();
  serveMetrics(ops, metrics);
  let text: string;
  let contentType: string | undefined;

  beforeAll(async () => {
    for (const id of ['1', '2', '3'])
      expect((await app.inject({ url: `/things/${id}` })).statusCode).toBe(200);
    expect((await app.inject({ url: '/things/missing' })).statusCode).toBe(404);
    expect((await app.inject({ method: 'POST', url: '/things' })).statusCode).toBe(201);
    expect((await app.inject({ url: '/nowhere/42' })).statusCode).toBe(404);
    // The public app does not serve the exposition (its 404 is counted, as "unmatched").
    expect((await app.inject({ url: '/metrics' })).statusCode).toBe(404);
    // No Authorization header anywhere: the scrape needs none (the listener is loopback's).
    const scrape = await ops.inject({ url: '/metrics' });
    expect(scrape.statusCode).toBe(200);
    text = scrape.body;
    contentType = scrape.headers['content-type'] as string | undefined;
  });
  afterAll(async () => {
    await app.close();
    await ops.close();
  });

  it('serves the registry in the Prometheus text format', () => {
    expect(contentType).toBe(metrics.registry.contentType);
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(text).toContain('# TYPE outbox_depth gauge');
    // The default process metrics, with the service label.
    expect(sample(text, 'process_cpu_user_seconds_total', { service: 'test-api' })).toBeGreaterThan(0);
  });

  it('counts requests by route pattern, method and status code', () => {
    expect(text).toMatch(/http_request_duration_seconds_count\{[^}]*route="\/things\/:id"[^}]*\} 3\n/);
    const labels = { method: 'GET', route: '/things/:id', service: 'test-api' };
    expect(sample(text, 'http_request_duration_seconds_count', { ...labels, status_code: '200' })).toBe(3);
    expect(sample(text, 'http_request_duration_seconds_count', { ...labels, status_code: '404' })).toBe(1);
    expect(
      sample(text, 'http_request_duration_seconds_count', {
        method: 'POST',
        route: '/things',
        status_code: '201',
      }),
    ).toBe(1);
    // Every request falls in the last (+Inf) bucket, and the sum is a duration, not a count of milliseconds.
    expect(
      sample(text, 'http_request_duration_seconds_bucket', { ...labels, status_code: '200', le: '+Inf' }),
    ).toBe(3);
    const sum = sample(text, 'http_request_duration_seconds_sum', { ...labels, status_code: '200' })!;
    expect(sum).toBeGreaterThan(0);
    expect(sum).toBeLessThan(3);
    expect(text).not.toMatch(/route="\/things\/\d/);
  });

  it('records a request no route matched as "unmatched", never its URL', () => {
    expect(
      sample(text, 'http_request_duration_seconds_count', {
        method: 'GET',
        route: 'unmatched',
        status_code: '404',
      }),
    ).toBe(2);
    expect(text).not.toContain('/nowhere');
  });

  it('does not count the scrapes of the operations listener', () => {
    expect(
      samples(text, 'http_request_duration_seconds_count').filter((s) => s.labels.route === '/metrics'),
    ).toEqual([]);
    const total = samples(text, 'http_request_duration_seconds_count').reduce((n, s) => n + s.value, 0);
    expect(total).toBe(7);
  });
});

describe('createMetrics', () => {
  it('gives each call a registry of its own', async () => {
    const a = createMetrics('service-a', { defaultMetrics: false });
    const b = createMetrics('service-b', { defaultMetrics: false });
    const app = thingsApp(a);
    await app.inject({ url: '/things/1' });
    await app.close();
    b.observeAppend('single', 0.002);

    const textA = await a.registry.metrics();
    const textB = await b.registry.metrics();
    expect(
      sample(textA, 'http_request_duration_seconds_count', { route: '/things/:id', service: 'service-a' }),
    ).toBe(1);
    expect(samples(textB, 'http_request_duration_seconds_count')).toEqual([]);
    expect(
      sample(textB, 'event_store_append_duration_seconds_count', { kind: 'single', service: 'service-b' }),
    ).toBe(1);
    expect(samples(textA, 'event_store_append_duration_seconds_count')).toEqual([]);
    expect(textA).not.toContain('service-b');
  });

  it('counts an outbox only when scraped, and leaves out one whose count fails', async () => {
    const metrics = createMetrics('dispatcher', { defaultMetrics: false });
    let depth = 7;
    const countDeliveries = vi.fn(async () => depth);
    const countMail = vi.fn(async (): Promise<number> => {
      throw new Error('connection refused');
    });
    const untrack = metrics.trackOutboxDepth('webhook_deliveries', countDeliveries);
    metrics.trackOutboxDepth('mail_outbox', countMail);
    expect(countDeliveries).not.toHaveBeenCalled();

    let text = await metrics.registry.metrics();
    expect(countDeliveries).toHaveBeenCalledTimes(1);
    expect(countMail).toHaveBeenCalledTimes(1);
    expect(text).toMatch(/outbox_depth\{[^}]*outbox="webhook_deliveries"[^}]*\} 7\n/);
    expect(sample(text, 'outbox_depth', { outbox: 'webhook_deliveries', service: 'dispatcher' })).toBe(7);
    expect(sample(text, 'outbox_depth', { outbox: 'mail_outbox' })).toBeUndefined();

    depth = 2;
    text = await metrics.registry.metrics();
    expect(countDeliveries).toHaveBeenCalledTimes(2);
    expect(sample(text, 'outbox_depth', { outbox: 'webhook_deliveries' })).toBe(2);

    untrack();
    text = await metrics.registry.metrics();
    expect(countDeliveries).toHaveBeenCalledTimes(2);
    expect(sample(text, 'outbox_depth', { outbox: 'webhook_deliveries' })).toBeUndefined();
  });

  it("works out a projector's lag at scrape time", async () => {
    const metrics = createMetrics('projections', { defaultMetrics: false });
    metrics.setProjectionLag('merchants', {
      newestAppliedAt: new Date(Date.now() - 30_000),
      atHead: false,
      eventsBehind: 12,
    });
    metrics.setProjectionLag('users', { newestAppliedAt: new Date(Date.now() - 3_600_000), atHead: true });
    const text = await metrics.registry.metrics();
    const merchants = sample(text, 'projection_lag_seconds', { projector: 'merchants' })!;
    expect(merchants).toBeGreaterThanOrEqual(30);
    expect(merchants).toBeLessThan(40);
    expect(sample(text, 'projection_lag_seconds', { projector: 'users' })).toBe(0);
    expect(sample(text, 'projection_lag_events', { projector: 'merchants' })).toBe(12);
    expect(sample(text, 'projection_lag_events', { projector: 'users' })).toBe(0);
  });

  it('observes webhook deliveries', async () => {
    const metrics = createMetrics('dispatcher', { defaultMetrics: false });
    metrics.webhookDeliveryDuration.observe({ outcome: 'delivered' }, 0.12);
    metrics.webhookDeliveryDuration.observe({ outcome: 'failed' }, 10);
    metrics.webhookEventToDelivery.observe(4);
    const text = await metrics.registry.metrics();
    expect(sample(text, 'webhook_delivery_duration_seconds_count', { outcome: 'delivered' })).toBe(1);
    expect(sample(text, 'webhook_delivery_duration_seconds_count', { outcome: 'failed' })).toBe(1);
    expect(sample(text, 'webhook_event_to_delivery_seconds_count')).toBe(1);
  });
});

describe('PostgresEventStore onAppend', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db?.drop());

  const ev = () => ({ id: randomUUID(), type: 'ThingHappened', data: {} });

  it('reports one observation per append, failures included', async () => {
    const metrics = createMetrics('command-api', { defaultMetrics: false });
    const onAppend = vi.fn(metrics.observeAppend);
    const store = new PostgresEventStore(db.pool, { onAppend });
    try {
      const stream = `thing-${randomUUID()}`;
      await store.appendToStream(stream, [ev(), ev()], { expectedRevision: 'no_stream' });
      await store.appendToStream(stream, [ev()], { expectedRevision: 1n });
      await store.appendMany([
        { streamId: `thing-${randomUUID()}`, expectedRevision: 'no_stream', events: [ev()] },
        { streamId: stream, expectedRevision: 2n, events: [ev()] },
      ]);
      await expect(store.appendToStream(stream, [ev()], { expectedRevision: 0n })).rejects.toBeInstanceOf(
        WrongExpectedRevisionError,
      );

      expect(onAppend.mock.calls.map((c) => c[0])).toEqual(['single', 'single', 'many', 'single']);
      for (const [, seconds] of onAppend.mock.calls) {
        expect(seconds).toBeGreaterThan(0);
        expect(seconds).toBeLessThan(10);
      }
      const text = await metrics.registry.metrics();
      expect(sample(text, 'event_store_append_duration_seconds_count', { kind: 'single' })).toBe(3);
      expect(sample(text, 'event_store_append_duration_seconds_count', { kind: 'many' })).toBe(1);
    } finally {
      await store.close();
    }
  });

  it('appends as before when the hook throws', async () => {
    const store = new PostgresEventStore(db.pool, {
      onAppend: () => {
        throw new Error('broken hook');
      },
    });
    try {
      const stream = `thing-${randomUUID()}`;
      const result = await store.appendToStream(stream, [ev()], { expectedRevision: 'no_stream' });
      expect(result.nextRevision).toBe(0n);
      const [many] = await store.appendMany([{ streamId: stream, expectedRevision: 0n, events: [ev()] }]);
      expect(many!.nextRevision).toBe(1n);
    } finally {
      await store.close();
    }
  });
});
