import {
  type Clock,
  type EventStore,
  type Logger,
  type Mailer,
  type Pool,
  type PoolClient,
  type Position,
  type RecordedEvent,
  START,
  systemClock,
  withTransaction,
} from '@mrn/platform';
import type { Agent } from 'undici';
import { CHECKPOINT_NAME } from './checkpoint.ts';
import { MAX_PAUSE_MS } from './circuit-breaker.ts';
import { type ClaimedDelivery, claimDue, claimProbes } from './claim.ts';
import { applyEvent, HANDLED_TYPES } from './enqueue.ts';
import { GroupWriter } from './group-writer.ts';
import {
  CONNECT_TIMEOUT_MS,
  describe,
  HEADERS_TIMEOUT_MS,
  type HttpTimeouts,
  type Outcome,
  postWebhook,
  REQUEST_TIMEOUT_MS,
  webhookAgent,
} from './http-post.ts';
import { InFlight } from './in-flight.ts';
import { claimUnseen } from './kafka-dedupe.ts';
import { type Finished, writeFailures, writeSuccesses } from './outcomes.ts';
import { isUnreadable, quarantineEvent } from './quarantine.ts';
import { setQuietMerchantsApart, storeQuietCopies } from './quiet-merchants.ts';
import { signatureHeader, signingSecretsOfMany } from './signing.ts';
import { type DispatcherSource, eventStoreSource, type SourceTarget } from './sources.ts';
import type { AddressPolicy } from './ssrf.ts';

export { CHECKPOINT_NAME } from './checkpoint.ts';
export type { ClaimedDelivery } from './claim.ts';
export type { Outcome } from './http-post.ts';
export {
  CONNECT_TIMEOUT_MS,
  HEADERS_TIMEOUT_MS,
  REQUEST_TIMEOUT_MS,
  RESPONSE_KEEP_BYTES,
} from './http-post.ts';
export { DISABLE_AFTER_MS, JITTER, MAX_ATTEMPTS, RETRY_DELAYS_MS } from './retry-policy.ts';

/** A claimed row is another worker's again after this (a crashed worker's rows are not lost). */
export const LEASE_MS = 30_000;
/**
 * Requests in flight at once per endpoint (account + target) in one process: an endpoint that hangs holds
 * at most these, whatever its backlog, and a healthy one still has several to catch up with.
 */
export const PER_ENDPOINT_IN_FLIGHT = 4;
/**
 * Requests in flight at once in one process. Far above what 50 hanging endpoints hold (200) until their
 * breakers park them; each is a socket and a few KB, nothing a process runs short of.
 */
export const MAX_IN_FLIGHT = 512;
/** Rows claimed at most by one claim. */
const CLAIM_BATCH = 100;
/**
 * What a recent claim reads: rows due in the last second. A row is due from the moment its event is
 * applied, so one second covers the time from there to the claim it wakes with a wide margin; a row it
 * misses is found by the next full claim.
 */
const RECENT_MS = 1000;
/** How often the live loop looks for parked endpoints whose pause is over. */
const PROBE_EVERY_MS = 1000;
const IDLE_CHECKPOINT_MS = 5000;
const ADVISORY_LOCK = 727_011;

