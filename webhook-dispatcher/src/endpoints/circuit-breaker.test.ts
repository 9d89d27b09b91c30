import { createLogger, ManualClock, type PostgresEventStore } from '@mrn/platform';
import type { TestDatabase } from '@mrn/platform/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type DispatcherOptions, LEASE_MS, WebhookDispatcher } from '../dispatcher.ts';
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

// Issue 20 item 2: an endpoint that keeps failing is parked (5 failures in a row; 30 s, doubling up to
// 5 min), its rows are not claimed and spend no attempts meanwhile, one probe goes after each pause and
// a success closes it. The state is in PostgreSQL: every dispatcher process respects it.

let db: TestDatabase;
let store: PostgresEventStore;

beforeAll(async () => {
  ({ db, store } = await openDispatcherDatabase());
});
afterAll(() => closeDispatcherDatabase({ db, store }));
beforeEach(() => clearOutbox(db));

const SECOND = 1000;

function dispatcher(clock: ManualClock, opts: Partial<DispatcherOptions> = {}) {
  return new WebhookDispatcher({
    pool: db.pool,
    store,
    mailer: new RecordingMailer(),
    clock,
    logger: createLogger('silent'),
    publicUrl: 'https://mrn.example',
    allowLoopback: true,
    random: () => 0,
    ...opts,
  });
}

/** A watcher whose endpoint is `url`, and `notes` notes on a merchant it watches: one row each. */
async function scene(url: string, notes: number) {
  const fein = randomEin();
  const watcher = await openAccount(store, 'Watcher Funding', { webhook: url });
  const actor = await openAccount(store, 'Acting Capital');
  const merchantId = await addMerchant(store, actor, fein, 'Acme Coffee LLC');
  await watch(store, watcher, fein);
  for (let i = 0; i < notes; i++) await addNote(store, actor, merchantId, 'Slow Pay', `Note ${i}.`);
  return { watcher, actor, merchantId };
}

const circuit = async (accountId: string) =>
  (
    await db.pool.query<{
      consecutive_failures: number;
      open_until: Date | null;
      pause_ms: number | null;
      probing: boolean;
    }>(
      'select consecutive_failures, open_until, pause_ms, probing from webhook_endpoint_circuits where account_id = $1',
      [accountId],
    )
  ).rows[0];

const rows = async () =>
  (
    await db.pool.query<{ id: string; status: string; attempts: number; next_attempt_at: Date | null }>(
      `select id, status, attempts, next_attempt_at from webhook_deliveries where kind = 'webhook'
        order by payload #>> '{data,note}'`,
    )
  ).rows;

