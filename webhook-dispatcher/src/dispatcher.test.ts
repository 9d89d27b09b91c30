import { randomUUID } from 'node:crypto';
import { createLogger, ManualClock, type PostgresEventStore } from '@mrn/platform';
import { CONTAINER_START_TIMEOUT_MS, kafkaForTests, type TestDatabase } from '@mrn/platform/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deliveryWithAttempts } from './delivery/delivery-log.ts';
import {
  type DispatcherOptions,
  LEASE_MS,
  MAX_ATTEMPTS,
  REQUEST_TIMEOUT_MS,
  RETRY_DELAYS_MS,
  WebhookDispatcher,
} from './dispatcher.ts';
import { rotateWebhookSecret, webhookSecretOf } from './signing/signing.ts';
import {
  addMerchant,
  addNote,
  append,
  clearOutbox,
  closeDispatcherDatabase,
  openAccount,
  openDispatcherDatabase,
  RecordingMailer,
  randomEin,
  saveAccountSettings,
  startReceiver,
  updateNote,
  verifyWith,
  watch,
} from './test-helpers.ts';
import { eventStoreUnderTest, kafkaUnderTest } from './test-sources.ts';

let db: TestDatabase;
let store: PostgresEventStore;
const logger = createLogger('silent');
const PUBLIC_URL = 'https://mrn.example';

beforeAll(async () => {
  ({ db, store } = await openDispatcherDatabase({ live: true }));
});
afterAll(() => closeDispatcherDatabase({ db, store }));
beforeEach(() => clearOutbox(db));

function dispatcherOptions(
  clock: ManualClock,
  mailer = new RecordingMailer(),
  allowLoopback = true,
): DispatcherOptions {
  return {
    pool: db.pool,
    store,
    mailer,
    clock,
    logger,
    publicUrl: PUBLIC_URL,
    allowLoopback,
    random: () => 0.5,
  };
}

function dispatcher(clock: ManualClock, mailer = new RecordingMailer(), allowLoopback = true) {
  return new WebhookDispatcher(dispatcherOptions(clock, mailer, allowLoopback));
}

/** A funder watching a merchant's EIN, another funder that reports on it; one note → one delivery. */
async function scene(webhook: string | null, email: string | null = null) {
  const fein = randomEin();
  const watcher = await openAccount(store, 'Watcher Funding', { webhook, email });
  const actor = await openAccount(store, 'Acting Capital');
  const merchantId = await addMerchant(store, actor, fein, 'Acme Coffee LLC');
  await watch(store, watcher, fein);
  return { fein, watcher, actor, merchantId };
}

const deliveries = async () =>
  (
    await db.pool.query<{
      id: string;
      webhook_id: string;
      account_id: string;
      kind: string;
      target: string;
      status: string;
      attempts: number;
      next_attempt_at: Date | null;
      payload: Record<string, unknown>;
    }>('select * from webhook_deliveries order by created_at, kind')
  ).rows;

const attempts = async (deliveryId: string) =>
  (
    await db.pool.query<{
      attempt: number;
      at: Date;
      http_status: number | null;
      response_body: string | null;
      error: string | null;
      succeeded: boolean;
      duration_ms: number;
    }>('select * from webhook_attempts where delivery_id = $1 order by attempt', [deliveryId])
  ).rows;

