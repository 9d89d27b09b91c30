import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { buildPath, routes } from '@mrn/contracts';
import { createLogger, type EmbeddedPostgresHandle, startEmbeddedPostgres } from '@mrn/platform';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../app.ts';
import { TEST_ADMIN, testConfig } from '../testing.ts';

// Issue 31: kill -9 of the database during a burst of searches and notes. Commands commit synchronously,
// so every note answered 201 is in the event log after the crash; the search log commits asynchronously
// (its writer's connections run with synchronous_commit off), so what a crash may take is the searches
// answered in the moment before it, never more than a second of them.

const dataDir = `./.test-data/crash-${process.pid}`;
const port = Number(process.env.TEST_PG_PORT ?? 54330) + 61 + Number(process.env.VITEST_POOL_ID ?? 1);
let db: EmbeddedPostgresHandle;
let server: RunningServer;
let token = '';
let merchant = '';

// The server's own durability settings, not the test databases' fsync off: what a crash keeps is the point.
const start = () => startEmbeddedPostgres({ dataDir, port, database: 'mrn' });

/** The postmaster and every process it started, killed at once as a crash of the host would end them. */
function killDatabase(): void {
  const postmaster = Number(readFileSync(`${dataDir}/pg/postmaster.pid`, 'utf8').split('\n')[0]);
  const children = readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        // The parent pid is the 4th field of /proc/<pid>/stat, after the command in parentheses.
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster;
      } catch {
        return false;
      }
    })
    .map(Number);
  for (const pid of [postmaster, ...children]) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

beforeAll(async () => {
  rmSync(dataDir, { recursive: true, force: true });
  db = await start();
  server = await startServer(testConfig(db.url('mrn')), { logger: createLogger('silent'), listen: false });
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
      merchant: { fein: '870000002', legal_name: 'Crashed Database LLC', city: 'Tampa', state: 'FL' },
      note: { category: 'Slow Pay', note: 'First note.', submission_source: 'in-house' },
    },
  });
  expect(added.statusCode, added.body).toBe(201);
  merchant = added.json().data.resource_id;
}, 120_000);
afterAll(async () => {
  await server?.close().catch(() => undefined);
  await db?.stop().catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
});

interface Answered {
  kind: 'search' | 'note';
  /** The search's term (unique to it) or the note's id. */
  key: string;
  at: number;
}

describe('kill -9 of the database during a burst of searches and notes', () => {
  it('keeps every note answered and loses at most the last second of searches', async () => {
    const answered: Answered[] = [];
    let running = true;
    let n = 0;
    const loop = async (worker: number) => {
      while (running) {
        const i = n++;
        const note = worker === 0; // one of eight loops writes notes, the others search
        const term = `crashed probe${i}`;
        const res = await server.app.inject(
          note
            ? {
                method: 'POST',
                url: buildPath(routes.addNote.path, { id: merchant }),
                headers: { authorization: `Bearer ${token}` },
                payload: {
                  note: { category: 'Slow Pay', note: `Note ${i}.`, submission_source: 'in-house' },
                },
              }
            : {
                method: 'GET',
                url: `${routes.searchMerchants.path}?search=${encodeURIComponent(term)}`,
                headers: { authorization: `Bearer ${token}` },
              },
        );
        const at = performance.now();
        if (note && res.statusCode === 201)
          answered.push({ kind: 'note', key: res.json().data.resource_id, at });
        else if (!note && (res.statusCode === 200 || res.statusCode === 404))
          answered.push({ kind: 'search', key: term, at });
        else if (res.statusCode === 503) await new Promise((r) => setTimeout(r, 20));
        else expect.fail(`answered ${res.statusCode}: ${res.body}`);
      }
    };
    const loops = Array.from({ length: 8 }, (_, i) => loop(i));
    await new Promise((r) => setTimeout(r, 2000));
    killDatabase();
    const killedAt = performance.now();
    await new Promise((r) => setTimeout(r, 500));
    running = false;
    await Promise.all(loops);
    db = await start(); // crash recovery replays the write-ahead log

    const before = answered.filter((a) => a.at < killedAt);
    const searches = before.filter((a) => a.kind === 'search');
    const notes = before.filter((a) => a.kind === 'note');
    expect(searches.length).toBeGreaterThan(100);
    expect(notes.length).toBeGreaterThan(5);
    const client = new pg.Client({ connectionString: db.url('mrn') });
    await client.connect();
    try {
      const kept = await client.query<{ noteId: string }>(
        `select data->>'noteId' as "noteId" from events where type = 'NoteAdded' and data->>'noteId' = any($1)`,
        [notes.map((a) => a.key)],
      );
      expect(kept.rows.length).toBe(notes.length);
      const logged = await client.query<{ term: string }>(
        'select term from search_log where term = any($1)',
        [searches.map((a) => a.key)],
      );
      const inLog = new Set(logged.rows.map((r) => r.term));
      const lost = searches.filter((a) => !inLog.has(a.key));
      // Whatever was lost was answered within the second before the kill.
      expect(lost.filter((a) => a.at < killedAt - 1000)).toEqual([]);
      expect(lost.length).toBeLessThan(searches.length);
    } finally {
      await client.end();
    }

    // The server was never restarted: once the database is back, it answers again.
    let back = 0;
    for (let tries = 0; tries < 100 && back !== 200; tries++) {
      back = (
        await server.app.inject({
          method: 'GET',
          url: `${routes.searchMerchants.path}?search=870000002`,
          headers: { authorization: `Bearer ${token}` },
        })
      ).statusCode;
      if (back !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(back).toBe(200);
  }, 90_000);
});
