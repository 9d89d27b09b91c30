import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createLogger, createMailer, ManualClock, type PostgresEventStore } from '@mrn/platform';
import type { TestDatabase } from '@mrn/platform/testing';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RETRY_DELAYS_MS, WebhookDispatcher } from '../dispatcher.ts';
import { webhookSecretOf } from '../signing/signing.ts';
import {
  addMerchant,
  clearOutbox,
  closeDispatcherDatabase,
  openAccount,
  openDispatcherDatabase,
  randomEin,
  startReceiver,
  watch,
} from '../test-helpers.ts';

// The notification e-mail as a subscriber's mail server sees it: sent by the product's own mailer
// (nodemailer over SMTP, platform/src/mailer.ts) and read back by a real SMTP server on loopback.

let db: TestDatabase;
let store: PostgresEventStore;
const logger = createLogger('silent');
const PUBLIC_URL = 'https://mrn.example';
const FROM = 'Merchant Risk Network <no-reply@merchantrisk.local>';

beforeAll(async () => {
  ({ db, store } = await openDispatcherDatabase());
});
afterAll(() => closeDispatcherDatabase({ db, store }));
beforeEach(() => clearOutbox(db));

interface ReceivedMail {
  mailFrom: string | null;
  rcptTo: string[];
  /** The message exactly as it crossed the wire, headers included. */
  raw: string;
  parsed: ParsedMail;
}

interface SmtpInbox {
  url: string;
  received: ReceivedMail[];
  /** RCPT TO commands seen, accepted or not. */
  rcptAttempts: number;
  close(): Promise<void>;
}

/**
 * A mail server on 127.0.0.1. `refuse(n)` gives the SMTP reply code for the n-th RCPT TO (0-based), or
 * null to accept it.
 */