// "One test suite, two sources" (DESIGN §4, Kafka): the same deliveries whether the dispatcher reads the
// event store or the Kafka topic the relay publishes to. Kafka where KAFKA_BROKERS names a broker:
//   KAFKA_BROKERS=localhost:9092 npx vitest run webhook-dispatcher/src/dispatcher.test.ts
// or, without it, in a container testcontainers starts when a Docker engine answers (kafkaForTests, not
// run on the development machine: no Docker engine there); otherwise skipped, with the reason.
for (const source of [eventStoreUnderTest, kafkaUnderTest(await kafkaForTests())]) {
  describe(`from the ${source.name}`, () => {
    describe.skipIf(source.skip !== undefined)(source.skip ? `skipped: ${source.skip}` : 'delivery', () => {
      beforeAll(() => source.setup({ pool: db.pool, store, logger }), CONTAINER_START_TIMEOUT_MS);
      afterAll(() => source.teardown(), CONTAINER_START_TIMEOUT_MS);

      describe('matching and payload', () => {
        it('tells a watching funder when another funder reports, never about its own or a Merchant Dispute note', async () => {
          const receiver = await startReceiver();
          const mailer = new RecordingMailer();
          const clock = new ManualClock(new Date());
          const d = source.dispatcher(dispatcherOptions(clock, mailer));
          try {
            const { fein, watcher, actor, merchantId } = await scene(receiver.url, 'alerts@watcher.example');
            const noteId = await addNote(store, actor, merchantId, 'Slow Pay', 'Paid 40 days late.');
            // The watcher's own note on the same merchant: no webhook to itself.
            await addNote(store, watcher, merchantId, 'Default', 'Our own note.');
            // A Merchant Dispute note is never sent.
            await addNote(store, actor, merchantId, 'Merchant Dispute', 'Disputed by the merchant.');
            await updateNote(store, actor, merchantId, noteId, 'Slow Pay', 'Paid 45 days late.');
            await source.settle(d);

            const rows = await deliveries();
            expect(rows.map((r) => [r.kind, r.account_id, r.status]).sort()).toEqual([
              ['email', watcher, 'succeeded'],
              ['email', watcher, 'succeeded'],
              ['webhook', watcher, 'succeeded'],
              ['webhook', watcher, 'succeeded'],
            ]);
            expect(receiver.received).toHaveLength(2);
            const secret = await webhookSecretOf(db.pool, watcher);
            // Deliveries go out side by side: no order between them (Standard Webhooks promises none).
            const bodies = receiver.received.map((r) => verifyWith(secret, r)) as {
              type: string;
              data: Record<string, unknown>;
            }[];
            const added = bodies.find((b) => b.type === 'merchant.note_added');
            const updated = bodies.find((b) => b.type === 'merchant.note_updated');
            expect(added).toMatchObject({
              type: 'merchant.note_added',
              data: {
                merchant_ein: fein,
                merchant_name: 'Acme Coffee LLC',
                action: 'Note Added',
                note_category: 'Slow Pay',
                note: 'Paid 40 days late.',
                merchant_url: `${PUBLIC_URL}/merchants/${merchantId}`,
                action_performed_by: 'Acting Capital',
              },
            });
            expect(updated?.data).toMatchObject({ action: 'Note Updated', note: 'Paid 45 days late.' });
            const all = JSON.stringify(receiver.received.map((r) => r.body)) + JSON.stringify(mailer.sent);
            expect(all).not.toContain('Disputed by the merchant');
            expect(all).not.toContain('Our own note');
            expect(mailer.sent.map((m) => m.to)).toEqual([
              'alerts@watcher.example',
              'alerts@watcher.example',
            ]);
            expect(mailer.sent[0]?.text).toContain('Action Performed By: Acting Capital');
            expect(mailer.sent[0]?.text).toContain(`${PUBLIC_URL}/merchants/${merchantId}`);
          } finally {
            await d.stop();
            await receiver.close();
          }
        });

        it('sends Merchant Added and Merchant Updated for a watched EIN reported by another funder', async () => {
          const receiver = await startReceiver();
          const clock = new ManualClock(new Date());
          const d = source.dispatcher(dispatcherOptions(clock));
          try {
            const fein = randomEin();
            const watcher = await openAccount(store, 'Early Watcher', { webhook: receiver.url });
            const actor = await openAccount(store, 'Reporting Funder');
            await watch(store, watcher, fein); // watched before anyone reported it
            await addMerchant(store, actor, fein, 'Blue Bakery Inc');
            // An account without subscriptions enabled gets nothing.
            const disabled = await openAccount(store, 'Not Enabled', {
              webhook: receiver.url,
              enabled: false,
            });
            await watch(store, disabled, fein);
            await addMerchant(store, actor, randomEin(), 'Unwatched Ltd');
            await source.settle(d);
            expect(receiver.received).toHaveLength(1);
            const body = JSON.parse(receiver.received[0]!.body);
            expect(body.data).toMatchObject({ action: 'Merchant Added', merchant_ein: fein, note: null });
            expect(body.data.action_performed_by).toBe('Reporting Funder');
          } finally {
            await d.stop();
            await receiver.close();
          }
        });
      });

      describe('live', () => {
        it('started as in the server, delivers a note within seconds of its append', async () => {
          const receiver = await startReceiver();
          const running = source.startLive({
            pool: db.pool,
            store,
            mailer: new RecordingMailer(),
            logger,
            publicUrl: () => PUBLIC_URL,
            allowLoopback: true,
          });
          try {
            const { actor, merchantId } = await scene(receiver.url);
            // A Kafka consumer first joins its group (seconds); the clock starts once it reads.
            await source.caughtUp();
            const appended = Date.now();
            await addNote(store, actor, merchantId);
            await expect.poll(() => receiver.received.length, { timeout: 5000, interval: 20 }).toBe(1);
            expect(Date.now() - appended).toBeLessThan(3000);
            await expect
              .poll(async () => (await deliveries())[0]?.status, { timeout: 5000 })
              .toBe('succeeded');
          } finally {
            await running.stop();
            await receiver.close();
          }
        });
      });

      describe('an event it cannot read', () => {
        it('is quarantined with the reason, and the events around it are delivered', async () => {
          const receiver = await startReceiver();
          const clock = new ManualClock(new Date());
          const d = source.dispatcher(dispatcherOptions(clock));
          try {
            const { actor, merchantId } = await scene(receiver.url);
            await addNote(store, actor, merchantId, 'Slow Pay', 'Before the bad one.');
            // The store does not validate data (the command side does): a NoteAdded without its category,
            // account and user, as a bug or a hand-made append could write it.
            const badId = randomUUID();
            await store.appendToStream(
              `merchant-${merchantId}`,
              [{ id: badId, type: 'NoteAdded', data: { merchantId, noteId: randomUUID(), note: 'Broken.' } }],
              { expectedRevision: 'any' },
            );
            await addNote(store, actor, merchantId, 'Slow Pay', 'After the bad one.');
            await source.settle(d);

            const notes = receiver.received.map((r) => JSON.parse(r.body).data.note).sort();
            expect(notes).toEqual(['After the bad one.', 'Before the bad one.']);
            expect(JSON.stringify(receiver.received.map((r) => r.body))).not.toContain('Broken.');
            const { rows } = await db.pool.query(
              'select event_id, position, stream_id, type, reason from webhook_quarantine where event_id = $1',
              [badId],
            );
            expect(rows).toEqual([
              {
                event_id: badId,
                position: expect.any(String),
                stream_id: `merchant-${merchantId}`,
                type: 'NoteAdded',
                reason: expect.stringMatching(/category/),
              },
            ]);
            // Read again (a second dispatcher, a redelivery): still one row, nothing sent twice.
            await source.settle(d);
            expect(receiver.received).toHaveLength(2);
            expect(
              (await db.pool.query('select 1 from webhook_quarantine where event_id = $1', [badId])).rowCount,
            ).toBe(1);
          } finally {
            await d.stop();
            await receiver.close();
          }
        });
      });

      describe.runIf(source.republish !== undefined)('redelivery', () => {
        it('a batch the relay published twice (it died before its checkpoint) is delivered once', async () => {
          const receiver = await startReceiver();
          const clock = new ManualClock(new Date());
          const d = source.dispatcher(dispatcherOptions(clock));
          try {
            const before = await store.headPosition();
            const { actor, merchantId } = await scene(receiver.url);
            await addNote(store, actor, merchantId, 'Slow Pay', 'Only once.');
            await source.settle(d);
            expect(receiver.received).toHaveLength(1);
            // The same messages again, then a new note behind them: once it is delivered, the
            // duplicates before it in the partition have been consumed.
            await source.republish!(await store.readAll({ fromPosition: before, maxCount: 100 }));
            await addNote(store, actor, merchantId, 'Slow Pay', 'A new one.');
            await source.settle(d);
            expect(receiver.received.map((r) => JSON.parse(r.body).data.note).sort()).toEqual([
              'A new one.',
              'Only once.',
            ]);
            expect(await deliveries()).toHaveLength(2);
          } finally {
            await d.stop();
            await receiver.close();
          }
        });
      });
    });
  });
}

