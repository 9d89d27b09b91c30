import { randomUUID } from 'node:crypto';
import { buildPath, MESSAGES, routes, streams } from '@mrn/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../demo.ts';
import { startTestServer, type TestServer } from '../testing.ts';

// The session check's own guard (issue 30): archiving a funder also ends its sessions, so no test reached
// the check that refuses a member of an archived funder on every data route, which is the only guard when
// a sign-in races the archive or ending the sessions fails. Here the archive reaches the read model
// without ending the session, as in that race.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ demo: true });
});
afterAll(async () => {
  await server?.close();
});

describe('a member of an archived funder', () => {
  it('is refused on every data route even while its session was never ended', async () => {
    const token = await server.login('alex.morgan@lakeside.example', DEMO_PASSWORD);
    const me = await server.call({ method: 'GET', url: routes.autoLogin.path, token });
    const account = me.body.data.user.account_resource_id as string;
    const user = me.body.data.user.resource_id as string;
    const reads = [
      `${routes.searchMerchants.path}?search=451234567`,
      routes.recentNotes.path,
      buildPath(routes.getAccountContribution.path, { id: account }),
      buildPath(routes.getUser.path, { id: user }),
    ];
    for (const url of reads) expect((await server.call({ method: 'GET', url, token })).status, url).toBe(200);

    const { position } = await server.store.appendToStream(
      streams.account(account),
      [
        {
          id: randomUUID(),
          type: 'AccountArchived',
          data: { accountId: account },
          metadata: { source: 'system' },
        },
      ],
      { expectedRevision: 'any' },
    );
    expect(await server.projections.waitFor(position, ['accounts'], 10_000)).toBe(true);
    const live = await server.db.pool.query('select revoked_at from auth_sessions where user_id = $1', [
      user,
    ]);
    expect(live.rows.every((r) => r.revoked_at === null)).toBe(true);

    for (const url of reads) {
      const res = await server.call({ method: 'GET', url, token });
      expect(res.status, url).toBe(401);
      expect(res.body.errors, url).toBe(MESSAGES.sessionEnded);
    }
    const write = await server.call({
      method: 'POST',
      url: routes.addMerchant.path,
      token,
      payload: {
        merchant: { fein: '889000001', legal_name: 'After The Archive LLC', city: 'Tampa', state: 'FL' },
        note: { category: 'Slow Pay', note: 'Should not be written.' },
      },
    });
    expect(write.status).toBe(401);
  });
});
