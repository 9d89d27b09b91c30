import { randomUUID } from 'node:crypto';
import { streams } from '@mrn/contracts';
import { createLogger, PostgresEventStore } from '@mrn/platform';
import { createTestDatabase, type TestDatabase } from '@mrn/platform/testing';
import { allMigrations } from '@mrn/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCREENING_CHUNK, ScreeningWorker, screenChunk } from './screening-worker.ts';

// The screening runner on a real database, fed the request through the log: a runner that dies after a
// chunk leaves the rest to the next runner once its hold has run out (never while it holds), every EIN
// screened once; a note added while a screening runs shows in the rows screened after it.

let db: TestDatabase;
let store: PostgresEventStore;
const logger = createLogger('silent');
const T0 = new Date('2026-11-20T12:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

beforeAll(async () => {
  db = await createTestDatabase(allMigrations());
  store = new PostgresEventStore(db.pool);
});
afterAll(async () => {
  await store?.close();
  await db?.drop();
});

const account = randomUUID();
const user = randomUUID();

/** A live merchant as the read models hold it, with its signal summary (the projectors' rows). */
async function merchant(fein: string, reports: Record<string, number[]>, funders: number): Promise<string> {
  const id = randomUUID();
  await db.pool.query(
    `insert into read.merchants (id, fein, legal_name, city, state, account_id, user_id, created_at)
     values ($1, $2, $3, 'Austin', 'TX', $4, $5, $6)`,
    [id, fein, `Merchant ${fein}`, account, user, T0],
  );
  await db.pool.query(
    'insert into read.merchant_signals (merchant_id, funders, reports) values ($1, $2, $3)',
    [id, funders, JSON.stringify(reports)],
  );
  return id;
}

async function requestScreening(feins: string[]): Promise<string> {
  const screeningId = randomUUID();
  await store.appendToStream(
    streams.screening(screeningId),
    [
      {
        id: randomUUID(),
        type: 'ScreeningRequested',
        data: {
          screeningId,
          accountId: account,
          userId: user,
          source: 'api',
          fileName: null,
          rows: feins.map((fein, i) => ({ row: i + 1, input: fein, fein })),
          rejected: [],
        },
        metadata: {},
      },
    ],
    { expectedRevision: 'no_stream' },
  );
  return screeningId;
}

const status = async (id: string) =>
  (
    await db.pool.query<{ status: string; screened: number; total: number }>(
      'select status, screened, total from screenings where id = $1',
      [id],
    )
  ).rows[0]!;

const worker = (now: Date) => new ScreeningWorker({ pool: db.pool, store, logger, now: () => now });

describe('the screening runner', () => {
  it('goes on from the last chunk of a runner that died, once its hold has run out, screening each EIN once', async () => {
    const feins = Array.from({ length: SCREENING_CHUNK * 2 + 200 }, (_, i) => String(790_000_000 + i));
    const id = await requestScreening(feins);
    const first = worker(at(0));
    await first.readRequests();
    // The first runner screens a chunk and dies (its hold stays until it runs out).
    await db.pool.query(`update screenings set claimed_until = $2 where id = $1`, [id, at(30)]);
    expect(await screenChunk(db.pool, id, at(1))).toBe(true);
    expect(await status(id)).toMatchObject({ status: 'running', screened: SCREENING_CHUNK });
    // Another runner while the hold lasts takes nothing.
    await worker(at(10)).runOnce();
    expect((await status(id)).screened).toBe(SCREENING_CHUNK);
    // Once it has run out, the next runner finishes the rest.
    await worker(at(40)).runOnce();
    expect(await status(id)).toMatchObject({ status: 'done', screened: feins.length, total: feins.length });
    const counts = await db.pool.query(
      `select count(*)::int as n, count(distinct row_no)::int as rows from screening_rows where screening_id = $1 and outcome = 'not_found'`,
      [id],
    );
    expect(counts.rows[0]).toEqual({ n: feins.length, rows: feins.length });
  });

  it('reads a note added while the screening runs in the rows screened after it', async () => {
    const early = await merchant('791000001', { slow_pay: [at(-100).getTime()] }, 1);
    const late = await merchant('791000002', { slow_pay: [at(-100).getTime()] }, 1);
    const fillers = Array.from({ length: SCREENING_CHUNK - 1 }, (_, i) => String(792_000_000 + i));
    const id = await requestScreening(['791000001', ...fillers, '791000002']);
    await worker(at(0)).readRequests();
    expect(await screenChunk(db.pool, id, at(1))).toBe(true);
    // Another funder reports a default on both merchants (the projectors' summary moves).
    for (const m of [early, late])
      await db.pool.query(
        `update read.merchant_signals set funders = 2, reports = $2 where merchant_id = $1`,
        [m, JSON.stringify({ default: [at(2).getTime()], slow_pay: [at(-100).getTime()] })],
      );
    expect(await screenChunk(db.pool, id, at(3))).toBe(false);
    const rows = await db.pool.query<{ fein: string; worst: number; funders: number }>(
      `select fein, worst, funders from screening_rows where screening_id = $1 and outcome = 'found' order by row_no`,
      [id],
    );
    // Screened before the note: Slow Pay (3), one funder; after: Default (0), two funders.
    expect(rows.rows).toEqual([
      { fein: '791000001', worst: 3, funders: 1 },
      { fein: '791000002', worst: 0, funders: 2 },
    ]);
    expect((await status(id)).status).toBe('done');
  });
});