describe('signing', () => {
  it('verifies with the standardwebhooks library; after a rotation both secrets sign for 24 hours', async () => {
    const receiver = await startReceiver();
    const clock = new ManualClock(new Date());
    const d = dispatcher(clock);
    try {
      const { watcher, actor, merchantId } = await scene(receiver.url);
      const before = await webhookSecretOf(db.pool, watcher);
      expect(before).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
      await addNote(store, actor, merchantId);
      await d.runOnce();
      expect(verifyWith(before, receiver.received[0]!)).toBeTruthy();

      const after = (await rotateWebhookSecret(db.pool, watcher, clock.now()))!.secret;
      expect(after).not.toBe(before);
      await addNote(store, actor, merchantId);
      await d.runOnce();
      const during = receiver.received[1]!;
      expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
      expect(verifyWith(after, during)).toBeTruthy();
      expect(verifyWith(before, during)).toBeTruthy();

      clock.advance(24 * 3600_000 + 1000);
      await addNote(store, actor, merchantId);
      await d.runOnce();
      const later = receiver.received[2]!;
      expect(String(later.headers['webhook-signature']).split(' ')).toHaveLength(1);
      expect(verifyWith(after, later)).toBeTruthy();
      expect(() => verifyWith(before, later)).toThrow();
    } finally {
      await d.stop();
      await receiver.close();
    }
  });
});

