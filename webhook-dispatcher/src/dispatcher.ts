import {
  type Clock,
  type EventStore,
  type PgNotifications,
  type Position,
  type RecordedEvent,
  sleepUnlessAborted,
  systemClock,
} from '@mrn/platform';
import type { ClaimedDelivery } from './delivery/claim.ts';
import { Deliveries, type DeliveryOptions } from './delivery/delivery.ts';
import { DispatcherIntake } from './intake/intake.ts';
import type { DispatcherSource } from './intake/sources.ts';
import { startLookupsAtIntake, WatchedLookupsReader } from './intake/watched-lookups.ts';
import { createMissingSecrets } from './signing/signing.ts';

export { CHECKPOINT_NAME, LOOKUPS_CHECKPOINT } from './checkpoint.ts';
export type { ClaimedDelivery } from './delivery/claim.ts';
export type { DeliveryOutcome } from './delivery/delivery.ts';
export { LEASE_MS, MAX_IN_FLIGHT, PER_ENDPOINT_IN_FLIGHT } from './delivery/delivery.ts';
export type { Outcome } from './delivery/http-post.ts';
export {
  CONNECT_TIMEOUT_MS,
  HEADERS_TIMEOUT_MS,
  REQUEST_TIMEOUT_MS,
  RESPONSE_KEEP_BYTES,
} from './delivery/http-post.ts';
export { JITTER, MAX_ATTEMPTS, RETRY_DELAYS_MS } from './delivery/retry-policy.ts';
export { DISABLE_AFTER_MS } from './endpoints/endpoint-health.ts';

export interface DispatcherOptions extends DeliveryOptions {
  store: EventStore;
  /** Base of the merchant links in payloads (PUBLIC_URL); a function when it is known only once listening. */
  publicUrl: string | (() => string);
  /** Where events come from: the event store (default) or the Kafka topic (intake/sources.ts). */
  source?: DispatcherSource;
  /**
   * With a database URL, one process reads the log at a time (the intake's lease; the others stand by
   * and take over within a second or so). Deliveries are shared by every process either way.
   */
  leaseUrl?: string;
  /**
   * The process's LISTEN connection: projections' progress notices wake the look-ups reader at once
   * (without one it reads the feed every second).
   */
  notifications?: PgNotifications;
}

/**
 * The webhook dispatcher (DESIGN §1, §5), of three parts: the intake (intake/intake.ts) reads the log after
 * its checkpoint and, in the same transaction as moving it, writes outbox rows (exactly-once enqueue); the
 * look-ups reader (intake/watched-lookups.ts) does the same with projections' feed of look-ups of watched
 * merchants (being-shopped alerts; the dispatcher reads no search, issue 31); the deliveries (delivery/delivery.ts) claim due rows under a lease and deliver them (at-least-once), each
 * endpoint isolated from the others and parked by its circuit breaker (endpoints/circuit-breaker.ts) or
 * disabled after days of failures (endpoints/endpoint-health.ts). New rows wake the deliveries at once.
 */
export class WebhookDispatcher {
  private readonly intake: DispatcherIntake;
  private readonly lookups: WatchedLookupsReader;
  private readonly deliveries: Deliveries;
  private readonly controller = new AbortController();
  private running: Promise<void> | undefined;

  constructor(private readonly opts: DispatcherOptions) {
    const clock: Clock = opts.clock ?? systemClock;
    this.deliveries = new Deliveries({ ...opts, clock });
    this.intake = new DispatcherIntake({
      pool: opts.pool,
      store: opts.store,
      clock,
      logger: opts.logger,
      publicUrl: opts.publicUrl,
      ...(opts.source ? { source: opts.source } : {}),
      ...(opts.leaseUrl ? { leaseUrl: opts.leaseUrl } : {}),
      onEnqueued: () => this.deliveries.wakeUp(),
    });
    this.lookups = new WatchedLookupsReader({
      pool: opts.pool,
      clock,
      logger: opts.logger,
      publicUrl: opts.publicUrl,
      ...(opts.leaseUrl ? { leaseUrl: opts.leaseUrl } : {}),
      ...(opts.notifications ? { notifications: opts.notifications } : {}),
      onEnqueued: () => this.deliveries.wakeUp(),
    });
  }

