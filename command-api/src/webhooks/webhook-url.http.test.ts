import { buildPath, routes } from '@mrn/contracts';
import { startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// No server-side request forgery (issue 11): a notification webhook that names or resolves to an
// internal address is refused when it is saved, with a 400 naming the field, and nothing is written.

let server: TestServer;
let admin = '';
let funder = '';
const account = (webhook: string | null) => ({
  account: {
    name: 'Hook Test Capital',
    website: 'hooktest.example',
    primary_contact_email: 'ops@hooktest.example',
    merchant_subscription_notification_webhook: webhook,
  },
});

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
  const created = await server.call({
    method: 'POST',
    url: routes.createAccount.path,
    token: admin,
    payload: account(null),
  });
  funder = created.body.data.resource_id;
});
afterAll(async () => {
  await server?.close();
});

const save = (webhook: string) =>
  server.call({
    method: 'PUT',
    url: buildPath(routes.updateAccount.path, { id: funder }),
    token: admin,
    payload: account(webhook),
  });

describe('the notification webhook address', () => {
  it.each([
    'http://10.0.0.5/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://127.0.0.1:9/hook',
    'http://[::1]/hook',
    'http://localhost:9/hook',
    'http://[::ffff:127.0.0.1]/hook',
    // IPv6 literal forms of internal hosts that the save-time check let through (issue 20, item 12).
    'http://[::169.254.169.254]/',
    'http://[::127.0.0.1]/',
    'http://[::ffff:0:127.0.0.1]/',
  ])('refuses %s with a 400 naming the field, and writes nothing', async (url) => {
    const before = await server.db.pool.query('select count(*) as n from events where stream_id = $1', [
      `account-${funder}`,
    ]);
    const res = await save(url);
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual([
      expect.objectContaining({ field: 'account.merchant_subscription_notification_webhook' }),
    ]);
    const after = await server.db.pool.query('select count(*) as n from events where stream_id = $1', [
      `account-${funder}`,
    ]);
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });

  it('refuses one on a new funder too', async () => {
    const res = await server.call({
      method: 'POST',
      url: routes.createAccount.path,
      token: admin,
      payload: { account: { ...account('http://192.168.1.10/x').account, name: 'Another Hook Co' } },
    });
    expect(res.status).toBe(400);
  });

  it('accepts a public address (checked again on the resolved IP at every delivery)', async () => {
    expect((await save('https://hooks.example.com/mrn')).status).toBe(200);
  });
});
