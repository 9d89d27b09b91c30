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

// DESIGN §5, stated here as the spec states it and not read from the code's constant: a failing webhook
// is tried immediately, then after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, then dead-lettered.
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const SPEC_WAITS_MS = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR];

let db: TestDatabase;
let store: PostgresEventStore;

beforeAll(async () => {
  ({ db, store } = await openDispatcherDatabase());
});
afterAll(() => closeDispatcherDatabase({ db, store }));
beforeEach(() => clearOutbox(db));

const row = async () =>
  (
    await db.pool.query<{ id: string; status: string; attempts: number; next_attempt_at: Date | null }>(
      `select id, status, attempts, next_attempt_at from webhook_deliveries where kind = 'webhook'`,
    )
  ).rows;

describe('retry schedule (DESIGN §5)', () => {
  it('tries at once, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h later, and is dead after the 8th failure', async () => {
    expect(SPEC_WAITS_MS).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    const receiver = await startReceiver(() => 503);
    const start = new Date('2026-03-02T09:00:00.000Z');
    const clock = new ManualClock(start);
    // No jitter: the waits are the spec's to the millisecond.
    const d = new WebhookDispatcher({
      pool: db.pool,
      store,
      mailer: new RecordingMailer(),
      clock,
      logger: createLogger('silent'),
      publicUrl: 'https://mrn.example',
      allowLoopback: true,
      random: () => 0,
    });
    try {
      const fein = randomEin();
      const watcher = await openAccount(store, 'Watcher Funding', { webhook: receiver.url });
      const actor = await openAccount(store, 'Acting Capital');
      const merchantId = await addMerchant(store, actor, fein, 'Acme Coffee LLC');
      await watch(store, watcher, fein);
      await addNote(store, actor, merchantId);

      // Attempt 1: immediately, with no time passing.
      expect(await d.runOnce()).toEqual({ enqueued: 1, attempted: 1 });
      const seen: number[] = [];
      for (const [i, wait] of SPEC_WAITS_MS.entries()) {
        const [r] = await row();
        expect(r).toMatchObject({ status: 'failed', attempts: i + 1 });
        seen.push(r!.next_attempt_at!.getTime() - clock.now().getTime());
        // One millisecond early: nothing goes.
        clock.advance(wait - 1);
        expect((await d.runOnce()).attempted).toBe(0);
        clock.advance(1);
        expect((await d.runOnce()).attempted).toBe(1);
      }
      expect(seen).toEqual(SPEC_WAITS_MS);
      const [r] = await row();
      expect(r).toMatchObject({ status: 'dead', attempts: 8, next_attempt_at: null });
      expect(receiver.received).toHaveLength(8);
      const { rows } = await db.pool.query<{ at: Date }>(
        'select at from webhook_attempts where delivery_id = $1 order by attempt',
        [r!.id],
      );
      expect(rows.map((a) => a.at.getTime() - start.getTime())).toEqual([
        0, 5_000, 305_000, 2_105_000, 9_305_000, 27_305_000, 63_305_000, 99_305_000,
      ]);
      // Dead is final: a week later nothing is tried.
      clock.advance(7 * 24 * HOUR);
      expect((await d.runOnce()).attempted).toBe(0);
      expect(receiver.received).toHaveLength(8);
    } finally {
      await d.stop();
      await receiver.close();
    }
  });
});
