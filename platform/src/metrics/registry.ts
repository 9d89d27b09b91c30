import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** The event store's two ways of appending: one stream, or many streams in one statement. */
export type AppendKind = 'single' | 'many';

/** The outboxes whose depth is reported (rows waiting to be sent). */
export type OutboxName = 'webhook_deliveries' | 'mail_outbox';

/** What the projections process knows about one projector (see `Metrics.setProjectionLag`). */
export interface ProjectionProgress {
  /** `recordedAt` of the newest event the projector has applied; null when it has applied none yet. */
  newestAppliedAt: Date | null;
  /** True when nothing past the projector's position is in the log: its lag is 0 however old that event is. */
  atHead: boolean;
  /** Events in the log past the projector's position, when the caller knows it without extra work. */
  eventsBehind?: number;
}

export interface CreateMetricsOptions {
  /** Node.js process metrics (CPU, memory, event loop lag, GC) on this registry; default true. */
  defaultMetrics?: boolean;
}

/** One service's metrics: a registry of its own, never prom-client's global one. */
export interface Metrics {
  readonly service: string;
  readonly registry: Registry;
  readonly httpRequestDuration: Histogram<'method' | 'route' | 'status_code'>;
  readonly eventStoreAppendDuration: Histogram<'kind'>;
  readonly projectionLagSeconds: Gauge<'projector'>;
  readonly projectionLagEvents: Gauge<'projector'>;
  readonly outboxDepth: Gauge<'outbox'>;
  readonly webhookDeliveryDuration: Histogram<'outcome'>;
  readonly webhookEventToDelivery: Histogram;
  /**
   * The event store's append hook, already bound: `new PostgresEventStore(pool, { onAppend: metrics.observeAppend })`.
   */
  readonly observeAppend: (kind: AppendKind, seconds: number) => void;
  /**
   * Records a projector's progress. The lag itself is worked out at scrape time against the clock then,
   * so a projector that stops applying shows a lag that keeps growing rather than its last value.
   */
  setProjectionLag(projector: string, progress: ProjectionProgress): void;
  /**
   * Reports `outbox_depth{outbox}` from `count` (typically a `select count(*)`), run only when /metrics is
   * scraped: no timer. A count that fails or takes longer than `OUTBOX_COUNT_TIMEOUT_MS` leaves the outbox
   * out of that scrape instead of failing the whole scrape. Returns a function that stops reporting it.
   */
  trackOutboxDepth(outbox: OutboxName, count: () => Promise<number>): () => void;
}

/** Buckets of a sub-second API: 5 ms … 2.5 s. */
export const HTTP_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
/** One-statement appends: 1 ms … 1 s. */
export const APPEND_DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];
/** One POST to a receiver, bounded by the dispatcher's 10 s request timeout. */
export const WEBHOOK_DELIVERY_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** From the event to its delivery: immediate, or after retries of 5 s … 10 h (the schedule spans ~2.6 days). */
export const WEBHOOK_EVENT_TO_DELIVERY_BUCKETS = [
  0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 3600, 7200, 21_600, 86_400, 259_200,
];
/** How long one outbox count may take before the scrape goes on without it. */
export const OUTBOX_COUNT_TIMEOUT_MS = 2000;

export function createMetrics(service: string, options: CreateMetricsOptions = {}): Metrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const httpRequestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern ("unmatched" when no route matched) and status code.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: HTTP_DURATION_BUCKETS,
    registers,
  });

  const eventStoreAppendDuration = new Histogram({
    name: 'event_store_append_duration_seconds',
    help: 'Event store appends: one stream (single) or many streams in one statement (many).',
    labelNames: ['kind'] as const,
    buckets: APPEND_DURATION_BUCKETS,
    registers,
  });

  const progress = new Map<string, ProjectionProgress>();
  const projectionLagSeconds = new Gauge({
    name: 'projection_lag_seconds',
    help: "How far each projector is behind the log's head: now minus the time of the newest event it applied, 0 at the head.",
    labelNames: ['projector'] as const,
    registers,
    collect() {
      const now = Date.now();
      for (const [projector, p] of progress) {
        const seconds =
          p.atHead || p.newestAppliedAt === null
            ? 0
            : Math.max(0, (now - p.newestAppliedAt.getTime()) / 1000);
        this.set({ projector }, seconds);
      }
    },
  });
  const projectionLagEvents = new Gauge({
    name: 'projection_lag_events',
    help: "Events in the log past each projector's position, where known.",
    labelNames: ['projector'] as const,
    registers,
  });

  const outboxCounts = new Map<OutboxName, () => Promise<number>>();
  const outboxDepth = new Gauge({
    name: 'outbox_depth',
    help: 'Rows waiting in each outbox, counted when scraped.',
    labelNames: ['outbox'] as const,
    registers,
    async collect() {
      await Promise.all(
        [...outboxCounts].map(async ([outbox, count]) => {
          const depth = await bounded(count, OUTBOX_COUNT_TIMEOUT_MS);
          if (depth === undefined) this.remove({ outbox });
          else this.set({ outbox }, depth);
        }),
      );
    },
  });

  const webhookDeliveryDuration = new Histogram({
    name: 'webhook_delivery_duration_seconds',
    help: 'One webhook delivery attempt (the POST to the receiver), by outcome.',
    labelNames: ['outcome'] as const,
    buckets: WEBHOOK_DELIVERY_BUCKETS,
    registers,
  });
  const webhookEventToDelivery = new Histogram({
    name: 'webhook_event_to_delivery_seconds',
    help: 'From the time an event was recorded to its successful delivery to a webhook receiver, retries included.',
    buckets: WEBHOOK_EVENT_TO_DELIVERY_BUCKETS,
    registers,
  });

  return {
    service,
    registry,
    httpRequestDuration,
    eventStoreAppendDuration,
    projectionLagSeconds,
    projectionLagEvents,
    outboxDepth,
    webhookDeliveryDuration,
    webhookEventToDelivery,
    observeAppend: (kind, seconds) => eventStoreAppendDuration.observe({ kind }, seconds),
    setProjectionLag(projector, p) {
      progress.set(projector, { ...p });
      if (p.eventsBehind !== undefined) projectionLagEvents.set({ projector }, p.eventsBehind);
      else if (p.atHead) projectionLagEvents.set({ projector }, 0);
    },
    trackOutboxDepth(outbox, count) {
      outboxCounts.set(outbox, count);
      return () => {
        if (outboxCounts.get(outbox) !== count) return;
        outboxCounts.delete(outbox);
        outboxDepth.remove({ outbox });
      };
    },
  };
}

/** The count, or undefined when it failed, was not a number or did not answer in time. */
async function bounded(count: () => Promise<number>, timeoutMs: number): Promise<number | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), timeoutMs);
  });
  try {
    const value = await Promise.race([
      Promise.resolve()
        .then(count)
        .then(Number)
        .catch(() => undefined),
      timeout,
    ]);
    return value === undefined || Number.isNaN(value) ? undefined : value;
  } finally {
    clearTimeout(timer);
  }
}