  /** Starts following the source and the feed of look-ups, and the live delivery loop. */
  start(): void {
    void createMissingSecrets(this.opts.pool, (this.opts.clock ?? systemClock).now()).catch((err: unknown) =>
      this.opts.logger.warn({ err }, 'signing secrets of known funders not made; made on first delivery'),
    );
    this.running ??= this.follow(this.controller.signal);
    this.deliveries.start();
  }

  private async follow(signal: AbortSignal): Promise<void> {
    // The look-ups reader's first place is the intake's, before the intake moves (watched-lookups.ts).
    for (let failures = 0; !signal.aborted; failures++) {
      try {
        await startLookupsAtIntake(this.opts.pool);
        break;
      } catch (err) {
        this.opts.logger.error({ err }, 'webhook dispatcher could not read its checkpoints; retrying');
        await sleepUnlessAborted(Math.min(30_000, 1000 * 2 ** Math.min(failures, 5)), signal);
      }
    }
    await Promise.all([this.intake.follow(signal), this.lookups.follow(signal)]);
  }

  /** The intake finishes the batch in hand; requests in flight are aborted and their rows given back. */
  async stop(): Promise<void> {
    this.controller.abort();
    await Promise.all([this.running?.catch(() => undefined), this.deliveries.stop()]);
  }

  /**
   * For tests and tools: catch up with the log, then with the feed of look-ups, then deliver everything
   * due now (no sleeping). With the Kafka source there is no head of the log to catch up to: its consumer
   * runs from `start()`.
   */
  async runOnce(): Promise<{ enqueued: number; attempted: number }> {
    await startLookupsAtIntake(this.opts.pool);
    let enqueued = this.intake.source.name === 'event-store' ? await this.intake.pump() : 0;
    enqueued += await this.lookups.pump();
    return { enqueued, attempted: await this.deliveries.drain() };
  }

  /** Reads the feed of look-ups of watched merchants to its end; returns the outbox rows written. */
  pumpLookups(): Promise<number> {
    return this.lookups.pump();
  }

  readCheckpoint(): Promise<Position> {
    return this.intake.readCheckpoint();
  }

  /** Reads the log from the checkpoint to its head; returns the outbox rows written. */
  pump(): Promise<number> {
    return this.intake.pump();
  }

  /**
   * One batch of the log after the checkpoint, with the checkpoint, in one transaction (intake/intake.ts).
   */
  applyBatch(events: RecordedEvent[]): Promise<number> {
    return this.intake.applyBatch(events);
  }

  /** Events from Kafka, applied once by id (intake/intake.ts). */
  applyDelivered(events: RecordedEvent[]): Promise<number> {
    return this.intake.applyDelivered(events);
  }

  /** Claims due rows (delivery/delivery.ts): at most `limit`; `recent`: only rows due in the last moments. */
  claimDue(limit?: number, recent?: boolean): Promise<ClaimedDelivery[]> {
    return this.deliveries.claimDue(limit, recent);
  }

  /** Claims one probe per parked endpoint whose pause is over (endpoints/circuit-breaker.ts). */
  claimProbes(limit?: number): Promise<ClaimedDelivery[]> {
    return this.deliveries.claimProbes(limit);
  }

  /** Claims one round of due rows and probes and delivers them; returns how many were attempted. */
  deliverDue(): Promise<number> {
    return this.deliveries.deliverDue();
  }
}

/** Starts the dispatcher in the server (DESIGN §1); `stop()` ends the log reader and the workers. */
export function startDispatcher(opts: DispatcherOptions): {
  dispatcher: WebhookDispatcher;
  stop(): Promise<void>;
} {
  const dispatcher = new WebhookDispatcher(opts);
  dispatcher.start();
  return { dispatcher, stop: () => dispatcher.stop() };
}