export interface DispatcherOptions {
  pool: Pool;
  store: EventStore;
  mailer: Mailer;
  clock?: Clock;
  logger: Logger;
  /** Base of the merchant links in payloads (PUBLIC_URL); a function when it is known only once listening. */
  publicUrl: string | (() => string);
  /** `WEBHOOK_ALLOW_LOOPBACK`: when undefined, read from the process environment. */
  allowLoopback?: boolean;
  /** Rows claimed at most by one claim. */
  claimBatch?: number;
  /** Deliveries in flight at once in this process; 0 starts no live delivery (tests call runOnce). */
  maxInFlight?: number;
  /** Deliveries in flight at once per endpoint in this process. */
  perEndpointInFlight?: number;
  /** How often an idle dispatcher looks for due retries. */
  pollIntervalMs?: number;
  /** 0 ≤ x < 1; injected by tests to pin the jitter. */
  random?: () => number;
  connectTimeoutMs?: number;
  headersTimeoutMs?: number;
  /** The cap on a whole request. */
  requestTimeoutMs?: number;
  /** Where events come from: the event store (default) or the Kafka topic (sources.ts). */
  source?: DispatcherSource;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

/**
 * The webhook dispatcher (DESIGN §1, §5): reads the log after its checkpoint and, in the same
 * transaction as moving it, writes outbox rows (exactly-once enqueue); a live loop claims due rows with
 * `FOR UPDATE SKIP LOCKED` under a lease and delivers them (at-least-once), logging every attempt from
 * its start. Endpoints are isolated from each other (issue 20): a pool of deliveries in flight rather
 * than batches waited for, a cap per endpoint, short connect and header timeouts, and a circuit breaker
 * shared by every process (circuit-breaker.ts).
 */
export class WebhookDispatcher implements SourceTarget {
  private readonly clock: Clock;
  private readonly source: DispatcherSource;
  private readonly policy: AddressPolicy;
  private readonly timeouts: HttpTimeouts;
  private readonly agent: Agent;
  private readonly inFlight: InFlight;
  private readonly controller = new AbortController();
  private readonly running: Promise<void>[] = [];
  /** Every launched group of deliveries until it has finished: stop() waits for them. */
  private readonly launched = new Set<Promise<void>>();
  private readonly sleepers = new Set<() => void>();
  /** Counts wake-ups, so that one arriving while the live loop is claiming (not asleep) is not lost. */
  private wakeUps = 0;
  /** A slot that work was waiting for has freed since the last claim: the next one reads every due row. */
  private slotFreed = false;
  private wakeUp = () => {
    this.wakeUps++;
    for (const wake of [...this.sleepers]) wake();
  };
  private lastCheckpointWrite = 0;
  // Outcomes are written in groups (≥ 1,000 deliveries/s); successes and failures apart, so that a storm
  // of timeouts from hanging endpoints never holds back the recording of healthy deliveries.
  private readonly successes = new GroupWriter<Finished>((group) =>
    writeSuccesses(this.opts.pool, group, this.clock.now()),
  );
  private readonly failures = new GroupWriter<Finished>(async (group) => {
    const disabled = await writeFailures(this.opts.pool, group, {
      random: this.random,
      logger: this.opts.logger,
    });
    // Their admins' e-mails are due now.
    if (disabled > 0) this.wakeUp();
  });

  constructor(private readonly opts: DispatcherOptions) {
    this.clock = opts.clock ?? systemClock;
    this.source = opts.source ?? eventStoreSource(opts.store);
    this.policy = {
      allowLoopback:
        opts.allowLoopback ?? process.env.WEBHOOK_ALLOW_LOOPBACK?.trim().toLowerCase() === 'true',
    };
    this.timeouts = {
      connectMs: opts.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
      headersMs: opts.headersTimeoutMs ?? HEADERS_TIMEOUT_MS,
      totalMs: opts.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
    };
    this.agent = webhookAgent(this.policy, this.timeouts);
    this.inFlight = new InFlight(
      opts.maxInFlight ?? MAX_IN_FLIGHT,
      opts.perEndpointInFlight ?? PER_ENDPOINT_IN_FLIGHT,
      opts.claimBatch ?? CLAIM_BATCH,
    );
  }

  private get random(): () => number {
    return this.opts.random ?? Math.random;
  }

  /** Starts tailing the log and the live delivery loop. */
  start(): void {
    this.running.push(this.tail());
    if (this.inFlight.limit > 0) this.running.push(this.feed());
  }

  async stop(): Promise<void> {
    this.controller.abort();
    this.wakeUp?.();
    await Promise.allSettled(this.running);
    // Requests in flight were aborted with the controller; their rows are given back.
    await Promise.allSettled([...this.launched]);
    await this.agent.close().catch(() => undefined);
  }

  /**
   * For tests and tools: catch up with the log, then deliver everything due now (no sleeping). With the
   * Kafka source there is no head to catch up to: its consumer runs from `start()`, and this only delivers.
   */
  async runOnce(): Promise<{ enqueued: number; attempted: number }> {
    const enqueued = this.source.name === 'event-store' ? await this.pump() : 0;
    let attempted = 0;
    for (;;) {
      const n = await this.deliverDue();
      attempted += n;
      if (n === 0 || this.controller.signal.aborted) break;
    }
    return { enqueued, attempted };
  }

  async readCheckpoint(): Promise<Position> {
    const { rows } = await this.opts.pool.query<{ position: string }>(
      'select position from subscription_checkpoints where name = $1',
      [CHECKPOINT_NAME],
    );
    return rows[0]?.position ?? START;
  }

