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
import { Agent, request } from 'undici';
import { applyEvent, HANDLED_TYPES } from './enqueue.ts';
import { claimUnseen } from './kafka-dedupe.ts';
import { isUnreadable, quarantineEvent } from './quarantine.ts';
import { setQuietMerchantsApart, storeQuietCopies } from './quiet-merchants.ts';
import { signatureHeader, signingSecretsOfMany } from './signing.ts';
import { type DispatcherSource, eventStoreSource, type SourceTarget } from './sources.ts';
import { type AddressPolicy, checkWebhookUrlSyntax, guardedLookup } from './ssrf.ts';

export const CHECKPOINT_NAME = 'webhook-dispatcher';

/**
 * Waits before attempts 2…8 (attempt 1 is immediate), the Standard Webhooks reference schedule:
 * 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. A delivery whose 8th attempt fails is dead.
 */
export const RETRY_DELAYS_MS = [
  5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** Each wait is lengthened by up to this fraction, at random, so retries of many rows spread out. */
export const JITTER = 0.1;
/** An endpoint failing this long with no success in between is disabled and its admins told. */
export const DISABLE_AFTER_MS = 5 * 86_400_000;
export const REQUEST_TIMEOUT_MS = 10_000;
/** A claimed row is another worker's again after this (a crashed worker's rows are not lost). */
export const LEASE_MS = 30_000;
/** Bytes of an endpoint's answer kept in the delivery log. */
export const RESPONSE_KEEP_BYTES = 1024;
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
  /** Rows claimed at once by one worker. */
  claimBatch?: number;
  /** Worker loops in this process. */
  workers?: number;
  /** How often an idle worker looks for due retries. */
  pollIntervalMs?: number;
  /** 0 ≤ x < 1; injected by tests to pin the jitter. */
  random?: () => number;
  requestTimeoutMs?: number;
  /** Where events come from: the event store (default) or the Kafka topic (sources.ts). */
  source?: DispatcherSource;
}

export interface ClaimedDelivery {
  id: string;
  webhook_id: string;
  account_id: string;
  kind: 'webhook' | 'email';
  target: string;
  payload: Record<string, unknown>;
  attempts: number;
  claimed_until: Date;
}

interface Outcome {
  ok: boolean;
  httpStatus: number | null;
  body: string | null;
  error: string | null;
  durationMs: number;
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
 * transaction as moving it, writes outbox rows (exactly-once enqueue); workers claim due rows with
 * `FOR UPDATE SKIP LOCKED` under a lease and deliver them (at-least-once), logging every attempt.
 */
export class WebhookDispatcher implements SourceTarget {
  private readonly clock: Clock;
  private readonly source: DispatcherSource;
  private readonly policy: AddressPolicy;
  private readonly agent: Agent;
  private readonly controller = new AbortController();
  private readonly running: Promise<void>[] = [];
  private readonly sleepers = new Set<() => void>();
  private wakeUp = () => {
    for (const wake of [...this.sleepers]) wake();
  };
  private lastCheckpointWrite = 0;

  constructor(private readonly opts: DispatcherOptions) {
    this.clock = opts.clock ?? systemClock;
    this.source = opts.source ?? eventStoreSource(opts.store);
    this.policy = {
      allowLoopback:
        opts.allowLoopback ?? process.env.WEBHOOK_ALLOW_LOOPBACK?.trim().toLowerCase() === 'true',
    };
    const timeout = opts.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
    this.agent = new Agent({
      connect: { lookup: guardedLookup(this.policy), timeout },
      headersTimeout: timeout,
      bodyTimeout: timeout,
      connections: 64,
    });
  }

  private get random(): () => number {
    return this.opts.random ?? Math.random;
  }

  /** Starts tailing the log and the delivery workers. */
  start(): void {
    this.running.push(this.tail());
    for (let i = 0; i < (this.opts.workers ?? 4); i++) this.running.push(this.work());
  }

