import type { AddressPolicy } from '@mrn/platform';
import { type Clock, type Logger, type Mailer, type Pool, systemClock } from '@mrn/platform';
import type { Agent } from 'undici';
import { MAX_PAUSE_MS } from '../endpoints/circuit-breaker.ts';
import { signatureHeader, signingSecretsOfMany } from '../signing/signing.ts';
import { type ClaimedDelivery, claimDue, claimProbes } from './claim.ts';
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
import { type Finished, writeFailures, writeSuccesses } from './outcomes.ts';

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

/**
 * How an attempt ended, for metrics: answered with a 2xx (or the e-mail was accepted), failed (it goes
 * on with the retry schedule), or interrupted by the dispatcher stopping (the row is due again at once).
 */
export type DeliveryOutcome = 'delivered' | 'failed' | 'interrupted';

export interface DeliveryOptions {
  pool: Pool;
  mailer: Mailer;
  clock?: Clock;
  logger: Logger;
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
  /**
   * After each attempt (metrics: `webhook_delivery_duration_seconds{outcome}` and
   * `webhook_event_to_delivery_seconds`): how it ended, how long the request (or the SMTP send) took,
   * and, for a delivery, the time since its event was recorded (null for a failure and for e-mails that
   * no event caused). A hook that throws is ignored.
   */
  onDelivered?(outcome: DeliveryOutcome, seconds: number, eventToDeliverySeconds: number | null): void;
}

/**
 * The dispatcher's deliveries (DESIGN §5): a live loop claims due rows with `FOR UPDATE SKIP LOCKED`
 * under a lease and delivers them (at-least-once), logging every attempt from its start. Endpoints are
 * isolated from each other (issue 20): a pool of deliveries in flight rather than batches waited for, a
 * cap per endpoint, short connect and header timeouts, and a circuit breaker shared by every process
 * (endpoints/circuit-breaker.ts). Outcomes are written in groups (outcomes.ts).
 */
export class Deliveries {
  private readonly clock: Clock;
  private readonly policy: AddressPolicy;
  private readonly timeouts: HttpTimeouts;
  private readonly agent: Agent;
  private readonly inFlight: InFlight;
  private readonly controller = new AbortController();
  private running: Promise<void> | undefined;
  /** Every launched group of deliveries until it has finished: stop() waits for them. */
  private readonly launched = new Set<Promise<void>>();
  private readonly sleepers = new Set<() => void>();
  /** Counts wake-ups, so that one arriving while the live loop is claiming (not asleep) is not lost. */
  private wakeUps = 0;
  /** A slot that work was waiting for has freed since the last claim: the next one reads every due row. */
  private slotFreed = false;
  // Outcomes are written in groups (≥ 1,000 deliveries/s); successes and failures apart, so that a storm
  // of timeouts from hanging endpoints never holds back the recording of healthy deliveries.
  private readonly successes = new GroupWriter<Finished>((group) =>
    writeSuccesses(this.opts.pool, group, this.clock.now()),
  );
  private readonly failures = new GroupWriter<Finished>(async (group) => {
    const disabled = await writeFailures(this.opts.pool, group, {
      random: this.opts.random ?? Math.random,
      logger: this.opts.logger,
    });
    // Their admins' e-mails are due now.
    if (disabled > 0) this.wakeUp();
  });

  constructor(private readonly opts: DeliveryOptions) {
    this.clock = opts.clock ?? systemClock;
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

  /** New rows are due (or a slot freed): the live loop claims now. */
  readonly wakeUp = (): void => {
    this.wakeUps++;
    for (const wake of [...this.sleepers]) wake();
  };

  /** Starts the live delivery loop (none with `maxInFlight` 0). */
  start(): void {
    if (this.inFlight.limit > 0) this.running ??= this.feed();
  }

  /** Aborts the requests in flight (their rows are given back) and waits for everything to finish. */
  async stop(): Promise<void> {
    this.controller.abort();
    this.wakeUp();
    await this.running?.catch(() => undefined);
    await Promise.allSettled([...this.launched]);
    await this.agent.close().catch(() => undefined);
  }

  /** Delivers everything due now, claim after claim (no sleeping); returns how many were attempted. */
  async drain(): Promise<number> {
    let attempted = 0;
    for (;;) {
      const n = await this.deliverDue();
      attempted += n;
      if (n === 0 || this.controller.signal.aborted) return attempted;
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

  /** Claims one probe per parked endpoint whose pause is over (endpoints/circuit-breaker.ts). */
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
      this.observe(d, 'interrupted', outcome);
      return;
    }
    this.observe(d, outcome.ok ? 'delivered' : 'failed', outcome);
    try {
      const finished = { d, o: outcome, at: this.clock.now() };
      await (outcome.ok ? this.successes : this.failures).add(finished);
    } catch (err) {
      this.opts.logger.error({ err, deliveryId: d.id }, 'could not record a webhook attempt');
    }
  }

  /** The metrics hook, after each attempt. */
  private observe(d: ClaimedDelivery, outcome: DeliveryOutcome, o: Outcome): void {
    if (!this.opts.onDelivered) return;
    let sinceEvent: number | null = null;
    if (outcome === 'delivered') {
      const at = eventTimeOf(d);
      if (at !== undefined) sinceEvent = Math.max(0, (this.clock.now().getTime() - at) / 1000);
    }
    try {
      this.opts.onDelivered(outcome, o.durationMs / 1000, sinceEvent);
    } catch {
      // Metrics never fail a delivery.
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

/**
 * When the delivery's event was recorded (ms since the epoch): a webhook payload's `timestamp`, an
 * e-mail's `notification.timestamp`; undefined for e-mails no event caused (an endpoint disabled).
 */
function eventTimeOf(d: ClaimedDelivery): number | undefined {
  const p = d.payload as { timestamp?: unknown; notification?: { timestamp?: unknown } };
  const stamp = p.timestamp ?? p.notification?.timestamp;
  if (typeof stamp !== 'string') return undefined;
  const at = Date.parse(stamp);
  return Number.isNaN(at) ? undefined : at;
}