  /** Reads the log from the checkpoint to its head; returns the outbox rows written. */
  async pump(): Promise<number> {
    let from = await this.readCheckpoint();
    let enqueued = 0;
    for (;;) {
      const events = await this.opts.store.readAll({ fromPosition: from, maxCount: 1000 });
      const last = events[events.length - 1];
      if (!last) return enqueued;
      enqueued += await this.applyBatch(events, true);
      from = last.position;
    }
  }

  /**
   * One transaction: the dispatcher's state, the outbox rows and the checkpoint. Serialised across
   * processes by an advisory lock, and events at or before the stored checkpoint are skipped, so two
   * dispatchers never apply an event twice.
   */
  async applyBatch(events: RecordedEvent[], force = false): Promise<number> {
    const last = events[events.length - 1];
    if (!last) return 0;
    const relevant = events.some((e) => HANDLED_TYPES.has(e.type));
    if (!relevant && !force && Date.now() - this.lastCheckpointWrite < IDLE_CHECKPOINT_MS) return 0;
    this.lastCheckpointWrite = Date.now();
    const now = this.clock.now();
    const publicUrl = typeof this.opts.publicUrl === 'function' ? this.opts.publicUrl() : this.opts.publicUrl;
    const enqueued = await withTransaction(this.opts.pool, async (tx) => {
      await tx.query('select pg_advisory_xact_lock($1)', [ADVISORY_LOCK]);
      const { rows } = await tx.query<{ position: string }>(
        'select position from subscription_checkpoints where name = $1',
        [CHECKPOINT_NAME],
      );
      const done = rows[0]?.position ?? START;
      if (done >= last.position) return 0;
      const fresh = events.filter((e) => e.position > done && HANDLED_TYPES.has(e.type));
      const count = await this.applyInOrder(tx, fresh, { publicUrl, now });
      await tx.query(
        `insert into subscription_checkpoints (name, position, updated_at) values ($1, $2, now())
         on conflict (name) do update set position = excluded.position, updated_at = now()`,
        [CHECKPOINT_NAME, last.position],
      );
      return count;
    });
    if (enqueued > 0) this.wakeUp?.();
    return enqueued;
  }

  /**
   * Events from Kafka (sources.ts): at least once, in the order of their partition, not the log's. Each
   * is applied only if its id was not applied before (kafka-dedupe.ts), in the same transaction as what it
   * writes, so a redelivered message enqueues nothing twice. Events at or before the position checkpoint
   * were applied by the event-store source before KAFKA_BROKERS was set: switching sources sends nothing
   * twice and nothing from history.
   */
  async applyDelivered(events: RecordedEvent[]): Promise<number> {
    const handled = events.filter((e) => HANDLED_TYPES.has(e.type));
    if (handled.length === 0) return 0;
    const now = this.clock.now();
    const publicUrl = typeof this.opts.publicUrl === 'function' ? this.opts.publicUrl() : this.opts.publicUrl;
    const enqueued = await withTransaction(this.opts.pool, async (tx) => {
      const { rows } = await tx.query<{ position: string }>(
        'select position from subscription_checkpoints where name = $1',
        [CHECKPOINT_NAME],
      );
      const done = rows[0]?.position ?? START;
      const fresh = await claimUnseen(
        tx,
        handled.filter((e) => e.position > done),
      );
      return this.applyInOrder(tx, fresh, { publicUrl, now });
    });
    if (enqueued > 0) this.wakeUp?.();
    return enqueued;
  }

  /**
   * A batch's events inside its transaction: the changes of merchants nobody watches as one upsert of
   * the dispatcher's copies (quiet-merchants.ts), every other event one by one in order.
   */
  private async applyInOrder(
    tx: PoolClient,
    events: RecordedEvent[],
    ctx: { publicUrl: string; now: Date },
  ): Promise<number> {
    const { eventByEvent, quietCopies } = await setQuietMerchantsApart(tx, events);
    await storeQuietCopies(tx, quietCopies);
    let count = 0;
    for (const e of eventByEvent) count += await this.applyOne(tx, e, ctx);
    return count;
  }

  /**
   * One event inside a batch transaction. An event whose data fails its schema would fail its batch on
   * every retry and stop all notifications behind it: it is quarantined instead, and the batch goes on.
   * `applyEvent` reads the event before it writes anything, so nothing of it is half applied.
   */
  private async applyOne(
    tx: PoolClient,
    e: RecordedEvent,
    ctx: { publicUrl: string; now: Date },
  ): Promise<number> {
    try {
      return await applyEvent(tx, e, ctx);
    } catch (err) {
      if (!isUnreadable(err)) throw err;
      await quarantineEvent(tx, e, err.message);
      this.opts.logger.warn(
        { eventId: e.id, type: e.type, streamId: e.streamId, position: e.position, reason: err.message },
        'webhook dispatcher quarantined an event it cannot read (webhook_quarantine)',
      );
      return 0;
    }
  }

