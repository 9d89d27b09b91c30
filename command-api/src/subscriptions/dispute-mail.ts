import { type EventData, EventParseError, parseEvent } from '@mrn/contracts';
import {
  type EventStore,
  followLog,
  type Logger,
  type Mail,
  type Mailer,
  type Pool,
  type Position,
  type RecordedEvent,
  START,
  withTransaction,
} from '@mrn/platform';
import { disputes } from '../aggregates.ts';
import type { CommandDeps } from '../context.ts';
import { type DisputeAddressee, receivedMail, resolvedMail } from '../domain/dispute/dispute-mail.ts';

export const DISPUTE_MAIL_CHECKPOINT = 'dispute-mail';
const MAILED_TYPES = new Set(['DisputeSubmitted', 'DisputeResolved']);
/** Waits before attempts 2, 3, …; after the last a message is given up on (failed_at, logged). */
export const DISPUTE_MAIL_RETRY_MS = [5_000, 60_000, 300_000, 1_800_000, 7_200_000, 21_600_000] as const;
const LEASE_MS = 60_000;
const POLL_MS = 5_000;
const IDLE_CHECKPOINT_MS = 5_000;
const ADVISORY_LOCK = 727_031;

interface Deps {
  pool: Pool;
  store: EventStore;
  mailer: Mailer;
  logger: Logger;
  productName: string;
}

interface OutboxRow {
  event_id: string;
  mail_to: string;
  subject: string;
  body_text: string;
  attempts: number;
  log_position: string;
}

/**
 * E-mails to a dispute's business owner, sent at the edge once the events are committed: the reactor
 * follows the log and, in one transaction with its checkpoint, writes an outbox row per DisputeSubmitted
 * (received) and DisputeResolved (the outcome), so each is enqueued exactly once, even by two
 * processes (an advisory lock, and events at or behind the checkpoint skipped). Senders claim due rows
 * under a lease and retry with backoff: a crash loses nothing, and repeats a message only if it falls
 * between the SMTP send and marking the row sent. A double-submitted form is one DisputeSubmitted
 * (the decider ignores the retry), so one acknowledgement. A mail failure never touches the command.
 */
export class DisputeMailReactor {
  private readonly controller = new AbortController();
  private readonly running: Promise<void>[] = [];
  private lastCheckpointWrite = 0;
  private delivering: Promise<number> | undefined;

  constructor(private readonly deps: Deps) {}

  start(): this {
    if (this.running.length === 0) this.running.push(this.tail(), this.poll());
    return this;
  }

  async stop(): Promise<void> {
    this.controller.abort();
    await Promise.allSettled(this.running);
    await this.delivering;
  }

  async readCheckpoint(): Promise<Position> {
    const { rows } = await this.deps.pool.query<{ position: string }>(
      'select position from subscription_checkpoints where name = $1',
      [DISPUTE_MAIL_CHECKPOINT],
    );
    return rows[0]?.position ?? START;
  }

  /** For tests and tools: enqueue from the checkpoint to the log's head, then send what is due. */
  async runOnce(): Promise<{ enqueued: number; sent: number }> {
    let from = await this.readCheckpoint();
    let enqueued = 0;
    for (;;) {
      const events = await this.deps.store.readAll({ fromPosition: from, maxCount: 1000 });
      const last = events[events.length - 1];
      if (!last) break;
      enqueued += await this.enqueue(events, true);
      from = last.position;
    }
    return { enqueued, sent: await this.deliverDue() };
  }

  /** Writes the batch's outbox rows and moves the checkpoint past it, in one transaction. */
  async enqueue(events: RecordedEvent[], force = false): Promise<number> {
    const last = events[events.length - 1];
    if (!last) return 0;
    const relevant = events.filter((e) => MAILED_TYPES.has(e.type));
    if (relevant.length === 0 && !force && Date.now() - this.lastCheckpointWrite < IDLE_CHECKPOINT_MS)
      return 0;
    // Made before the transaction: reading a dispute's stream must not hold the lock.
    const mails = await this.mailsFor(relevant);
    const written = await withTransaction(this.deps.pool, async (tx) => {
      await tx.query('select pg_advisory_xact_lock($1)', [ADVISORY_LOCK]);
      const { rows } = await tx.query<{ position: string }>(
        'select position from subscription_checkpoints where name = $1',
        [DISPUTE_MAIL_CHECKPOINT],
      );
      const checkpoint = rows[0]?.position ?? START;
      let n = 0;
      for (const { event, disputeId, kind, mail } of mails) {
        if (event.position <= checkpoint) continue;
        const inserted = await tx.query(
          `insert into dispute_mail_outbox (event_id, dispute_id, kind, log_position, mail_to, subject, body_text)
           values ($1, $2, $3, $4, $5, $6, $7) on conflict do nothing`,
          [event.id, disputeId, kind, event.position, mail.to, mail.subject, mail.text],
        );
        n += inserted.rowCount ?? 0;
      }
      if (last.position > checkpoint) {
        await tx.query(
          `insert into subscription_checkpoints (name, position, updated_at) values ($1, $2, now())
           on conflict (name) do update set position = excluded.position, updated_at = now()`,
          [DISPUTE_MAIL_CHECKPOINT, last.position],
        );
      }
      return n;
    });
    this.lastCheckpointWrite = Date.now();
    return written;
  }

