import { EventParseError, type EventType, parseEvent } from '@mrn/contracts';
import {
  Consumer,
  type EventStore,
  type Logger,
  type Mail,
  type Mailer,
  type Pool,
  type Position,
  type Queryable,
  type RecordedEvent,
} from '@mrn/platform';

/** The reactor's row in `subscription_checkpoints` (it was `dispute-mail` while it only mailed disputes). */
export const MAIL_CHECKPOINT = 'mail-outbox';
/** Waits before attempts 2, 3, …; after the last a message is given up on (failed_at, logged). */
export const MAIL_RETRY_MS = [5_000, 60_000, 300_000, 1_800_000, 7_200_000, 21_600_000] as const;
const LEASE_MS = 60_000;
const POLL_MS = 5_000;

/** One e-mail an event gives rise to. */
export interface OutboxMail {
  /**
   * What makes it one e-mail, ever (`dispute-received:{disputeId}`): however often or by however many
   * processes the log is read, an outbox row with this key is written once.
   */
  key: string;
  /** What it is, for people reading the outbox (`dispute-received`, `contribution-warning`…). */
  kind: string;
  mail: Mail;
}

/**
 * A kind of e-mail sent from the log: the event types it reads and the mails each gives. Made before
 * the outbox transaction (it may read streams or read models) and given the event's parsed data; an
 * empty list sends nothing.
 */
export interface MailSource {
  readonly name: string;
  readonly types: readonly EventType[];
  mailsFor(event: RecordedEvent, data: unknown): Promise<OutboxMail[]>;
}

interface Deps {
  pool: Pool;
  store: EventStore;
  mailer: Mailer;
  logger: Logger;
  /** With a database URL, one process enqueues at a time, the others stand by (consumer.ts). */
  leaseUrl?: string;
}

type PendingMail = OutboxMail & { event: RecordedEvent };

interface OutboxRow {
  id: string;
  event_id: string;
  mail_to: string;
  subject: string;
  body_text: string;
  attempts: number;
  log_position: string;
}

/**
 * E-mails sent at the edge once their events are committed (dispute receipts and outcomes, contribution
 * warnings and reminders…): the reactor follows the log (the platform `Consumer`) and, in one
 * transaction with its fenced checkpoint, writes an outbox row per mail its sources make of an event, so
 * each is enqueued exactly once, even by two processes (the second finds the checkpoint moved and rolls
 * back; each mail's key is unique besides). Senders claim due rows under a lease and retry with backoff:
 * a crash loses nothing, and repeats a message only if it falls between the SMTP send and marking the
 * row sent. A mail failure never touches the command that caused it. One reactor, one checkpoint and one
 * outbox serve every source: a new kind of e-mail is a new `MailSource`, not a new consumer.
 */
export class MailReactor {
  private readonly controller = new AbortController();
  private readonly byType = new Map<string, MailSource[]>();
  private readonly consumer: Consumer<PendingMail[]>;
  private polling: Promise<void> | undefined;
  private delivering: Promise<number> | undefined;
  /** Counts wake-ups (rows enqueued), so that one arriving while the loop is sending is not lost. */
  private wakeUps = 0;
  private sleeper: (() => void) | undefined;
  private readonly wake = () => {
    this.wakeUps++;
    this.sleeper?.();
  };

  constructor(
    private readonly deps: Deps,
    sources: readonly MailSource[],
  ) {
    for (const source of sources)
      for (const type of source.types) this.byType.set(type, [...(this.byType.get(type) ?? []), source]);
    this.consumer = new Consumer<PendingMail[]>({
      name: MAIL_CHECKPOINT,
      store: deps.store,
      pool: deps.pool,
      logger: deps.logger,
      ...(deps.leaseUrl ? { leaseUrl: deps.leaseUrl } : {}),
      relevant: (type) => this.byType.has(type),
      // Made before the transaction: reading streams and read models must not hold it open.
      beforeCommit: (events) => this.mailsFor(events),
      handle: (tx, _events, { prepared }) => writeOutbox(tx, prepared),
      afterCommit: (enqueued) => {
        if (enqueued > 0) this.wake();
      },
    });
  }

  start(): this {
    if (!this.polling) {
      this.consumer.start();
      this.polling = this.poll();
    }
    return this;
  }

  async stop(): Promise<void> {
    this.controller.abort();
    this.wake();
    await this.consumer.stop();
    await this.polling;
    await this.delivering;
  }

  readCheckpoint(): Promise<Position> {
    return this.consumer.readCheckpoint();
  }