  async stop(): Promise<void> {
    this.controller.abort();
    this.wakeUp?.();
    await Promise.allSettled(this.running);
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

  /** Claims due rows under a lease (`FOR UPDATE SKIP LOCKED`): concurrent workers never share one. */
  async claimDue(limit = this.opts.claimBatch ?? 100): Promise<ClaimedDelivery[]> {
    if (this.controller.signal.aborted) return [];
    const now = this.clock.now();
    const { rows } = await this.opts.pool.query<ClaimedDelivery>(
      `with due as (
         select id from webhook_deliveries
          where status in ('pending', 'failed') and next_attempt_at <= $1
            and (claimed_until is null or claimed_until <= $1)
          order by next_attempt_at, created_at
          limit $2
          for update skip locked)
       update webhook_deliveries d set claimed_until = $3 from due where d.id = due.id
       returning d.id, d.webhook_id, d.account_id, d.kind, d.target, d.payload, d.attempts, d.claimed_until`,
      [now, limit, new Date(now.getTime() + LEASE_MS)],
    );
    return rows;
  }

  /** Claims one batch of due rows and delivers them side by side; returns how many were attempted. */
  async deliverDue(): Promise<number> {
    const claimed = await this.claimDue();
    if (claimed.length === 0) return 0;
    // One pair of queries for the whole batch's signing secrets, not three per request.
    const secrets = await signingSecretsOfMany(
      this.opts.pool,
      claimed.filter((d) => d.kind === 'webhook').map((d) => d.account_id),
      this.clock.now(),
    );
    await Promise.all(claimed.map((d) => this.deliver(d, secrets)));
    return claimed.length;
  }

  private async deliver(d: ClaimedDelivery, secrets: Map<string, string[]>): Promise<void> {
    const outcome = d.kind === 'webhook' ? await this.post(d, secrets) : await this.mail(d);
    if (this.controller.signal.aborted && !outcome.ok) {
      // Shutting down mid-request: not the endpoint's fault. Give the row back for the next worker.
      await this.opts.pool
        .query('update webhook_deliveries set claimed_until = null where id = $1 and claimed_until = $2', [
          d.id,
          d.claimed_until,
        ])
        .catch(() => undefined);
      return;
    }
    try {
      if (outcome.ok) await this.recordSuccess(d, outcome);
      else await this.record(d, outcome);
    } catch (err) {
      this.opts.logger.error({ err, deliveryId: d.id }, 'could not record a webhook attempt');
    }
  }

  private async post(d: ClaimedDelivery, secretsOf: Map<string, string[]>): Promise<Outcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const check = checkWebhookUrlSyntax(d.target, this.policy);
    if (!check.ok) {
      return {
        ok: false,
        httpStatus: null,
        body: null,
        error: `refused: URL ${check.reason}`,
        durationMs: 0,
      };
    }
    const now = this.clock.now();
    const timestamp = Math.floor(now.getTime() / 1000);
    const body = JSON.stringify(d.payload);
    try {
      const secrets = secretsOf.get(d.account_id)!;
      const signal = AbortSignal.any([
        this.controller.signal,
        AbortSignal.timeout(this.opts.requestTimeoutMs ?? REQUEST_TIMEOUT_MS),
      ]);
      const res = await request(check.url, {
        method: 'POST',
        dispatcher: this.agent,
        signal,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'MerchantRiskNetwork-Webhooks/1',
          'webhook-id': d.webhook_id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signatureHeader(secrets, d.webhook_id, timestamp, body),
        },
        body,
      });
      const answer = await readPrefix(res.body, RESPONSE_KEEP_BYTES);
      const ok = res.statusCode >= 200 && res.statusCode < 300;
      return {
        ok,
        httpStatus: res.statusCode,
        body: answer,
        error: ok ? null : `HTTP ${res.statusCode}`,
        durationMs: elapsed(),
      };
    } catch (err) {
      return { ok: false, httpStatus: null, body: null, error: describe(err), durationMs: elapsed() };
    }
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

  private successes: {
    d: ClaimedDelivery;
    o: Outcome;
    at: Date;
    resolve(): void;
    reject(e: unknown): void;
  }[] = [];
  private flushing = false;

  /**
   * Successes are written in groups: whatever finished while the previous group was being written goes
   * in the next one, one statement and one commit for all. Nothing waits for a group to fill.
   */
  private recordSuccess(d: ClaimedDelivery, o: Outcome): Promise<void> {
    return new Promise((resolve, reject) => {
      this.successes.push({ d, o, at: this.clock.now(), resolve, reject });
      if (!this.flushing) void this.flushSuccesses();
    });
  }

