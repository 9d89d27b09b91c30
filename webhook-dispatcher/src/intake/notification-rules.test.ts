import { randomUUID } from 'node:crypto';
import { createLogger, ManualClock, type PostgresEventStore } from '@mrn/platform';
import type { TestDatabase } from '@mrn/platform/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WebhookDispatcher } from '../dispatcher.ts';
import {
  addMerchant,
  addNote,
  clearOutbox,
  closeDispatcherDatabase,
  openAccount,
  openDispatcherDatabase,
  RecordingMailer,
  randomEin,
  startReceiver,
  watch,
} from '../test-helpers.ts';

let db: TestDatabase;
let store: PostgresEventStore;

beforeAll(async () => {
  ({ db, store } = await openDispatcherDatabase({ live: true }));
});
afterAll(() => closeDispatcherDatabase({ db, store }));
beforeEach(() => clearOutbox(db));

const dispatcher = (mailer = new RecordingMailer()) =>
  new WebhookDispatcher({
    pool: db.pool,
    store,
    mailer,
    clock: new ManualClock(new Date()),
    logger: createLogger('silent'),
    publicUrl: 'https://mrn.example',
    allowLoopback: true,
    random: () => 0.5,
  });

const accountEvent = (accountId: string, type: string, data: Record<string, unknown>) =>
  store.appendToStream(
    `account-${accountId}`,
    [{ id: randomUUID(), type, data: { accountId, ...data }, metadata: {} }],
    { expectedRevision: 'any' },
  );

const payloads = (bodies: { body: string }[]) =>
  bodies.map((b) => JSON.parse(b.body) as { type: string; data: Record<string, unknown> });

describe('who is told', () => {
  it('stops after a downgrade to BASIC or a canceled membership, and starts again with PRO', async () => {
    const receiver = await startReceiver();
    const d = dispatcher();
    try {
      const fein = randomEin();
      const watcher = await openAccount(store, 'Downgrading Funder', { webhook: receiver.url });
      const actor = await openAccount(store, 'Reporting Funder');
      await watch(store, watcher, fein);
      const merchantId = await addMerchant(store, actor, fein);

      await accountEvent(watcher, 'AccountPlanChanged', { planLevel: 'BASIC' });
      await addNote(store, actor, merchantId, 'Slow Pay', 'while BASIC');
      await accountEvent(watcher, 'AccountPlanChanged', { planLevel: 'PRO' });
      await addNote(store, actor, merchantId, 'Slow Pay', 'back on PRO');
      await accountEvent(watcher, 'AccountMembershipCanceled', { reason: 'requested' });
      await addNote(store, actor, merchantId, 'Slow Pay', 'after cancelling');
      // A plan change while canceled does not bring notifications back; a new membership does.
      await accountEvent(watcher, 'AccountPlanChanged', { planLevel: 'PRO' });
      await addNote(store, actor, merchantId, 'Slow Pay', 'plan changed while canceled');
      await accountEvent(watcher, 'AccountMembershipStarted', {
        planLevel: 'PRO',
        stripeCustomerId: 'cus_1',
        stripeSubscriptionId: 'sub_1',
        currentPeriodEnd: null,
      });
      await addNote(store, actor, merchantId, 'Slow Pay', 'member again');
      await d.runOnce();

      const notes = payloads(receiver.received)
        .filter((p) => p.data.action === 'Note Added')
        .map((p) => p.data.note)
        .sort();
      expect(notes).toEqual(['back on PRO', 'member again']);
    } finally {
      await d.stop();
      await receiver.close();
    }
  });
});