  /**
   * Claims due rows (claim.ts): at most `limit`, each endpoint under its cap, none of a parked one;
   * `recent`: only rows due in the last RECENT_MS.
   */
  async claimDue(limit = this.opts.claimBatch ?? CLAIM_BATCH, recent = false): Promise<ClaimedDelivery[]> {
    if (this.controller.signal.aborted) return [];
    const now = this.clock.now();
    return claimDue(this.opts.pool, {
      now,
      leaseMs: LEASE_MS,
      limit,
      perEndpoint: this.inFlight.perEndpoint,
      busy: this.inFlight.busy(),
      ...(recent ? { dueAfter: new Date(now.getTime() - RECENT_MS) } : {}),
    });
  }

  /** Claims one probe per parked endpoint whose pause is over (circuit-breaker.ts). */
  async claimProbes(limit = 50): Promise<ClaimedDelivery[]> {
    if (this.controller.signal.aborted) return [];
    return claimProbes(this.opts.pool, {
      now: this.clock.now(),
      leaseMs: LEASE_MS,
      limit,
      forgetAfterMs: MAX_PAUSE_MS,
    });
  }

  /** Claims one round of due rows and probes and delivers them; returns how many were attempted. */
  async deliverDue(): Promise<number> {
    const claimed = [...(await this.claimProbes()), ...(await this.claimDue())];
    if (claimed.length === 0) return 0;
    await this.launch(claimed);
    return claimed.length;
  }

  /**
   * Starts the deliveries at once, each on its own: one that hangs holds its own slot and nothing else.
   * Resolves when all have finished and their outcomes are recorded.
   */
  private launch(claimed: ClaimedDelivery[]): Promise<void> {
    for (const d of claimed) this.inFlight.add(d);
    // One pair of queries for the whole claim's signing secrets, not three per request.
    const accounts = claimed.filter((d) => d.kind === 'webhook').map((d) => d.account_id);
    const secrets =
      accounts.length > 0
        ? signingSecretsOfMany(this.opts.pool, accounts, this.clock.now())
        : Promise.resolve(new Map<string, string[]>());
    const group = Promise.all(
      claimed.map(async (d) => {
        try {
          await this.deliver(d, secrets);
        } catch (err) {
          // The row stays claimed: once its lease passes it is taken again, this attempt shown interrupted.
          this.opts.logger.error({ err, deliveryId: d.id }, 'webhook delivery failed');
        } finally {
          if (this.inFlight.remove(d)) {
            this.slotFreed = true;
            this.wakeUp();
          }
        }
      }),
    ).then(() => undefined);
    this.launched.add(group);
    void group.finally(() => this.launched.delete(group));
    return group;
  }

  /**
   * The live delivery loop: keeps up to `maxInFlight` deliveries going, claiming as slots free up, never
   * waiting for one delivery before starting the next (a hanging request costs its endpoint a slot, no
   * one else anything). It sleeps when nothing it may take is due; new rows, a freed slot that work was
   * waiting for, or the poll interval wake it.
   *
   * New rows are claimed with a recent claim, which reads only rows due in the last moments: the rows
   * of endpoints at their cap pile up at the old end of the due index (a hanging endpoint's, until its
   * breaker parks them), and walking past all of them for every new event would make everyone wait for
   * them after all. A full claim reads every due row: at the poll interval, when a slot of an endpoint
   * at its cap frees, and as long as the last one came back full.
   */
  private async feed(): Promise<void> {
    const signal = this.controller.signal;
    const poll = this.opts.pollIntervalMs ?? 500;
    let probedAt = Number.NEGATIVE_INFINITY;
    let fullAt = Number.NEGATIVE_INFINITY;
    let moreDue = true;
    while (!signal.aborted) {
      const room = this.inFlight.room();
      if (room <= 0) {
        await this.idle(poll);
        continue;
      }
      const wakeUpsBefore = this.wakeUps;
      const full = moreDue || this.slotFreed || performance.now() - fullAt >= poll;
      this.slotFreed = false;
      let claimed: ClaimedDelivery[] = [];
      try {
        if (performance.now() - probedAt >= PROBE_EVERY_MS) {
          probedAt = performance.now();
          claimed = await this.claimProbes(Math.min(room, 50));
        }
        const rest = Math.min(room - claimed.length, this.opts.claimBatch ?? CLAIM_BATCH);
        if (rest > 0) {
          const due = await this.claimDue(rest, !full);
          if (full) {
            fullAt = performance.now();
            moreDue = due.length === rest;
          }
          claimed = claimed.concat(due);
        }
      } catch (err) {
        if (signal.aborted) return;
        this.opts.logger.error({ err }, 'webhook claim failed');
        await this.idle(poll);
        continue;
      }
      if (claimed.length > 0) void this.launch(claimed);
      // New rows or a freed slot while it claimed: what it could not see then may be there now.
      else if (this.wakeUps === wakeUpsBefore && !signal.aborted) await this.idle(poll);
    }
  }

