import { rmSync } from 'node:fs';
import { buildPath, routes } from '@mrn/contracts';
import { createLogger, type EmbeddedPostgresHandle, startEmbeddedPostgres } from '@mrn/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../app.ts';
import { TEST_ADMIN, testConfig } from '../testing.ts';

// Issue 30, item 2: the product's own embedded PostgreSQL (reached through its unix socket, as `npm start`
// does) is stopped while searches, note writes and page reads keep arriving, then started again. Every
// answer while it is down is a 503 with Retry-After, never a 500; once it is back, requests succeed
// again without restarting the server. (A socket that is gone is ENOENT, which answered 500 before.)

const dataDir = `./.test-data/stop-${process.pid}`;
const port = Number(process.env.TEST_PG_PORT ?? 54330) + 41 + Number(process.env.VITEST_POOL_ID ?? 1);
let pg: EmbeddedPostgresHandle;
let server: RunningServer;
let token = '';
let merchant = '';

const start = () => startEmbeddedPostgres({ dataDir, port, database: 'mrn', settings: { fsync: 'off' } });

beforeAll(async () => {
  pg = await start();
  expect(pg.url('mrn')).toContain('host='); // the unix socket, as in production's default
  server = await startServer(testConfig(pg.url('mrn')), { logger: createLogger('silent'), listen: false });
  const login = await server.app.inject({
    method: 'POST',
    url: routes.login.path,
    payload: { auth: { email: TEST_ADMIN.email, password: TEST_ADMIN.password } },
  });
  token = login.json().data.jwt;
  const added = await server.app.inject({
    method: 'POST',
    url: routes.addMerchant.path,
    headers: { authorization: `Bearer ${token}` },
    payload: {
      merchant: { fein: '870000001', legal_name: 'Stopped Database LLC', city: 'Tampa', state: 'FL' },
      note: { category: 'Slow Pay', note: 'First note.', submission_source: 'in-house' },
    },
  });
  expect(added.statusCode, added.body).toBe(201);
  merchant = added.json().data.resource_id;
}, 120_000);
afterAll(async () => {
  await server?.close().catch(() => undefined);
  await pg?.stop().catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
});

const REQUESTS = [
  () => ({ method: 'GET' as const, url: `${routes.searchMerchants.path}?search=870000001` }),
  () => ({ method: 'GET' as const, url: `${routes.searchMerchants.path}?search=stopped` }),
  () => ({ method: 'GET' as const, url: buildPath(routes.getMerchant.path, { id: merchant }) }),
  () => ({
    method: 'POST' as const,
    url: buildPath(routes.addNote.path, { id: merchant }),
    payload: { note: { category: 'Slow Pay', note: 'Another note.', submission_source: 'in-house' } },
  }),
];

interface Answer {
  status: number;
  retryAfter: unknown;
  at: 'up' | 'down' | 'back';
}

describe('a stopped database', () => {
  it('answers 503 with Retry-After under load while it is down, never 500, and recovers', async () => {
    const answers: Answer[] = [];
    let phase: Answer['at'] = 'up';
    let running = true;
    const loop = async (i: number) => {
      for (let n = i; running; n++) {
        const at = phase;
        const res = await server.app.inject({
          ...REQUESTS[n % REQUESTS.length]!(),
          headers: { authorization: `Bearer ${token}` },
        });
        answers.push({ status: res.statusCode, retryAfter: res.headers['retry-after'], at });
        if (res.statusCode === 503) await new Promise((r) => setTimeout(r, 20));
      }
    };
    const loops = Array.from({ length: 8 }, (_, i) => loop(i));
    await new Promise((r) => setTimeout(r, 1000));
    phase = 'down';
    await pg.stop();
    await new Promise((r) => setTimeout(r, 2500));
    pg = await start();
    phase = 'back';
    await new Promise((r) => setTimeout(r, 3000));
    running = false;
    await Promise.all(loops);

    const summary = (at: Answer['at']) => {
      const counts: Record<number, number> = {};
      for (const a of answers.filter((x) => x.at === at)) counts[a.status] = (counts[a.status] ?? 0) + 1;
      return counts;
    };
    const where = JSON.stringify({ up: summary('up'), down: summary('down'), back: summary('back') });
    expect(
      answers.filter((a) => a.status >= 500 && a.status !== 503),
      where,
    ).toEqual([]);
    const down = answers.filter((a) => a.at === 'down');
    expect(down.filter((a) => a.status === 503).length, where).toBeGreaterThan(10);
    for (const a of answers.filter((x) => x.status === 503)) expect(a.retryAfter, where).toBe('5');
    // Back up: the last answers of every kind succeed again.
    const last = answers.filter((a) => a.at === 'back').slice(-REQUESTS.length * 2);
    expect(
      last.every((a) => a.status === 200 || a.status === 201),
      where,
    ).toBe(true);
  }, 60_000);
});
