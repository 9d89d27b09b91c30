import { createLogger, type PostgresEventStore } from '@mrn/platform';
import type { TestDatabase } from '@mrn/platform/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WebhookDispatcher } from '../dispatcher.ts';
import {
  addMerchant,
  addNote,
  clearOutbox,
  closeDispatcherDatabase,
  type HangingReceiver,
  openAccount,
  openDispatcherDatabase,
  RecordingMailer,
  randomEin,
  startHangingReceiver,
  startReceiver,
  watch,
} from '../test-helpers.ts';

// Issue 20 item 2: endpoints that never answer must not delay anyone else's webhooks. Real loopback
// receivers, the dispatcher running live as the server runs it, short timeouts so the test stays short.

let db: TestDatabase;
let store: PostgresEventStore;
const logger = createLogger('silent');

beforeAll(async () => {
  ({ db, store } = await openDispatcherDatabase({ live: true }));
});
afterAll(() => closeDispatcherDatabase({ db, store }));
beforeEach(() => clearOutbox(db));

const HANGING = 50;
// 7.5 s of notes: through the first timeouts (3 s) and past the breakers parking the hanging endpoints.
const NOTES = 30;
const NOTE_EVERY_MS = 250;

describe('endpoint isolation', () => {
  it('a healthy endpoint gets its webhooks within 1 s (p99) while 50 endpoints hang', async () => {
    const arrivals = new Map<string, number>();
    const healthy = await startReceiver((_, r) => {
      arrivals.set(JSON.parse(r.body).data.note as string, performance.now());
      return 200;
    });
    const hanging: HangingReceiver[] = await Promise.all(
      Array.from({ length: HANGING }, () => startHangingReceiver()),
    );
    // Timeouts much longer than the target, so that waiting on a hanging request shows in the figure.
    const d = new WebhookDispatcher({
      pool: db.pool,
      store,
      mailer: new RecordingMailer(),
      logger,
      publicUrl: 'https://mrn.example',
      allowLoopback: true,
      connectTimeoutMs: 3000,
      headersTimeoutMs: 3000,
      requestTimeoutMs: 3000,
    });
    try {
      const fein = randomEin();
      const actor = await openAccount(store, 'Reporting Funder');
      const merchantId = await addMerchant(store, actor, fein, 'Hang Tight Diner LLC');
      const watcher = await openAccount(store, 'Healthy Watcher', { webhook: healthy.url });
      await watch(store, watcher, fein);
      for (const [i, h] of hanging.entries()) {
        const account = await openAccount(store, `Hanging Watcher ${i}`, { webhook: h.url });
        await watch(store, account, fein);
      }
      d.start();
      // Measured from a dispatcher that has read the log to its head, as a running server's has.
      const head = await store.headPosition();
      await expect.poll(() => d.readCheckpoint(), { timeout: 15_000, interval: 50 }).toBe(head);

      const sent = new Map<string, number>();
      for (let i = 0; i < NOTES; i++) {
        const note = `Returned payment ${i}.`;
        sent.set(note, performance.now());
        await addNote(store, actor, merchantId, 'Slow Pay', note);
        await new Promise((resolve) => setTimeout(resolve, NOTE_EVERY_MS));
      }
      await expect.poll(() => arrivals.size, { timeout: 15_000, interval: 50 }).toBe(NOTES);

      const latencies = [...sent].map(([note, at]) => arrivals.get(note)! - at).sort((a, b) => a - b);
      const p99 = latencies[Math.ceil(latencies.length * 0.99) - 1]!;
      expect(p99, `latencies ${latencies.map(Math.round).join(', ')} ms`).toBeLessThanOrEqual(1000);
      // Every hanging endpoint was tried, none with more than 4 requests in flight at once, and by now
      // each is parked by its breaker (5 timeouts in a row).
      for (const h of hanging) {
        expect(h.connections).toBeGreaterThan(0);
        expect(h.maxOpen).toBeLessThanOrEqual(4);
      }
      const { rows } = await db.pool.query<{ url: string }>(
        'select url from webhook_endpoint_circuits where open_until is not null',
      );
      expect(rows.map((r) => r.url).sort()).toEqual(hanging.map((h) => h.url).sort());
    } finally {
      await d.stop();
      await healthy.close();
      await Promise.all(hanging.map((h) => h.close()));
    }
  }, 60_000);
});