describe('one notification per report', () => {
  const merchantAdded = (merchantId: string, fein: string, actor: string, correlationId: string | null) => ({
    id: randomUUID(),
    type: 'MerchantAdded',
    data: {
      merchantId,
      fein,
      legalName: 'Folded Foods LLC',
      dba: null,
      street1: null,
      street2: null,
      city: 'Austin',
      state: 'TX',
      businessPhone: null,
      businessStartdate: null,
      industry: null,
      accountId: actor,
      userId: randomUUID(),
    },
    metadata: { actorAccountId: actor, correlationId },
  });
  const noteAdded = (merchantId: string, actor: string, correlationId: string | null) => ({
    id: randomUUID(),
    type: 'NoteAdded',
    data: {
      merchantId,
      noteId: randomUUID(),
      category: 'Default',
      note: 'Stopped paying after week two.',
      submissionSource: 'in-house',
      brokerName: null,
      accountId: actor,
      userId: randomUUID(),
      proxiedCreator: null,
    },
    metadata: { actorAccountId: actor, correlationId },
  });

  /** As the Add Merchant form does it: the merchant and its first note in one append, one request. */
  async function addMerchantWithNote(actor: string, fein: string, correlationId: string | null) {
    const merchantId = randomUUID();
    await store.appendToStream(
      `merchant-${merchantId}`,
      [merchantAdded(merchantId, fein, actor, correlationId), noteAdded(merchantId, actor, correlationId)],
      { expectedRevision: 'no_stream' },
    );
    return merchantId;
  }

  it('a merchant added with its first note is one Merchant Added carrying the note, by webhook and e-mail', async () => {
    const receiver = await startReceiver();
    const mailer = new RecordingMailer();
    const d = dispatcher(mailer);
    try {
      const fein = randomEin();
      const watcher = await openAccount(store, 'Watching Funder', {
        webhook: receiver.url,
        email: 'alerts@watching.example',
      });
      const actor = await openAccount(store, 'Reporting Funder');
      await watch(store, watcher, fein);
      await addMerchantWithNote(actor, fein, randomUUID());
      await d.runOnce();

      expect(payloads(receiver.received)).toEqual([
        expect.objectContaining({
          type: 'merchant.added',
          data: expect.objectContaining({
            action: 'Merchant Added',
            merchant_ein: fein,
            note_category: 'Default',
            note: 'Stopped paying after week two.',
          }),
        }),
      ]);
      expect(mailer.sent).toHaveLength(1);
      expect(mailer.sent[0]?.text).toContain('Note: Stopped paying after week two.');
      expect(mailer.sent[0]?.subject).toContain('Merchant Added');
    } finally {
      await d.stop();
      await receiver.close();
    }
  });

  it('a note from another request is its own Note Added; so is one whose merchant row was already sent', async () => {
    const receiver = await startReceiver();
    const d = dispatcher();
    try {
      const fein = randomEin();
      const watcher = await openAccount(store, 'Watching Funder', { webhook: receiver.url });
      const actor = await openAccount(store, 'Reporting Funder');
      await watch(store, watcher, fein);
      // Without a request id the two cannot be told to be one report: two notifications.
      await addMerchantWithNote(actor, fein, null);
      await d.runOnce();
      expect(
        payloads(receiver.received)
          .map((p) => p.data.action)
          .sort(),
      ).toEqual(['Merchant Added', 'Note Added']);

      // The same request's note read after its Merchant Added was sent: told separately, not lost.
      const fein2 = randomEin();
      await watch(store, watcher, fein2);
      const merchantId = randomUUID();
      const request = randomUUID();
      await store.appendToStream(
        `merchant-${merchantId}`,
        [merchantAdded(merchantId, fein2, actor, request)],
        {
          expectedRevision: 'no_stream',
        },
      );
      await d.runOnce();
      await store.appendToStream(`merchant-${merchantId}`, [noteAdded(merchantId, actor, request)], {
        expectedRevision: 'any',
      });
      await d.runOnce();
      const later = payloads(receiver.received.slice(2));
      expect(later.map((p) => [p.data.action, p.data.note])).toEqual([
        ['Merchant Added', null],
        ['Note Added', 'Stopped paying after week two.'],
      ]);
    } finally {
      await d.stop();
      await receiver.close();
    }
  });
});

describe('merchants nobody watches (one upsert per batch, quiet-merchants.ts)', () => {
  const rename = (accountId: string, merchantId: string, fein: string, legalName: string) =>
    store.appendToStream(
      `merchant-${merchantId}`,
      [
        {
          id: randomUUID(),
          type: 'MerchantUpdated',
          data: {
            merchantId,
            fein,
            legalName,
            dba: null,
            street1: null,
            street2: null,
            city: 'Austin',
            state: 'TX',
            businessPhone: null,
            businessStartdate: null,
            industry: null,
          },
          metadata: { actorAccountId: accountId },
        },
      ],
      { expectedRevision: 'any' },
    );

  it('tells of a change made after the EIN is watched in the same batch, with the name as of then', async () => {
    const receiver = await startReceiver();
    const d = dispatcher();
    try {
      const fein = randomEin();
      const watcher = await openAccount(store, 'Late Watcher', { webhook: receiver.url });
      const actor = await openAccount(store, 'Busy Funder');
      const merchantId = await addMerchant(store, actor, fein, 'Old Name LLC');
      await addNote(store, actor, merchantId, 'Slow Pay', 'before anyone watched');
      await rename(actor, merchantId, fein, 'New Name LLC');
      await watch(store, watcher, fein);
      await addNote(store, actor, merchantId, 'Slow Pay', 'after the watch');
      await d.runOnce(); // one batch: every event above

      expect(
        payloads(receiver.received).map((p) => [p.data.action, p.data.note, p.data.merchant_name]),
      ).toEqual([['Note Added', 'after the watch', 'New Name LLC']]);
    } finally {
      await d.stop();
      await receiver.close();
    }
  });

  it('keeps its copy of a quiet merchant, so a later watcher is told with the right name', async () => {
    const receiver = await startReceiver();
    const d = dispatcher();
    try {
      const fein = randomEin();
      const watcher = await openAccount(store, 'Later Watcher', { webhook: receiver.url });
      const actor = await openAccount(store, 'Quiet Funder');
      const merchantId = await addMerchant(store, actor, fein, 'First Name LLC');
      await rename(actor, merchantId, fein, 'Second Name LLC');
      await addNote(store, actor, merchantId, 'Other', 'nobody is told');
      await d.runOnce();
      expect(receiver.received).toHaveLength(0);
      const { rows } = await db.pool.query(
        'select fein, name from webhook_merchants where merchant_id = $1',
        [merchantId],
      );
      expect(rows).toEqual([{ fein, name: 'Second Name LLC' }]);

      await watch(store, watcher, fein);
      await addNote(store, actor, merchantId, 'Default Account', 'now watched');
      await d.runOnce();
      expect(
        payloads(receiver.received)
          .filter((p) => p.type === 'merchant.note_added')
          .map((p) => [p.data.note, p.data.merchant_name, p.data.merchant_ein]),
      ).toEqual([['now watched', 'Second Name LLC', fein]]);
      // Default Account is a group the merchant did not have: its signals changed, told by the same name.
      expect(
        payloads(receiver.received)
          .filter((p) => p.type === 'merchant.signals_changed')
          .map((p) => [p.data.new_categories, p.data.merchant_name]),
      ).toEqual([[['Default / Default Account'], 'Second Name LLC']]);
    } finally {
      await d.stop();
      await receiver.close();
    }
  });
});
