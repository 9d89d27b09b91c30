import { randomUUID } from 'node:crypto';
import {
  createLogger,
  type Mail,
  PostgresEventStore,
  platformMigrations,
  runMigrations,
} from '@mrn/platform';
import { createTestDatabase, type TestDatabase } from '@mrn/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandMigrations } from '../plugin.ts';
import { MAIL_CHECKPOINT, MailReactor, type MailSource } from './mail-outbox.ts';

// One outbox and one reactor for every e-mail sent from the log: sources are added, not consumers.

let db: TestDatabase;
let store: PostgresEventStore;
const upgrade = commandMigrations().filter((m) => m.id === 'command-api/0018_mail_outbox');
beforeAll(async () => {
  // The database as it was before the generalised outbox, so its upgrade can be watched.
  db = await createTestDatabase([
    ...platformMigrations(),
    ...commandMigrations().filter((m) => m.id < 'command-api/0018'),
  ]);
  store = new PostgresEventStore(db.pool);
});
afterAll(async () => {
  await store?.close();
  await db?.drop();
});

const sent: Mail[] = [];
const mailer = {
  async send(mail: Mail) {
    sent.push(mail);
  },
  close() {},
};

describe('the mail outbox', () => {
  it('takes over the dispute outbox: its rows keep one key per dispute and kind, the checkpoint its place', async () => {
    const disputeId = randomUUID();
    const eventId = randomUUID();
    await db.pool.query(
      `insert into dispute_mail_outbox (event_id, dispute_id, kind, log_position, mail_to, subject, body_text, sent_at)
       values ($1, $2, 'received', '0000000000000001', 'owner@biz.example', 'We received your dispute', 'text', now())`,
      [eventId, disputeId],
    );
    await db.pool.query(
      `insert into subscription_checkpoints (name, position, updated_at) values ('dispute-mail', '0000000000000042', now())`,
    );
    expect(await runMigrations(db.pool, upgrade)).toEqual(['command-api/0018_mail_outbox']);

    const { rows } = await db.pool.query(
      'select event_id, mail_key, kind, sent_at is not null as sent from mail_outbox',
    );
    expect(rows).toEqual([
      { event_id: eventId, mail_key: `dispute-received:${disputeId}`, kind: 'dispute-received', sent: true },
    ]);
    const checkpoint = await db.pool.query('select name, position from subscription_checkpoints');
    expect(checkpoint.rows).toEqual([{ name: MAIL_CHECKPOINT, position: '0000000000000042' }]);
    // The same key again is refused: one message per key, ever.
    await expect(
      db.pool.query(
        `insert into mail_outbox (event_id, mail_key, kind, log_position, mail_to, subject, body_text)
         values ($1, $2, 'dispute-received', '1', 'x@y.example', 's', 't')`,
        [randomUUID(), `dispute-received:${disputeId}`],
      ),
    ).rejects.toThrow(/mail_outbox_mail_key_key/);
    await db.pool.query('delete from subscription_checkpoints');
  });

  it('sends what every source makes of an event, one message per key however often the log is read', async () => {
    // Two sources reading the same event type, one mailing two addresses: three messages, in log order.
    const twoAddresses: MailSource = {
      name: 'a',
      types: ['AccountOpened'],
      async mailsFor(event, data) {
        const { name } = data as { name: string };
        return ['first', 'second'].map((who) => ({
          key: `a:${event.id}:${who}`,
          kind: 'a',
          mail: { to: `${who}@funder.example`, subject: `Opened ${name}`, text: 'a' },
        }));
      },
    };
    const another: MailSource = {
      name: 'b',
      types: ['AccountOpened'],
      async mailsFor(event) {
        return [
          { key: `b:${event.id}`, kind: 'b', mail: { to: 'staff@mrn.example', subject: 'b', text: 'b' } },
        ];
      },
    };
    const accountId = randomUUID();
    await store.appendToStream(
      `account-${accountId}`,
      [
        {
          id: randomUUID(),
          type: 'AccountOpened',
          data: {
            accountId,
            name: 'Granite',
            website: null,
            primaryContactEmail: 'ops@granite.example',
            planLevel: 'BASIC',
            membershipStatus: 'none',
            isPlatform: false,
          },
          metadata: {},
        },
      ],
      { expectedRevision: 'no_stream' },
    );
    const reactor = () =>
      new MailReactor({ pool: db.pool, store, mailer, logger: createLogger('silent') }, [
        twoAddresses,
        another,
      ]);
    await Promise.all([reactor().runOnce(), reactor().runOnce()]);
    await db.pool.query('delete from subscription_checkpoints');
    await reactor().runOnce(); // the whole log again: every key is already there
    expect(sent.map((m) => m.to)).toEqual([
      'first@funder.example',
      'second@funder.example',
      'staff@mrn.example',
    ]);
    expect(sent[0]!.subject).toBe('Opened Granite');
  });
});