describe('circuit breaker', () => {
  it('parks an endpoint after 5 failures in a row, probes once per pause (30 s doubling to 5 min), and a success resumes it', async () => {
    let failing = true;
    const receiver = await startReceiver(() => (failing ? 500 : 204));
    const clock = new ManualClock(new Date('2026-03-02T09:00:00.000Z'));
    // One request at a time to the endpoint, so the failures come one by one.
    const d = dispatcher(clock, { perEndpointInFlight: 1 });
    const other = dispatcher(clock);
    try {
      const { watcher, actor, merchantId } = await scene(receiver.url, 10);
      expect(await d.runOnce()).toEqual({ enqueued: 10, attempted: 5 });
      expect(receiver.received).toHaveLength(5);
      const opened = clock.now().getTime() + 30 * SECOND;
      expect(await circuit(watcher)).toEqual({
        consecutive_failures: 5,
        open_until: new Date(opened),
        pause_ms: 30_000,
        probing: false,
      });
      // Every waiting row, tried or not, waits for the end of the pause; the 5 untried spent nothing.
      const parked = await rows();
      expect(parked.map((r) => r.attempts).sort()).toEqual([0, 0, 0, 0, 0, 1, 1, 1, 1, 1]);
      const untried = new Set(parked.filter((r) => r.attempts === 0).map((r) => r.id));
      expect(new Set(parked.map((r) => r.next_attempt_at!.getTime()))).toEqual(new Set([opened]));
      // A note while parked waits too.
      await addNote(store, actor, merchantId, 'Slow Pay', 'While parked.');
      expect(await d.runOnce()).toEqual({ enqueued: 1, attempted: 0 });
      const whileParked = (await rows()).at(-1)!;
      expect(whileParked.next_attempt_at!.getTime()).toBe(opened);
      untried.add(whileParked.id);

      // Nothing goes before the pause is over, from this process or another.
      clock.set(new Date(opened - 1));
      expect((await d.runOnce()).attempted).toBe(0);
      expect((await other.runOnce()).attempted).toBe(0);

      // Each pause over: one probe (of 11 rows due), failing, parks it twice as long, up to 5 minutes.
      const pauses: number[] = [];
      for (let i = 0; i < 6; i++) {
        clock.set((await circuit(watcher))!.open_until!);
        const before = receiver.received.length;
        expect((await other.runOnce()).attempted).toBe(1);
        expect(receiver.received.length - before).toBe(1);
        const c = (await circuit(watcher))!;
        pauses.push(c.open_until!.getTime() - clock.now().getTime());
        expect(c).toMatchObject({ pause_ms: pauses.at(-1), probing: false });
      }
      expect(pauses).toEqual([60_000, 120_000, 240_000, 300_000, 300_000, 300_000]);
      expect(receiver.received).toHaveLength(11);

      // The endpoint is fixed: the next probe succeeds, the circuit closes, the waiting rows go.
      failing = false;
      clock.set((await circuit(watcher))!.open_until!);
      const resumed = await d.runOnce();
      expect(await circuit(watcher)).toBeUndefined();
      const after = await rows();
      // Rows tried by a probe wait for their own next retry (the schedule stands); the rest went now.
      const retrying = after.filter((r) => r.status === 'failed');
      expect(retrying.every((r) => r.next_attempt_at!.getTime() > clock.now().getTime())).toBe(true);
      expect(after.filter((r) => r.status === 'succeeded')).toHaveLength(resumed.attempted);
      expect(resumed.attempted).toBe(11 - retrying.length);
      // Parked rows spent no attempts: every attempt is one of the 5 before, a probe, or a delivery after.
      const spent = after.reduce((n, r) => n + r.attempts, 0);
      expect(spent).toBe(5 + 6 + resumed.attempted);
      expect(receiver.received).toHaveLength(spent);
      // Rows parked before their first attempt and not taken as a probe went at their first.
      expect(after.filter((r) => untried.has(r.id) && r.attempts === 1).map((r) => r.status)).not.toContain(
        'failed',
      );
    } finally {
      await d.stop();
      await other.stop();
      await receiver.close();
    }
  });

  it('a probe whose dispatcher dies is replaced once its lease has passed, by another process', async () => {
    const receiver = await startReceiver(() => 500);
    const clock = new ManualClock(new Date('2026-03-02T09:00:00.000Z'));
    const first = dispatcher(clock, { perEndpointInFlight: 1 });
    const second = dispatcher(clock);
    try {
      const { watcher } = await scene(receiver.url, 6);
      await first.runOnce();
      clock.set((await circuit(watcher))!.open_until!);
      const [probe] = await first.claimProbes();
      expect(probe).toMatchObject({ probe: true });
      expect(await circuit(watcher)).toMatchObject({ probing: true });
      await first.stop(); // dies holding the probe
      expect((await second.runOnce()).attempted).toBe(0);
      clock.advance(LEASE_MS);
      const before = receiver.received.length;
      expect((await second.runOnce()).attempted).toBe(1);
      expect(receiver.received.length - before).toBe(1);
      expect(await circuit(watcher)).toMatchObject({ probing: false, pause_ms: 60_000 });
    } finally {
      await second.stop();
      await receiver.close();
    }
  });
});
