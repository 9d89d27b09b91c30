import { randomUUID } from 'node:crypto';
import { type DomainEvent, streams } from '@mrn/contracts';
import { createLogger, type Mail, PostgresEventStore, platformMigrations } from '@mrn/platform';
import { createTestDatabase, type TestDatabase } from '@mrn/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MailReactor } from '../mail/mail-outbox.ts';
import { commandMigrations } from '../plugin.ts';
import { disputeMails } from './dispute-mail-source.ts';

// The mail reactor with the dispute e-mails, over a real event store and outbox: each mail enqueued once
// however many readers or restarts, sent again after a failure, never lost to a crash between enqueue
// and send.

let db: TestDatabase;
let store: PostgresEventStore;
beforeAll(async () => {
  db = await createTestDatabase([...platformMigrations(), ...commandMigrations()]);
  store = new PostgresEventStore(db.pool);
});
afterAll(async () => {
  await store?.close();
  await db?.drop();
});

/** A mailer that keeps what it is given, and fails while `failing` is set (an SMTP outage). */
function recordingMailer() {
  const sent: Mail[] = [];
  return {
    sent,
    failing: false,
    async send(mail: Mail) {
      if (this.failing) throw new Error('SMTP unavailable');
      sent.push(mail);
    },
    close() {},
  };
}
const reactor = (mailer: ReturnType<typeof recordingMailer>) =>
  new MailReactor({ pool: db.pool, store, mailer, logger: createLogger('silent') }, [
    disputeMails({ store, productName: 'MRN' }),
  ]);
const append = (streamId: string, events: DomainEvent[]) =>
  store.appendToStream(
    streamId,
    events.map((e) => ({ id: randomUUID(), type: e.type, data: e.data, metadata: {} })),
    { expectedRevision: 'any' },
  );

async function dispute(email: string) {
  const disputeId = randomUUID();
  await append(streams.dispute(disputeId), [
    {
      type: 'DisputeSubmitted',
      data: {
        disputeId,
        firstName: 'Rosa',
        lastName: 'Diaz',
        email,
        fein: '123456789',
        legalName: 'Sunrise Diner Inc',
        dba: null,
        city: 'Tampa',
        state: 'FL',
        reason: 'Wrong.',
      },
    },
  ]);
  return disputeId;
}
const resolve = (disputeId: string) =>
  append(streams.dispute(disputeId), [
    {
      type: 'DisputeResolved',
      data: {
        disputeId,
        resolution: 'rejected',
        explanation: 'The report stands.',
        merchantId: null,
        noteId: null,
        resolvedByUserId: randomUUID(),
      },
    },
  ]);

describe('mail reactor: dispute e-mails', () => {
  it('mails receipt and resolution once each, however often and by however many readers the log is read', async () => {
    const mailer = recordingMailer();
    const id = await dispute('once@biz.example');
    await resolve(id);
    // Two readers from the same checkpoint at once: one outbox row per event.
    await Promise.all([reactor(mailer).runOnce(), reactor(mailer).runOnce()]);
    await reactor(mailer).runOnce();
    const mine = mailer.sent.filter((m) => m.to === 'once@biz.example');
    expect(mine.map((m) => m.subject)).toEqual([
      'We received your dispute about Sunrise Diner Inc',
      'Your dispute about Sunrise Diner Inc has been resolved',
    ]);
    expect(mine[1]!.text).toContain('The report stands.');
  });

  it('keeps a mail through an SMTP outage and sends it when it is due again', async () => {
    const mailer = recordingMailer();
    mailer.failing = true;
    await dispute('outage@biz.example');
    expect((await reactor(mailer).runOnce()).sent).toBe(0);
    const { rows } = await db.pool.query(
      `select attempts, sent_at, last_error, next_attempt_at > now() as later from mail_outbox where mail_to = $1`,
      ['outage@biz.example'],
    );
    expect(rows).toEqual([{ attempts: 1, sent_at: null, last_error: 'SMTP unavailable', later: true }]);
    mailer.failing = false;
    expect((await reactor(mailer).runOnce()).sent).toBe(0); // not due yet
    await db.pool.query(`update mail_outbox set next_attempt_at = now() where mail_to = $1`, [
      'outage@biz.example',
    ]);
    expect((await reactor(mailer).runOnce()).sent).toBe(1);
    expect(mailer.sent.map((m) => m.to)).toEqual(['outage@biz.example']);
  });

  it('sends after a restart what a crashed process enqueued but never sent', async () => {
    const crashed = reactor(recordingMailer());
    await dispute('crash@biz.example');
    // The crashed process got as far as the outbox and its checkpoint.
    const events = await store.readAll({ fromPosition: await crashed.readCheckpoint(), maxCount: 1000 });
    expect(await crashed.enqueue(events)).toBe(1);
    const mailer = recordingMailer();
    expect((await reactor(mailer).runOnce()).sent).toBe(1);
    expect(mailer.sent.map((m) => m.to)).toEqual(['crash@biz.example']);
  });
});