describe('retries', () => {
  it('a receiver failing 3 times then succeeding: 4 attempts logged, one success, the same webhook-id', async () => {
    const receiver = await startReceiver((n) => (n < 3 ? 500 : 204));
    const clock = new ManualClock(new Date());
    const d = dispatcher(clock);
    try {
      const { watcher, actor, merchantId } = await scene(receiver.url);
      await addNote(store, actor, merchantId);
      await d.runOnce();
      for (const wait of RETRY_DELAYS_MS.slice(0, 3)) {
        // Not before its time (the jitter only lengthens a wait)…
        clock.advance(wait - 1);
        expect((await d.runOnce()).attempted).toBe(0);
        // …and once the jittered wait (here +5 %) is over.
        clock.advance(Math.ceil(wait * 0.05) + 1);
        expect((await d.runOnce()).attempted).toBe(1);
      }
      const [row] = await deliveries();
      expect(row).toMatchObject({ status: 'succeeded', attempts: 4, next_attempt_at: null });
      const log = await attempts(row!.id);
      expect(log.map((a) => [a.attempt, a.http_status, a.succeeded])).toEqual([
        [1, 500, false],
        [2, 500, false],
        [3, 500, false],
        [4, 204, true],
      ]);
      expect(log[0]!.response_body).toHaveLength(1024);
      expect(new Set(receiver.received.map((r) => r.headers['webhook-id']))).toEqual(
        new Set([row!.webhook_id]),
      );
      const secret = await webhookSecretOf(db.pool, watcher);
      for (const r of receiver.received) expect(verifyWith(secret, r)).toBeTruthy();
      expect(log.filter((a) => a.succeeded)).toHaveLength(1);
    } finally {
      await d.stop();
      await receiver.close();
    }
  });

  it('a receiver down for the whole run: the schedule is followed, then the row is dead', async () => {
    const receiver = await startReceiver(() => 503);
    const clock = new ManualClock(new Date());
    const d = dispatcher(clock);
    try {
      const { actor, merchantId } = await scene(receiver.url);
      await addNote(store, actor, merchantId);
      await d.runOnce();
      for (const wait of RETRY_DELAYS_MS) {
        const [row] = await deliveries();
        expect(row!.status).toBe('failed');
        const expected = clock.now().getTime() + wait * 1.05;
        expect(Math.abs(row!.next_attempt_at!.getTime() - expected)).toBeLessThan(2);
        clock.set(row!.next_attempt_at!);
        expect((await d.runOnce()).attempted).toBe(1);
      }
      const [row] = await deliveries();
      expect(row).toMatchObject({ status: 'dead', attempts: MAX_ATTEMPTS, next_attempt_at: null });
      const log = await attempts(row!.id);
      expect(log).toHaveLength(8);
      const gaps = log.slice(1).map((a, i) => a.at.getTime() - log[i]!.at.getTime());
      expect(gaps).toEqual(RETRY_DELAYS_MS.map((w) => Math.round(w * 1.05)));
      expect(receiver.received).toHaveLength(8);
      clock.advance(48 * 3600_000);
      expect((await d.runOnce()).attempted).toBe(0);
    } finally {
      await d.stop();
      await receiver.close();
    }
  });

  it('a dispatcher that dies after claiming loses nothing: attempt 1 shows interrupted, attempt 2 delivers with the same webhook-id', async () => {
    const receiver = await startReceiver();
    const clock = new ManualClock(new Date());
    const first = dispatcher(clock);
    const second = dispatcher(clock);
    try {
      const { watcher, actor, merchantId } = await scene(receiver.url);
      await addNote(store, actor, merchantId);
      await first.pump();
      const claimed = await first.claimDue();
      expect(claimed).toHaveLength(1);
      const id = claimed[0]!.id;
      // The claim is the attempt: counted and logged before any byte is sent, its outcome not yet known.
      expect(claimed[0]!.attempts).toBe(1);
      const during = await deliveryWithAttempts(db.pool, watcher, id);
      expect(during).toMatchObject({ status: 'pending', attempts: 1, http_status: null, duration_ms: null });
      expect(during!.attempts_log).toEqual([
        {
          attempt: 1,
          at: clock.now().toISOString(),
          outcome: 'in_flight',
          http_status: null,
          duration_ms: null,
          response_body: null,
          error: null,
          succeeded: false,
        },
      ]);
      await first.stop(); // "crashes" holding the lease: it never records an outcome
      expect((await second.runOnce()).attempted).toBe(0); // still leased
      clock.advance(LEASE_MS);
      expect((await second.runOnce()).attempted).toBe(1);
      const [row] = await deliveries();
      expect(row).toMatchObject({ status: 'succeeded', attempts: 2, webhook_id: claimed[0]!.webhook_id });
      expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([claimed[0]!.webhook_id]);
      const after = await deliveryWithAttempts(db.pool, watcher, id);
      expect(after).toMatchObject({ status: 'succeeded', attempts: 2, http_status: 200 });
      expect(after!.attempts_log.map((a) => [a.attempt, a.outcome, a.http_status, a.error])).toEqual([
        [1, 'interrupted', null, 'interrupted: no answer recorded'],
        [2, 'succeeded', 200, null],
      ]);
    } finally {
      await second.stop();
      await receiver.close();
    }
  });

  it('a dispatcher stopped mid-request gives the row back: attempt 2 delivers it with the same webhook-id', async () => {
    let release: (() => void) | undefined;
    const arrived = new Promise<void>((resolve) => {
      release = resolve;
    });
    const receiver = await startReceiver((n) => {
      if (n === 0) {
        release?.();
        return 'hang';
      }
      return 200;
    });
    const clock = new ManualClock(new Date());
    const first = dispatcher(clock);
    const second = dispatcher(clock);
    try {
      const { watcher, actor, merchantId } = await scene(receiver.url);
      await addNote(store, actor, merchantId);
      const running = first.runOnce();
      await arrived;
      await first.stop();
      await running;
      // Given back at once, not after the lease: the next dispatcher takes it up with no time passing.
      await second.runOnce();
      const [row] = await deliveries();
      expect(row).toMatchObject({ status: 'succeeded', attempts: 2 });
      expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([
        row!.webhook_id,
        row!.webhook_id,
      ]);
      const log = (await deliveryWithAttempts(db.pool, watcher, row!.id))!.attempts_log;
      expect(log.map((a) => [a.attempt, a.outcome, a.http_status, a.error])).toEqual([
        [1, 'interrupted', null, 'interrupted: the dispatcher stopped before an answer'],
        [2, 'succeeded', 200, null],
      ]);
    } finally {
      await second.stop();
      await receiver.close();
    }
  });

  it('tells its metrics hook of every attempt: the outcome, its duration, and the time from the event for a delivery', async () => {
    const receiver = await startReceiver((n) => (n === 0 ? 500 : 200));
    const clock = new ManualClock(new Date());
    const seen: [string, number, number | null][] = [];
    const d = new WebhookDispatcher({
      ...dispatcherOptions(clock),
      onDelivered: (outcome, seconds, sinceEvent) => seen.push([outcome, seconds, sinceEvent]),
    });
    try {
      const { actor, merchantId } = await scene(receiver.url, 'alerts@watcher.example');
      await addNote(store, actor, merchantId);
      await d.runOnce();
      // The webhook failed (no time from the event: it is not delivered), the e-mail went.
      expect(seen.map(([outcome, , sinceEvent]) => [outcome, sinceEvent === null]).sort()).toEqual([
        ['delivered', false],
        ['failed', true],
      ]);
      clock.advance(Math.ceil(RETRY_DELAYS_MS[0]! * 1.05) + 1);
      expect((await d.runOnce()).attempted).toBe(1);
      const [outcome, seconds, sinceEvent] = seen[2]!;
      expect(outcome).toBe('delivered');
      expect(seconds).toBeGreaterThanOrEqual(0);
      expect(seconds).toBeLessThan(REQUEST_TIMEOUT_MS / 1000);
      // Delivered at its first retry, some 5 s (of the manual clock) after the note.
      expect(sinceEvent).toBeGreaterThan(4);
      expect(sinceEvent).toBeLessThan(6);
    } finally {
      await d.stop();
      await receiver.close();
    }
  });

  it('an enqueue is exactly once: a second dispatcher over the same log adds nothing', async () => {
    const clock = new ManualClock(new Date());
    const { actor, merchantId } = await scene('https://hooks.example/never');
    await addNote(store, actor, merchantId);
    const a = dispatcher(clock);
    const b = dispatcher(clock);
    const [x, y] = await Promise.all([a.pump(), b.pump()]);
    expect(x + y).toBe(1);
    expect(await deliveries()).toHaveLength(1);
    await a.stop();
    await b.stop();
  });

  it('an endpoint failing for 5 days is disabled and its admins are e-mailed', async () => {
    const receiver = await startReceiver(() => 500);
    const clock = new ManualClock(new Date());
    const mailer = new RecordingMailer();
    const d = dispatcher(clock, mailer);
    try {
      const { watcher, actor, merchantId } = await scene(receiver.url);
      await db.pool.query(
        `insert into read.users (id, account_id, email, first_name, last_name, is_admin, is_dm_admin, created_at)
         values (gen_random_uuid(), $1, 'admin@watcher.example', 'Ada', 'Admin', true, false, now()),
                (gen_random_uuid(), $1, 'member@watcher.example', 'Mo', 'Member', false, false, now())`,
        [watcher],
      );
      await addNote(store, actor, merchantId);
      await d.runOnce();
      for (let day = 1; day <= 5; day++) {
        clock.advance(86_400_000);
        await addNote(store, actor, merchantId); // a fresh delivery each day, all failing
        await d.runOnce();
      }
      const { rows } = await db.pool.query(
        'select url from webhook_endpoints_disabled where account_id = $1',
        [watcher],
      );
      expect(rows).toEqual([{ url: receiver.url }]);
      expect(mailer.sent.map((m) => m.to)).toEqual(['admin@watcher.example']);
      expect(mailer.sent[0]!.subject).toContain('disabled');
      const open = (await deliveries()).filter(
        (r) => r.kind === 'webhook' && ['pending', 'failed'].includes(r.status),
      );
      expect(open).toEqual([]);
      // No new rows for a disabled endpoint.
      await addNote(store, actor, merchantId);
      expect(await d.pump()).toBe(0);
    } finally {
      await d.stop();
      await receiver.close();
    }
  });
});