async function startInbox(refuse: (n: number) => number | null = () => null): Promise<SmtpInbox> {
  const received: ReceivedMail[] = [];
  const inbox = { rcptAttempts: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      const code = refuse(inbox.rcptAttempts++);
      if (code === null) return callback();
      const err = Object.assign(
        new Error(code < 500 ? 'Mailbox busy, try again later' : 'Mailbox unavailable'),
        {
          responseCode: code,
        },
      );
      callback(err);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw)
          .then((parsed) => {
            received.push({
              mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
              rcptTo: session.envelope.rcptTo.map((r) => r.address),
              raw: raw.toString('utf8'),
              parsed,
            });
            callback();
          })
          .catch((err: Error) => callback(err));
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
    received,
    get rcptAttempts() {
      return inbox.rcptAttempts;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function dispatcher(clock: ManualClock, smtpUrl: string) {
  const mailer = createMailer(smtpUrl, FROM);
  const d = new WebhookDispatcher({
    pool: db.pool,
    store,
    mailer,
    clock,
    logger,
    publicUrl: PUBLIC_URL,
    allowLoopback: true,
    random: () => 0.5,
  });
  return {
    d,
    stop: async () => {
      await d.stop();
      mailer.close();
    },
  };
}

/** A note whose author (a person) is known, to prove the e-mail names the funder and never them. */
async function addNoteBy(
  s: PostgresEventStore,
  accountId: string,
  userId: string,
  merchantId: string,
  category: string,
  note: string,
): Promise<void> {
  await s.appendToStream(
    `merchant-${merchantId}`,
    [
      {
        id: randomUUID(),
        type: 'NoteAdded',
        data: {
          merchantId,
          noteId: randomUUID(),
          category,
          note,
          submissionSource: 'in-house',
          brokerName: null,
          accountId,
          userId,
          proxiedCreator: null,
        },
        metadata: { actorAccountId: accountId, actorUserId: userId },
      },
    ],
    { expectedRevision: 'any' },
  );
}

const emailRows = async () =>
  (
    await db.pool.query<{
      id: string;
      target: string;
      status: string;
      attempts: number;
      next_attempt_at: Date | null;
    }>(`select id, target, status, attempts, next_attempt_at from webhook_deliveries where kind = 'email'`)
  ).rows;

const attemptsOf = async (deliveryId: string) =>
  (
    await db.pool.query<{ attempt: number; at: Date; error: string | null; succeeded: boolean }>(
      'select attempt, at, error, succeeded from webhook_attempts where delivery_id = $1 order by attempt',
      [deliveryId],
    )
  ).rows;

describe('notification e-mail over SMTP', () => {
  it('reaches the watching funder with every field, naming the reporting funder and leaking nothing', async () => {
    const inbox = await startInbox();
    const hooks = await startReceiver();
    const clock = new ManualClock(new Date());
    const { d, stop } = dispatcher(clock, inbox.url);
    try {
      const fein = randomEin();
      const watcher = await openAccount(store, 'Summit Funding', {
        email: 'alerts@summit.example',
        webhook: hooks.url,
      });
      const actor = await openAccount(store, 'Harbor Capital');
      const merchantId = await addMerchant(store, actor, fein, 'Acme Coffee LLC');
      await watch(store, watcher, fein);
      const author = randomUUID();
      await addNoteBy(store, actor, author, merchantId, 'Slow Pay', 'Paid 40 days late.');
      await addNoteBy(store, actor, author, merchantId, 'Merchant Dispute', 'Owner disputes the default.');
      await addNoteBy(store, watcher, randomUUID(), merchantId, 'Default', 'Summit internal remark.');
      await d.runOnce();

      expect(inbox.received).toHaveLength(1);
      const mail = inbox.received[0]!;
      expect(mail.rcptTo).toEqual(['alerts@summit.example']);
      expect(mail.mailFrom).toBe('no-reply@merchantrisk.local');
      expect(mail.parsed.to).toMatchObject({ value: [{ address: 'alerts@summit.example' }] });
      // People read the e-mail: the EIN as the app writes it, 12-3456789.
      const shownEin = `${fein.slice(0, 2)}-${fein.slice(2)}`;
      expect(mail.parsed.subject).toBe(`Note Added: Acme Coffee LLC (EIN ${shownEin})`);
      const lines = (mail.parsed.text ?? '').trim().split(/\r?\n/);
      expect(lines).toEqual([
        'Note Added on a merchant you watch.',
        '',
        `Merchant EIN: ${shownEin}`,
        'Merchant Name: Acme Coffee LLC',
        'Action: Note Added',
        'Note Category: Slow Pay',
        'Note: Paid 40 days late.',
        'Action Performed By: Harbor Capital',
        `Merchant URL: ${PUBLIC_URL}/merchants/${merchantId}`,
      ]);

      // The same note went out as a signed webhook: its secret, and the signature made with it, stay there.
      expect(hooks.received).toHaveLength(1);
      const secret = await webhookSecretOf(db.pool, watcher);
      for (const leak of [
        secret,
        secret.slice('whsec_'.length),
        String(hooks.received[0]!.headers['webhook-signature']).split(',')[1]!,
        'Owner disputes the default',
        'Merchant Dispute',
        'Summit internal remark',
        author, // the person who wrote the note: only the funder is named
        actor,
      ]) {
        expect(mail.raw).not.toContain(leak);
      }

      const [row] = await emailRows();
      expect(row).toMatchObject({ target: 'alerts@summit.example', status: 'succeeded', attempts: 1 });
      expect((await attemptsOf(row!.id)).map((a) => [a.attempt, a.succeeded, a.error])).toEqual([
        [1, true, null],
      ]);
    } finally {
      await stop();
      await hooks.close();
      await inbox.close();
    }
  });

  it('a mail server refusing the recipient: each attempt logged failed, retried on schedule, then delivered once', async () => {
    // 450 (try later), then 550 (refused outright): the dispatcher keeps to its schedule for both, as an
    // address fixed by its owner in the meantime should still get the notification.
    const inbox = await startInbox((n) => (n === 0 ? 450 : n === 1 ? 550 : null));
    const clock = new ManualClock(new Date());
    const { d, stop } = dispatcher(clock, inbox.url);
    try {
      const fein = randomEin();
      const watcher = await openAccount(store, 'Summit Funding', { email: 'alerts@summit.example' });
      const actor = await openAccount(store, 'Harbor Capital');
      const merchantId = await addMerchant(store, actor, fein, 'Blue Bakery Inc');
      await watch(store, watcher, fein);
      await addNoteBy(store, actor, randomUUID(), merchantId, 'Default', 'Stopped paying in March.');

      // random() = 0.5 pins the jitter at +5 %.
      const [first, second] = RETRY_DELAYS_MS.map((w) => Math.round(w * 1.05));
      expect(await d.runOnce()).toEqual({ enqueued: 1, attempted: 1 });
      let [row] = await emailRows();
      expect(row).toMatchObject({ status: 'failed', attempts: 1 });
      expect(row!.next_attempt_at!.getTime()).toBe(clock.now().getTime() + first!);
      clock.advance(first! - 1);
      expect((await d.runOnce()).attempted).toBe(0); // not before its time
      clock.advance(1);
      expect((await d.runOnce()).attempted).toBe(1);
      [row] = await emailRows();
      expect(row).toMatchObject({ status: 'failed', attempts: 2 });
      expect(row!.next_attempt_at!.getTime()).toBe(clock.now().getTime() + second!);
      expect(inbox.received).toHaveLength(0);

      clock.set(row!.next_attempt_at!);
      expect((await d.runOnce()).attempted).toBe(1);
      [row] = await emailRows();
      expect(row).toMatchObject({ status: 'succeeded', attempts: 3, next_attempt_at: null });
      const log = await attemptsOf(row!.id);
      expect(log.map((a) => [a.attempt, a.succeeded])).toEqual([
        [1, false],
        [2, false],
        [3, true],
      ]);
      // The log says what the mail server answered.
      expect(log[0]!.error).toMatch(/450 Mailbox busy, try again later/);
      expect(log[1]!.error).toMatch(/550 Mailbox unavailable/);
      expect(log[2]!.error).toBeNull();
      expect(log[1]!.at.getTime() - log[0]!.at.getTime()).toBe(first!);
      expect(log[2]!.at.getTime() - log[1]!.at.getTime()).toBe(second!);

      expect(inbox.rcptAttempts).toBe(3);
      expect(inbox.received).toHaveLength(1);
      expect(inbox.received[0]!.rcptTo).toEqual(['alerts@summit.example']);
      expect(inbox.received[0]!.parsed.text).toContain('Note: Stopped paying in March.');
      // Nothing more is due, however long one waits.
      clock.advance(48 * 3600_000);
      expect((await d.runOnce()).attempted).toBe(0);
    } finally {
      await stop();
      await inbox.close();
    }
  });
});