  /** For tests and tools: enqueue from the checkpoint to the log's head, then send what is due. */
  async runOnce(): Promise<{ enqueued: number; sent: number }> {
    const enqueued = await this.consumer.runOnce();
    return { enqueued, sent: await this.deliverDue() };
  }

  /**
   * Writes the outbox rows of a batch (the events after the checkpoint; those at or before it are
   * skipped) and moves the checkpoint past it, in one transaction. Returns the rows written.
   */
  enqueue(events: RecordedEvent[]): Promise<number> {
    return this.consumer.applyBatch(events);
  }

  private async mailsFor(events: RecordedEvent[]): Promise<PendingMail[]> {
    const out: PendingMail[] = [];
    for (const raw of events) {
      let data: unknown;
      try {
        data = parseEvent(raw).data;
      } catch (err) {
        // Retrying would stop every later mail; the projections quarantine (and report) the same event.
        if (!(err instanceof EventParseError)) throw err;
        this.deps.logger.error({ err, eventId: raw.id }, 'mail reactor skipped an unreadable event');
        continue;
      }
      for (const source of this.byType.get(raw.type) ?? []) {
        for (const mail of await source.mailsFor(raw, data)) out.push({ ...mail, event: raw });
      }
    }
    return out;
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
        `update mail_outbox set claimed_until = now() + make_interval(secs => $1::double precision), attempts = attempts + 1
          where id in (
            select id from mail_outbox
             where sent_at is null and failed_at is null and next_attempt_at <= now()
               and (claimed_until is null or claimed_until <= now())
             order by next_attempt_at, log_position limit 20 for update skip locked)
          returning id, event_id, mail_to, subject, body_text, attempts, log_position`,
        [LEASE_MS / 1000],
      );
      if (rows.length === 0) return sent;
      // `returning` keeps no order: send in the log's (an event's mails in the order they were written).
      rows.sort((a, b) =>
        a.log_position === b.log_position
          ? Number(a.id) - Number(b.id)
          : a.log_position < b.log_position
            ? -1
            : 1,
      );
      for (const row of rows) {
        try {
          await this.deps.mailer.send({ to: row.mail_to, subject: row.subject, text: row.body_text });
          await this.deps.pool.query(
            'update mail_outbox set sent_at = now(), claimed_until = null, last_error = null where id = $1',
            [row.id],
          );
          sent += 1;
        } catch (err) {
          const wait = MAIL_RETRY_MS[row.attempts - 1];
          this.deps.logger.error({ err, eventId: row.event_id, attempts: row.attempts }, 'e-mail failed');
          await this.deps.pool.query(
            `update mail_outbox set claimed_until = null, last_error = $2,
               next_attempt_at = now() + make_interval(secs => $3::double precision),
               failed_at = case when $4::boolean then now() end
             where id = $1`,
            [row.id, String((err as Error).message ?? err), (wait ?? 0) / 1000, wait === undefined],
          );
        }
      }
    }
  }

  /** Sends what was enqueued at once, and retries as they come due with time, not with events. */
  private async poll(): Promise<void> {
    const signal = this.controller.signal;
    let seen = 0;
    while (!signal.aborted) {
      if (this.wakeUps === seen) {
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            this.sleeper = undefined;
            resolve();
          };
          const timer = setTimeout(done, POLL_MS);
          this.sleeper = done;
        });
      }
      seen = this.wakeUps;
      if (signal.aborted) return;
      await this.deliverDue().catch((err) => this.deps.logger.error({ err }, 'mail delivery failed'));
    }
  }
}

/** The outbox rows of a batch, in its transaction: one per key, ever. */
async function writeOutbox(tx: Queryable, mails: PendingMail[]): Promise<number> {
  let n = 0;
  for (const { event, key, kind, mail } of mails) {
    const inserted = await tx.query(
      `insert into mail_outbox (event_id, mail_key, kind, log_position, mail_to, subject, body_text)
       values ($1, $2, $3, $4, $5, $6, $7) on conflict (mail_key) do nothing`,
      [event.id, key, kind, event.position, mail.to, mail.subject, mail.text],
    );
    n += inserted.rowCount ?? 0;
  }
  return n;
}

/** Starts the reactor with its sources beside the command API; it stops when the app closes. */
export function startMailReactor(
  deps: Deps & { app: { addHook(name: 'onClose', hook: () => Promise<void>): unknown } },
  sources: readonly MailSource[],
): MailReactor {
  const reactor = new MailReactor(deps, sources).start();
  deps.app.addHook('onClose', () => reactor.stop());
  return reactor;
}