describe('a disabled endpoint saved again (issue 20 item 16)', () => {
  /** Fails for 5 days (one new note a day) until the endpoint is disabled, as the test above. */
  async function disable(d: WebhookDispatcher, clock: ManualClock, actor: string, merchantId: string) {
    await addNote(store, actor, merchantId);
    await d.runOnce();
    for (let day = 1; day <= 5; day++) {
      clock.advance(86_400_000);
      await addNote(store, actor, merchantId);
      await d.runOnce();
    }
  }
  const disabledUrls = async (accountId: string) =>
    (
      await db.pool.query<{ url: string }>(
        'select url from webhook_endpoints_disabled where account_id = $1',
        [accountId],
      )
    ).rows.map((r) => r.url);

  it.each(['the same URL', 'the same URL with nothing else changed', 'a new URL'])(
    'resumes deliveries once the account saves %s',
    async (which) => {
      let failing = true;
      const broken = await startReceiver(() => (failing ? 500 : 200));
      const other = await startReceiver(() => (failing ? 500 : 200));
      const clock = new ManualClock(new Date());
      const d = dispatcher(clock);
      try {
        const { watcher, actor, merchantId } = await scene(broken.url);
        await disable(d, clock, actor, merchantId);
        expect(await disabledUrls(watcher)).toEqual([broken.url]);
        await addNote(store, actor, merchantId, 'Slow Pay', 'While disabled.');
        expect(await d.pump()).toBe(0);

        // The admin fixes the endpoint and saves its URL (or another) in the account settings.
        failing = false;
        const same = which !== 'a new URL';
        const url = same ? broken.url : other.url;
        const target = same ? broken : other;
        if (which === 'the same URL with nothing else changed') {
          // What the account decider writes for a save that changes nothing but names the webhook.
          await append(store, `account-${watcher}`, 'AccountWebhookEndpointSaved', {
            accountId: watcher,
            url,
          });
        } else {
          await saveAccountSettings(store, watcher, 'Watcher Funding', { webhook: url });
        }
        const before = target.received.length;
        await addNote(store, actor, merchantId, 'Slow Pay', 'After the fix.');
        expect(await d.runOnce()).toMatchObject({ enqueued: 1, attempted: 1 });
        expect(target.received.slice(before).map((r) => JSON.parse(r.body).data.note)).toEqual([
          'After the fix.',
        ]);
        // Saving a URL ends that URL's disabled state (a broken one left behind stays disabled until saved).
        expect(await disabledUrls(watcher)).toEqual(same ? [] : [broken.url]);
        const fresh = (await deliveries()).filter((r) => r.kind === 'webhook' && r.status === 'succeeded');
        expect(fresh).toHaveLength(1);
        // Its 5-day window starts again: one more failure now does not disable it.
        failing = true;
        await addNote(store, actor, merchantId, 'Slow Pay', 'A blip.');
        await d.runOnce();
        // Both notes were written at the same clock time: pick the blip's row by its note.
        const blip = (await deliveries()).find(
          (r) => r.kind === 'webhook' && (r.payload.data as { note?: string }).note === 'A blip.',
        );
        expect(blip).toMatchObject({ status: 'failed', target: url });
        expect(await disabledUrls(watcher)).not.toContain(url);
      } finally {
        await d.stop();
        await broken.close();
        await other.close();
      }
    },
  );
});