  private async mailsFor(events: RecordedEvent[]) {
    const out: { event: RecordedEvent; disputeId: string; kind: 'received' | 'resolved'; mail: Mail }[] = [];
    for (const raw of events) {
      let data: unknown;
      try {
        data = parseEvent(raw).data;
      } catch (err) {
        // Retrying would stop every later mail; the projections quarantine (and report) the same event.
        if (!(err instanceof EventParseError)) throw err;
        this.deps.logger.error({ err, eventId: raw.id }, 'dispute mail skipped an unreadable event');
        continue;
      }
      if (raw.type === 'DisputeSubmitted') {
        const d = data as EventData<'DisputeSubmitted'>;
        out.push({
          event: raw,
          disputeId: d.disputeId,
          kind: 'received',
          mail: receivedMail(d, this.deps.productName),
        });
      } else {
        const d = data as EventData<'DisputeResolved'>;
        const addressee = await this.addressee(d.disputeId);
        if (!addressee) continue;
        out.push({
          event: raw,
          disputeId: d.disputeId,
          kind: 'resolved',
          mail: resolvedMail(addressee, d, this.deps.productName),
        });
      }
    }
    return out;
  }

  private async addressee(disputeId: string): Promise<DisputeAddressee | undefined> {
    const { state } = await disputes.load(this.deps.store, disputeId);
    return state.status === 'none' ? undefined : state;
  }

  /** Claims due messages under a lease and sends them; returns how many were sent. */
  async deliverDue(): Promise<number> {
    // One delivery pass at a time in this process; other processes are kept apart by the lease.
    while (this.delivering) await this.delivering;
    this.delivering = this.deliver().finally(() => {
      this.delivering = undefined;
    });
    return this.delivering;
  }

  private async deliver(): Promise<number> {
    let sent = 0;
    for (;;) {
      const { rows } = await this.deps.pool.query<OutboxRow>(
        `update dispute_mail_outbox set claimed_until = now() + make_interval(secs => $1::double precision), attempts = attempts + 1
          where event_id in (
            select event_id from dispute_mail_outbox
             where sent_at is null and failed_at is null and next_attempt_at <= now()
               and (claimed_until is null or claimed_until <= now())
             order by next_attempt_at, log_position limit 20 for update skip locked)
          returning event_id, mail_to, subject, body_text, attempts, log_position`,
        [LEASE_MS / 1000],
      );
      if (rows.length === 0) return sent;
      // `returning` keeps no order: send in the log's.
      rows.sort((a, b) => (a.log_position < b.log_position ? -1 : 1));
      for (const row of rows) {
        try {
          await this.deps.mailer.send({ to: row.mail_to, subject: row.subject, text: row.body_text });
          await this.deps.pool.query(
            'update dispute_mail_outbox set sent_at = now(), claimed_until = null, last_error = null where event_id = $1',
            [row.event_id],
          );
          sent += 1;
        } catch (err) {
          const wait = DISPUTE_MAIL_RETRY_MS[row.attempts - 1];
          this.deps.logger.error(
            { err, eventId: row.event_id, attempts: row.attempts },
            'dispute e-mail failed',
          );
          await this.deps.pool.query(
            `update dispute_mail_outbox set claimed_until = null, last_error = $2,
               next_attempt_at = now() + make_interval(secs => $3::double precision),
               failed_at = case when $4::boolean then now() end
             where event_id = $1`,
            [row.event_id, String((err as Error).message ?? err), (wait ?? 0) / 1000, wait === undefined],
          );
        }
      }
    }
  }

  /** Catch up from the checkpoint, then follow the log; a failed batch is read again after a pause. */
  private async tail(): Promise<void> {
    const signal = this.controller.signal;
    while (!signal.aborted) {
      try {
        await followLog({
          store: this.deps.store,
          signal,
          readCheckpoint: () => this.readCheckpoint(),
          onBatch: async (events, endOfCatchUp) => {
            if ((await this.enqueue(events, endOfCatchUp)) > 0) await this.deliverDue();
          },
        });
      } catch (err) {
        if (signal.aborted) return;
        this.deps.logger.error({ err }, 'dispute mail batch failed; retrying');
        await sleep(1000, signal);
      }
    }
  }

  /** Retries come due with time, not with events. */
  private async poll(): Promise<void> {
    const signal = this.controller.signal;
    while (!signal.aborted) {
      await sleep(POLL_MS, signal);
      if (signal.aborted) return;
      await this.deliverDue().catch((err) => this.deps.logger.error({ err }, 'dispute mail delivery failed'));
    }
  }
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

/** Starts the reactor beside the command API; it stops when the app closes. */
export function startDisputeMail(deps: CommandDeps): DisputeMailReactor {
  const reactor = new DisputeMailReactor({ ...deps, productName: deps.config.PRODUCT_NAME }).start();
  deps.app.addHook('onClose', () => reactor.stop());
  return reactor;
}