  private async flushSuccesses(): Promise<void> {
    this.flushing = true;
    try {
      while (this.successes.length > 0) {
        const group = this.successes.splice(0, 1000);
        try {
          await this.opts.pool.query(
            `with o as (
               select * from unnest($1::uuid[], $2::timestamptz[], $3::timestamptz[], $4::int[], $5::int[], $6::text[])
                 as o(id, claimed_until, at, http_status, duration_ms, body)),
             done as (
               update webhook_deliveries d
                  set status = 'succeeded', attempts = d.attempts + 1, next_attempt_at = null, claimed_until = null,
                      last_error = null, finished_at = o.at
                 from o where d.id = o.id and d.claimed_until = o.claimed_until
               returning d.id, d.attempts, d.kind, d.account_id, d.target),
             logged as (
               insert into webhook_attempts
                 (delivery_id, attempt, at, http_status, duration_ms, response_body, error, succeeded)
               select done.id, done.attempts, o.at, o.http_status, o.duration_ms, o.body, null, true
                 from done join o on o.id = done.id)
             delete from webhook_endpoint_health h using done
              where done.kind = 'webhook' and h.account_id = done.account_id and h.url = done.target`,
            [
              group.map((g) => g.d.id),
              group.map((g) => g.d.claimed_until),
              group.map((g) => g.at),
              group.map((g) => g.o.httpStatus),
              group.map((g) => g.o.durationMs),
              group.map((g) => g.o.body),
            ],
          );
          for (const g of group) g.resolve();
        } catch (err) {
          for (const g of group) g.reject(err);
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  /** Logs the attempt and moves the row on: succeeded, a retry at the next step of the schedule, or dead. */
  private async record(d: ClaimedDelivery, o: Outcome): Promise<void> {
    const now = this.clock.now();
    const attempt = d.attempts + 1;
    const dead = !o.ok && attempt >= MAX_ATTEMPTS;
    const delay = o.ok || dead ? 0 : RETRY_DELAYS_MS[attempt - 1]! * (1 + JITTER * this.random());
    const status = o.ok ? 'succeeded' : dead ? 'dead' : 'failed';
    const next = o.ok || dead ? null : new Date(now.getTime() + Math.round(delay));
    let disabledNotice = false;
    await withTransaction(this.opts.pool, async (tx) => {
      // Only while the lease is ours: a worker that outlived its lease does not log over another's.
      const updated = await tx.query(
        `update webhook_deliveries
            set status = $3, attempts = $4, next_attempt_at = $5, claimed_until = null, last_error = $6,
                finished_at = case when $3 in ('succeeded', 'dead') then $7::timestamptz end
          where id = $1 and claimed_until = $2`,
        [d.id, d.claimed_until, status, attempt, next, o.error, now],
      );
      if (updated.rowCount === 0) return;
      await tx.query(
        `insert into webhook_attempts
           (delivery_id, attempt, at, http_status, duration_ms, response_body, error, succeeded)
         values ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [d.id, attempt, now, o.httpStatus, o.durationMs, o.body, o.error, o.ok],
      );
      if (d.kind !== 'webhook') return;
      if (o.ok) {
        await tx.query('delete from webhook_endpoint_health where account_id = $1 and url = $2', [
          d.account_id,
          d.target,
        ]);
        return;
      }
      await tx.query(
        `insert into webhook_endpoint_health (account_id, url, failing_since) values ($1, $2, $3)
         on conflict (account_id, url) do nothing`,
        [d.account_id, d.target, now],
      );
      disabledNotice = await this.disableIfFailingLong(tx, d, now);
    });
    if (disabledNotice) this.wakeUp?.();
  }

  /**
   * An endpoint failing for 5 days (first failure at least that long ago, no success since) is disabled:
   * its pending rows are dead-lettered and the account's admins are e-mailed (through the outbox).
   */
  private async disableIfFailingLong(
    tx: Pick<Pool, 'query'>,
    d: ClaimedDelivery,
    now: Date,
  ): Promise<boolean> {
    const { rows } = await tx.query<{ failing_since: Date }>(
      'select failing_since from webhook_endpoint_health where account_id = $1 and url = $2',
      [d.account_id, d.target],
    );
    const since = rows[0]?.failing_since;
    if (!since || now.getTime() - since.getTime() < DISABLE_AFTER_MS) return false;
    const inserted = await tx.query(
      `insert into webhook_endpoints_disabled (account_id, url, disabled_at) values ($1, $2, $3)
       on conflict do nothing`,
      [d.account_id, d.target, now],
    );
    if (inserted.rowCount === 0) return false;
    await tx.query(
      `update webhook_deliveries set status = 'dead', next_attempt_at = null, claimed_until = null,
              last_error = 'endpoint disabled after failing for 5 days', finished_at = $3
        where account_id = $1 and target = $2 and kind = 'webhook' and status in ('pending', 'failed')`,
      [d.account_id, d.target, now],
    );
    const subject = 'Your merchant subscription webhook has been disabled';
    const text = [
      `Deliveries to your webhook endpoint ${d.target} have failed since ${since.toISOString()}.`,
      'It has been disabled and no further webhooks will be sent to it.',
      'Fix the endpoint and save its URL again (or a new one) in your account settings to resume deliveries.',
    ].join('\n');
    await tx.query(
      `insert into webhook_deliveries
         (webhook_id, account_id, event_id, kind, target, payload, status, attempts, next_attempt_at, created_at)
       select 'msg_' || replace(gen_random_uuid()::text, '-', ''), $1, null, 'email', u.email, $2::jsonb,
              'pending', 0, $3, $3
         from read.users u
        where u.account_id = $1 and u.is_admin and u.archived_at is null`,
      [d.account_id, JSON.stringify({ subject, text }), now],
    );
    this.opts.logger.warn({ accountId: d.account_id, url: d.target, since }, 'webhook endpoint disabled');
    return true;
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

  private async work(): Promise<void> {
    const signal = this.controller.signal;
    while (!signal.aborted) {
      let n = 0;
      try {
        n = await this.deliverDue();
      } catch (err) {
        if (signal.aborted) return;
        this.opts.logger.error({ err }, 'webhook delivery round failed');
      }
      if (n === 0 && !signal.aborted) await this.idle(this.opts.pollIntervalMs ?? 500);
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

async function readPrefix(
  body: AsyncIterable<Buffer> & { destroy(): unknown },
  max: number,
): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= max) break;
    }
  } finally {
    body.destroy();
  }
  return Buffer.concat(chunks).subarray(0, max).toString('utf8');
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as { cause?: unknown }).cause;
    const code = (err as { code?: string }).code;
    const inner = cause instanceof Error ? `: ${cause.message}` : '';
    return `${code ? `${code} ` : ''}${err.message}${inner}`.slice(0, 1000);
  }
  return String(err).slice(0, 1000);
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