describe('SSRF at delivery time', () => {
  it.each([
    'http://10.0.0.1/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]:9/hook',
    'http://127.0.0.1:9/hook',
    'http://[::ffff:127.0.0.1]:9/hook',
    'ftp://example.com/hook',
  ])('refuses %s without connecting', async (url) => {
    const clock = new ManualClock(new Date());
    const d = dispatcher(clock, new RecordingMailer(), false);
    try {
      const { actor, merchantId } = await scene(url);
      await addNote(store, actor, merchantId);
      await d.runOnce();
      const [row] = await deliveries();
      const [attempt] = await attempts(row!.id);
      expect(attempt).toMatchObject({ succeeded: false, http_status: null });
      expect(attempt!.error).toMatch(/refused/);
    } finally {
      await d.stop();
    }
  });

  it('refuses a host name resolving to 127.0.0.1 without the flag, delivers to it with the flag', async () => {
    const receiver = await startReceiver();
    const clock = new ManualClock(new Date());
    const strict = dispatcher(clock, new RecordingMailer(), false);
    const loose = dispatcher(clock, new RecordingMailer(), true);
    try {
      const { actor, merchantId } = await scene(`http://localhost:${receiver.port}/hook`);
      await addNote(store, actor, merchantId);
      await strict.runOnce();
      const [row] = await deliveries();
      const [attempt] = await attempts(row!.id);
      expect(attempt!.error).toMatch(/forbidden address/);
      expect(receiver.received).toHaveLength(0);
      clock.advance(RETRY_DELAYS_MS[0] * 2);
      await loose.runOnce();
      expect(receiver.received).toHaveLength(1);
      expect((await deliveries())[0]!.status).toBe('succeeded');
    } finally {
      await strict.stop();
      await loose.stop();
      await receiver.close();
    }
  });
});
