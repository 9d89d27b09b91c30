import { createHash } from 'node:crypto';
import { routes } from '@mrn/contracts';
import { ManualClock } from '@mrn/platform';
import { DEMO_PASSWORD, startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The direct-upload address of a subscription import is good for one hour (accounts spec §6, as a
// storage service's presigned URL), measured on the server's clock, moved here by hand.

let clock: ManualClock;
let server: TestServer;
let dana = '';
const HOUR = 60 * 60 * 1000;

beforeAll(async () => {
  clock = new ManualClock();
  server = await startTestServer({ demo: true, clock });
  const admin = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
  dana = await server.login('dana.whitfield@summitcapital.example', DEMO_PASSWORD);
  const summit = (await server.call({ method: 'GET', url: routes.autoLogin.path, token: dana })).body.data
    .user.account_resource_id;
  expect(
    (await server.setSubscriptionSettings(admin, summit, { merchant_subscription_enabled: true })).status,
  ).toBe(200);
}, 60_000);
afterAll(async () => {
  await server?.close();
});

const csv = Buffer.from('ein\n12-3456789\n');
async function presign(): Promise<string> {
  const res = await server.call({
    method: 'POST',
    url: routes.createPresignedUrl.path,
    token: dana,
    payload: {
      file: {
        filename: 'watch.csv',
        byte_size: csv.length,
        checksum: createHash('md5').update(csv).digest('base64'),
        content_type: 'text/csv',
      },
    },
  });
  expect(res.status).toBe(200);
  return res.body.direct_upload.url as string;
}
const upload = (url: string) =>
  server.app.inject({ method: 'PUT', url, payload: csv, headers: { 'content-type': 'text/csv' } });

describe('the direct-upload address', () => {
  it('takes the file up to one hour after it was given', async () => {
    const url = await presign();
    clock.advance(HOUR - 1000);
    expect((await upload(url)).statusCode).toBe(204);
  });

  it('is refused a second after the hour, and nothing is stored', async () => {
    const url = await presign();
    clock.advance(HOUR + 1000);
    const res = await upload(url);
    expect(res.statusCode).toBe(404);
    expect(res.json().errors).toBe('This upload address is not valid or has expired.');
    const { rows } = await server.db.pool.query(
      `select count(*)::int as n from direct_uploads where filename = 'watch.csv' and data is not null`,
    );
    expect(rows[0].n).toBe(1);
  });
});