  private async deliver(d: ClaimedDelivery, secrets: Promise<Map<string, string[]>>): Promise<void> {
    const outcome = d.kind === 'webhook' ? await this.post(d, await secrets) : await this.mail(d);
    if (this.controller.signal.aborted && !outcome.ok) {
      await this.giveBack(d, outcome.durationMs);
      return;
    }
    try {
      const finished = { d, o: outcome, at: this.clock.now() };
      await (outcome.ok ? this.successes : this.failures).add(finished);
    } catch (err) {
      this.opts.logger.error({ err, deliveryId: d.id }, 'could not record a webhook attempt');
    }
  }

  /**
   * Shutting down mid-request: not the endpoint's fault. The row is due again at once for the next
   * process, and its attempt says what happened (the receiver may have got it: the next is the same
   * `webhook-id`).
   */
  private async giveBack(d: ClaimedDelivery, durationMs: number): Promise<void> {
    await this.opts.pool
      .query(
        `with back as (
           update webhook_deliveries set claimed_until = null where id = $1 and claimed_until = $2
           returning id, attempts)
         update webhook_attempts a set error = $3, duration_ms = $4
           from back where a.delivery_id = back.id and a.attempt = back.attempts`,
        [d.id, d.claimed_until, 'interrupted: the dispatcher stopped before an answer', durationMs],
      )
      .catch(() => undefined);
  }

  private post(d: ClaimedDelivery, secretsOf: Map<string, string[]>): Promise<Outcome> {
    const timestamp = Math.floor(this.clock.now().getTime() / 1000);
    const body = JSON.stringify(d.payload);
    return postWebhook(this.agent, this.policy, {
      url: d.target,
      body,
      totalMs: this.timeouts.totalMs,
      signal: this.controller.signal,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'MerchantRiskNetwork-Webhooks/1',
        'webhook-id': d.webhook_id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader(secretsOf.get(d.account_id)!, d.webhook_id, timestamp, body),
      },
    });
  }

  private async mail(d: ClaimedDelivery): Promise<Outcome> {
    const started = performance.now();
    const p = d.payload as { subject?: unknown; text?: unknown };
    try {
      await this.opts.mailer.send({
        to: d.target,
        subject: String(p.subject ?? ''),
        text: String(p.text ?? ''),
      });
      return {
        ok: true,
        httpStatus: null,
        body: null,
        error: null,
        durationMs: Math.round(performance.now() - started),
      };
    } catch (err) {
      return {
        ok: false,
        httpStatus: null,
        body: null,
        error: describe(err),
        durationMs: Math.round(performance.now() - started),
      };
    }
  }

  /** Live: follow the source (catch-up, then live); a failed batch is read again. */
  private async tail(): Promise<void> {
    const signal = this.controller.signal;
    let failures = 0;
    // A batch applied ends a run of failures, so the back-off below starts small again.
    const target: SourceTarget = {
      readCheckpoint: () => this.readCheckpoint(),
      applyBatch: async (events, force) => {
        const n = await this.applyBatch(events, force);
        failures = 0;
        return n;
      },
      applyDelivered: async (events) => {
        const n = await this.applyDelivered(events);
        failures = 0;
        return n;
      },
    };
    while (!signal.aborted) {
      try {
        await this.source.follow(target, signal);
      } catch (err) {
        if (signal.aborted) return;
        failures++;
        this.opts.logger.error(
          { err, source: this.source.name },
          'webhook dispatcher batch failed; retrying',
        );
        // An unreachable broker stays so for a while: back off up to 30 s instead of logging every second.
        await sleep(Math.min(30_000, 1000 * 2 ** Math.min(failures - 1, 5)), signal);
      }
    }
  }

  private idle(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.sleepers.add(done);
    });
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
