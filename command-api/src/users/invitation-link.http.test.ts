import { buildPath, INVITATION_LINK_PARAM, routes } from '@mrn/contracts';
import { DEMO_PASSWORD, startTestServer, type TestServer } from '@mrn/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Issue 21 item 12: the link a new member is mailed says it is an invitation, so the page it opens is
// titled "Set your password"; a password reset's link does not.

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ demo: true });
});
afterAll(async () => {
  await server?.close();
});

/** The address in the latest mail to `email` (mail goes out in the background, after the answer). */
async function mailedLink(email: string): Promise<URL> {
  for (let i = 0; i < 100; i++) {
    const { rows } = await server.db.pool.query(
      'select body_text from dev_mailbox where mail_to = $1 order by received_at desc limit 1',
      [email],
    );
    const link = rows[0] && /https?:\/\/\S+\/password_reset\?\S+/.exec(rows[0].body_text);
    if (link) return new URL(link[0]);
    await new Promise((r) => setTimeout(r, 30));
  }
  throw new Error(`no link mailed to ${email}`);
}

describe('the links of invitation and reset e-mails', () => {
  it('marks an invitation link as one, and the link sets the new member’s password', async () => {
    const priya = await server.login('priya.natarajan@harboradvance.example', DEMO_PASSWORD);
    const me = await server.call({ method: 'GET', url: routes.autoLogin.path, token: priya });
    const email = 'nia.newcomer@harboradvance.example';
    const created = await server.call({
      method: 'POST',
      url: buildPath(routes.createUser.path, { id: me.body.data.user.account_resource_id }),
      token: priya,
      payload: { user: { first_name: 'Nia', last_name: 'Newcomer', email } },
    });
    expect(created.status).toBe(201);
    const link = await mailedLink(email);
    expect(link.pathname).toBe('/password_reset');
    expect(link.searchParams.get(INVITATION_LINK_PARAM)).toBe('1');
    expect(link.searchParams.get('email')).toBe(email);
    const set = await server.call({
      method: 'POST',
      url: routes.passwordReset.path,
      payload: {
        email,
        reset_token: link.searchParams.get('reset_token'),
        new_password: 'Newcomer-pass-2026',
        confirm_password: 'Newcomer-pass-2026',
      },
    });
    expect(set.status).toBe(200);
    expect((await server.login(email, 'Newcomer-pass-2026')).length).toBeGreaterThan(0);
  });

  it('leaves a password reset link unmarked', async () => {
    const email = 'tom.becker@harboradvance.example';
    const asked = await server.call({ method: 'POST', url: routes.forgotPassword.path, payload: { email } });
    expect(asked.status).toBe(200);
    const link = await mailedLink(email);
    expect(link.searchParams.get('reset_token')).toBeTruthy();
    expect(link.searchParams.has(INVITATION_LINK_PARAM)).toBe(false);
  });
});
