import { randomUUID } from 'node:crypto';
import { type DomainEvent, streams } from '@mrn/contracts';
import { createLogger, PostgresEventStore, platformMigrations, SearchLog } from '@mrn/platform';
import { createTestDatabase, type TestDatabase } from '@mrn/platform/testing';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { projectionMigrations } from './migrations.ts';
import { projector } from './projector.ts';
import { listQuarantine, resolveQuarantine } from './quarantine.ts';
import { allProjectors } from './read-models/index.ts';
import { rebuildProjector } from './rebuild.ts';
import { ProjectionRunner, readCheckpoint } from './runner.ts';

// A poison event (one a projector cannot apply) fed through the real runner: after bounded retries it
// is quarantined, its projector halts just before it, every other projector carries on, and after a fix
// an operator's retry resumes the projector from where it stopped.

let db: TestDatabase;
let store: PostgresEventStore;

beforeAll(async () => {
  db = await createTestDatabase([...platformMigrations(), ...projectionMigrations()]);
  store = new PostgresEventStore(db.pool, { listenUrl: db.url, pollIntervalMs: 50 });
});
afterAll(async () => {
  await store.close();
  await db.drop();
});

const append = (stream: string, ...events: DomainEvent[]) =>
  store.appendToStream(
    stream,
    events.map((e) => ({ id: randomUUID(), ...e })),
    { expectedRevision: 'any' },
  );
const merchantAdded = (merchantId: string, fein: string, businessStartdate: string | null): DomainEvent => ({
  type: 'MerchantAdded',
  data: {
    merchantId,
    fein,
    legalName: `Merchant ${fein}`,
    dba: null,
    street1: null,
    street2: null,
    city: 'Tampa',
    state: 'FL',
    businessPhone: null,
    businessStartdate,
    industry: null,
    accountId: randomUUID(),
    userId: randomUUID(),
  },
});
const settings = (message: string): DomainEvent => ({
  type: 'AppSettingsChanged',
  data: {
    dashboardMessageEnabled: true,
    dashboardMessageSeverity: 'info',
    dashboardMessageTitle: null,
    dashboardMessage: message,
  },
});
const until = async (check: () => Promise<boolean> | boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return false;
};

describe('a poison event in the merchants read model', () => {
  it('is quarantined after retries; merchants halts before it, the other read models carry on', async () => {
    const runner = new ProjectionRunner(
      { pool: db.pool, store, searches: new SearchLog(db.pool), logger: createLogger('silent') },
      allProjectors,
    );
    await runner.start();
    onTestFinished(() => runner.stop());
    const [good, poison, later] = [randomUUID(), randomUUID(), randomUUID()];
    const before = await append(streams.merchant(good), merchantAdded(good, '100000001', '2019-05-01'));
    // Written past the API (which refuses it): a date PostgreSQL cannot store.
    const bad = await append(streams.merchant(poison), merchantAdded(poison, '100000002', '2023-02-31'));
    const after = await append(streams.merchant(later), merchantAdded(later, '100000003', null));
    const settingsAfter = await append(streams.appSettings(), settings('still live'));

    expect(await runner.waitFor(settingsAfter.position, ['app_settings'], 10_000)).toBe(true);
    expect(await until(() => runner.quarantined.length === 1)).toBe(true);
    const [halted] = runner.quarantined;
    expect(halted).toMatchObject({
      projector: 'merchants',
      type: 'MerchantAdded',
      streamId: streams.merchant(poison),
    });
    expect(halted!.error).toMatch(/date/i);
    // Stopped just before it: past everything before it (at the event before it, or the horizon after
    // that event if it had read that far), never at or past the poison event.
    expect(halted!.appliedThrough >= before.position && halted!.appliedThrough < bad.position).toBe(true);
    // Halted, not skipped: nothing after the poison event is in the merchants read model.
    const ids = (await db.pool.query('select id from read.merchants')).rows.map((r) => r.id);
    expect(ids).toEqual([good]);
    expect(await runner.waitFor(after.position, ['merchants'], 300)).toBe(false);
    const rows = await listQuarantine(db.pool);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ projector: 'merchants', position: bad.position, resolved_at: null });
    expect(rows[0]!.attempts).toBeGreaterThanOrEqual(3);
    await runner.stop();

    // A replay is the operator's other way out: it clears the quarantine and names the event if it still fails.
    await expect(
      rebuildProjector({ pool: db.pool, store }, allProjectors.find((p) => p.name === 'merchants')!),
    ).rejects.toThrow();
    expect(await listQuarantine(db.pool)).toEqual([]);
  });
});

describe('retry after a fix', () => {
  it('resumes the halted projector from where it stopped and applies the event and everything after it', async () => {
    await db.pool.query('create table fixable_seen (message text primary key)');
    let fixed = false;
    const fixable = projector({
      name: 'fixable',
      tables: ['fixable_seen'],
      handlers: {
        AppSettingsChanged: async (tx, e) => {
          if (e.data.dashboardMessage === 'poison' && !fixed) throw new Error('cannot apply poison yet');
          await tx.query('insert into fixable_seen (message) values ($1)', [e.data.dashboardMessage]);
        },
      },
    });
    const watching = projector({
      name: 'watching',
      tables: [],
      handlers: { AppSettingsChanged: async () => {} },
    });
    const runner = new ProjectionRunner({ pool: db.pool, store, logger: createLogger('silent') }, [
      fixable,
      watching,
    ]);
    await runner.start();
    onTestFinished(() => runner.stop());
    await append(streams.appSettings(), settings('one'), settings('poison'), settings('three'));
    const last = await append(streams.appSettings(), settings('four'));
    expect(await runner.waitFor(last.position, ['watching'], 10_000)).toBe(true);
    expect(await until(() => runner.quarantined.some((q) => q.projector === 'fixable'))).toBe(true);
    const seen = async () =>
      (
        await db.pool.query(
          'select message from fixable_seen where message <> $$still live$$ order by message',
        )
      ).rows.map((r) => r.message);
    expect(await seen()).toEqual(['one']);

    fixed = true;
    expect(await resolveQuarantine(db.pool, 'fixable')).toBe(1);
    expect(await runner.waitFor(last.position, ['fixable'], 10_000)).toBe(true);
    expect(await seen()).toEqual(['four', 'one', 'poison', 'three']);
    expect(runner.quarantined).toEqual([]);
    expect(await readCheckpoint(db.pool, 'fixable')).toBe(last.position);
    expect(
      (await listQuarantine(db.pool)).find((r) => r.projector === 'fixable')?.resolved_at,
    ).not.toBeNull();
    await runner.stop();
  });
});
