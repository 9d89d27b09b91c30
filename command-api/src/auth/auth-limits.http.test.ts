import { buildPath, MESSAGES, REMEMBER_DEVICE_HEADER, routes } from '@mrn/contracts';
import { ManualClock } from '@mrn/platform';
import { startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Sign-in limits at their spec values and boundaries (core spec §5, accounts spec §5, DESIGN §5), with
// the server's clock moved by hand, and under concurrent requests. The numbers are written out here on
// purpose: a changed constant must fail these tests.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

let server: TestServer;
let clock: ManualClock;
let admin: string;
let accountId: string;
let seq = 0;

beforeAll(async () => {
  clock = new ManualClock();
  server = await startTestServer({ clock });
  admin = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
  const account = await server.call({
    method: 'POST',
    url: routes.createAccount.path,
    token: admin,
    payload: {
      account: {
        name: 'Limits Funding',
        website: 'limits.example',
        primary_contact_email: 'ops@limits.example',
      },
    },
  });
  accountId = account.body.data.resource_id;
});
afterAll(async () => {
  await server.close();
});

/** The authenticator app's code at the server's (moved) time. */
const codeFor = (secret: string) => generate({ secret, epoch: Math.floor(clock.now().getTime() / 1000) });

type Answer = Awaited<ReturnType<TestServer['call']>>;
const statuses = (answers: Answer[]) => {
  const n: Record<number, number> = {};
  for (const a of answers) n[a.status] = (n[a.status] ?? 0) + 1;
  return n;
};

const login = (email: string, password: string, ip = '10.0.0.1', headers: Record<string, string> = {}) =>
  server.call({
    method: 'POST',
    url: routes.login.path,
    payload: { auth: { email, password } },
    remoteAddress: ip,
    headers,
  });

const latestLink = async (email: string) => {
  for (let i = 0; i < 100; i++) {
    const { rows } = await server.db.pool.query(
      'select body_text from dev_mailbox where mail_to = $1 order by received_at desc limit 1',
      [email],
    );
    const match = rows[0] && /reset_token=([^&\s]+)/.exec(rows[0].body_text);
    if (match) return decodeURIComponent(match[1]!);
    await new Promise((r) => setTimeout(r, 30));
  }
  throw new Error(`no link mailed to ${email}`);
};
const mailCount = async (email: string) =>
  Number(
    (await server.db.pool.query('select count(*) as n from dev_mailbox where mail_to = $1', [email])).rows[0]
      .n,
  );

/** forgot_password, then the link of the mail it sends (in the background, after the answer). */
async function requestResetLink(email: string): Promise<string> {
  const before = await mailCount(email);
  await server.call({ method: 'POST', url: routes.forgotPassword.path, payload: { email } });
  for (let i = 0; i < 100 && (await mailCount(email)) === before; i++)
    await new Promise((r) => setTimeout(r, 30));
  return latestLink(email);
}

const resetWith = (email: string, token: string, password: string, ip = '10.0.0.9') =>
  server.call({
    method: 'POST',
    url: routes.passwordReset.path,
    payload: { email, reset_token: token, new_password: password, confirm_password: password },
    remoteAddress: ip,
  });

/** A new member of the test funder, invited by a platform admin; the invitation link is returned unused. */
async function invite(): Promise<{ email: string; userId: string; link: string }> {
  seq += 1;
  const email = `member${seq}@limits.example`;
  const res = await server.call({
    method: 'POST',
    url: buildPath(routes.createUser.path, { id: accountId }),
    token: admin,
    payload: { user: { first_name: 'Lim', last_name: `Its${seq}`, email } },
  });
  expect(res.status).toBe(201);
  return { email, userId: res.body.data.resource_id, link: await latestLink(email) };
}

async function member(password = 'Limits-pass-0000') {
  const m = await invite();
  expect((await resetWith(m.email, m.link, password)).status).toBe(200);
  return { ...m, password };
}

describe('wrong passwords', () => {
  it('lock one e-mail from one address after 5 in 15 minutes, never its owner elsewhere', async () => {
    const ann = await member();
    for (let i = 0; i < 5; i++) expect((await login(ann.email, `wrong-${i}`, '10.1.1.1')).status).toBe(401);
    const sixth = await login(ann.email, ann.password, '10.1.1.1');
    expect(sixth.status).toBe(429);
    expect(sixth.body.errors).toBe(MESSAGES.tooManyAttempts);
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(14 * 60);
    // Ann from her usual place is not locked out by someone guessing elsewhere.
    expect((await login(ann.email, ann.password, '10.2.2.2')).status).toBe(200);
    clock.advance(15 * MINUTE - 1000);
    expect((await login(ann.email, ann.password, '10.1.1.1')).status).toBe(429);
    clock.advance(2000);
    expect((await login(ann.email, ann.password, '10.1.1.1')).status).toBe(200);
  });

  it('forgives the failures of a window once the right password is given', async () => {
    const bob = await member();
    for (let i = 0; i < 4; i++) await login(bob.email, `wrong-${i}`, '10.3.3.3');
    expect((await login(bob.email, bob.password, '10.3.3.3')).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await login(bob.email, `again-${i}`, '10.3.3.3')).status).toBe(401);
    expect((await login(bob.email, bob.password, '10.3.3.3')).status).toBe(429);
  });

  it('lock an address after 20 across e-mails', async () => {
    const carl = await member();
    for (let i = 0; i < 20; i++) {
      expect((await login(`spray-${i}@example.com`, 'guess', '10.4.4.4')).status).toBe(401);
    }
    expect((await login(carl.email, carl.password, '10.4.4.4')).status).toBe(429);
    expect((await login(carl.email, carl.password, '10.4.4.5')).status).toBe(200);
  });

  it('lock an e-mail after 100 from many addresses (spread-out guessing)', async () => {
    const dora = await member();
    for (let i = 0; i < 100; i++) {
      expect((await login(dora.email, `wrong-${i}`, `10.5.${Math.floor(i / 4)}.${i % 4}`)).status).toBe(401);
    }
    expect((await login(dora.email, dora.password, '10.6.6.6')).status).toBe(429);
    clock.advance(15 * MINUTE + 1000);
    expect((await login(dora.email, dora.password, '10.6.6.6')).status).toBe(200);
  });

  it('sent at once: exactly 5 of 60 are judged, and the right password after them is refused', async () => {
    const eve = await member();
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => login(eve.email, `burst-${i}`, '10.7.7.7')),
    );
    expect(statuses(answers)).toEqual({ 401: 5, 429: 55 });
    expect((await login(eve.email, eve.password, '10.7.7.7')).status).toBe(429);
  });
});

describe('MFA codes', () => {
  async function pendingMfa() {
    const m = await member();
    await server.call({
      method: 'PUT',
      url: buildPath(routes.toggleUserMfaRequired.path, { id: m.userId }),
      token: admin,
    });
    const signedIn = await login(m.email, m.password, '10.8.8.8');
    const pending = signedIn.body.data.jwt as string;
    const otp = await server.call({ method: 'GET', url: routes.otpNew.path, token: pending });
    return { ...m, pending, secret: otp.body.data.otp_secret as string };
  }
  const wrongCode = async (secret: string) =>
    String((Number(await codeFor(secret)) + 500_000) % 1_000_000).padStart(6, '0');

  it('sent at once: exactly 5 of 40 wrong codes are judged', async () => {
    const m = await pendingMfa();
    const code = await wrongCode(m.secret);
    const answers = await Promise.all(
      Array.from({ length: 40 }, () =>
        server.call({
          method: 'POST',
          url: routes.otpRegister.path,
          token: m.pending,
          payload: { otp: { otp_secret: m.secret, code } },
          remoteAddress: '10.9.9.9',
        }),
      ),
    );
    expect(statuses(answers)).toEqual({ 401: 5, 429: 35 });
  });

  it('a remembered device skips the code for 30 days, not a minute longer', async () => {
    const m = await pendingMfa();
    const registered = await server.call({
      method: 'POST',
      url: routes.otpRegister.path,
      token: m.pending,
      payload: {
        otp: { otp_secret: m.secret, code: await codeFor(m.secret), remember_device: true },
      },
    });
    expect(registered.status).toBe(200);
    const device = { [REMEMBER_DEVICE_HEADER]: registered.body.data.remember_token as string };
    const start = clock.now().getTime();
    clock.set(new Date(start + 30 * DAY - HOUR));
    const inside = await login(m.email, m.password, '10.8.8.8', device);
    expect(inside.body.data.user.mfa_verified).toBe(true);
    clock.set(new Date(start + 30 * DAY + MINUTE));
    const after = await login(m.email, m.password, '10.8.8.8', device);
    expect(after.status, JSON.stringify(after.body)).toBe(200);
    expect(after.body.data.user.mfa_verified).toBe(false);
  });
});

describe('password reset links', () => {
  it('work once when 8 are sent at once: one 200, seven 400, one password change', async () => {
    const m = await member();
    const token = await requestResetLink(m.email);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => resetWith(m.email, token, `Parallel-pass-${i}`, `10.10.0.${i}`)),
    );
    expect(statuses(answers)).toEqual({ 200: 1, 400: 7 });
    for (const refused of answers.filter((a) => a.status === 400)) {
      expect(refused.body.errors).toBe(
        'This password reset link is invalid or has expired. Please request a new one.',
      );
    }
    const changes = await server.db.pool.query(
      `select count(*) as n from events where stream_id = $1 and type = 'UserPasswordChanged'`,
      [`user-${m.userId}`],
    );
    expect(Number(changes.rows[0].n)).toBe(2); // the invitation's, and exactly one of the eight
  });

  it('are valid for 1 hour', async () => {
    const m = await member();
    const ask = () => requestResetLink(m.email);
    const first = await ask();
    clock.advance(HOUR - 1000);
    expect((await resetWith(m.email, first, 'Within-the-hour-1')).status).toBe(200);
    const second = await ask();
    clock.advance(HOUR + 1000);
    const late = await resetWith(m.email, second, 'After-the-hour-1');
    expect(late.status).toBe(400);
    expect((await login(m.email, 'Within-the-hour-1', '10.11.0.1')).status).toBe(200);
  });

  it('for a new member are valid for 7 days', async () => {
    const early = await invite();
    clock.advance(7 * DAY - MINUTE);
    expect((await resetWith(early.email, early.link, 'Seven-days-ok-1')).status).toBe(200);
    const late = await invite();
    clock.advance(7 * DAY + MINUTE);
    expect((await resetWith(late.email, late.link, 'Seven-days-late-1')).status).toBe(400);
  });

  it('forgot_password answers as fast for a member as for an unknown address, and the mail still comes', async () => {
    const m = await member();
    const time = async (email: string) => {
      const started = performance.now();
      const res = await server.call({
        method: 'POST',
        url: routes.forgotPassword.path,
        payload: { email },
        remoteAddress: `10.12.${seq}.1`,
      });
      expect(res.status).toBe(200);
      return performance.now() - started;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 5; i++) {
      known.push(await time(m.email));
      unknown.push(await time(`nobody-${i}@nowhere.example`));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[2]!;
    expect(Math.abs(median(known) - median(unknown))).toBeLessThan(30);
    for (let i = 0; i < 100 && (await mailCount(m.email)) < 6; i++)
      await new Promise((r) => setTimeout(r, 30));
    expect(await mailCount(m.email)).toBe(6); // the invitation and five reset mails
  });
});

describe('remembered passwords', () => {
  it('refuse the last 5 and accept the 6th-last again', async () => {
    const m = await member('History-pass-0');
    const setPassword = (password: string) =>
      server.call({
        method: 'PUT',
        url: buildPath(routes.adminChangePassword.path, { id: m.userId }),
        token: admin,
        payload: { new_password: password, confirm_password: password },
      });
    for (let i = 1; i <= 5; i++) expect((await setPassword(`History-pass-${i}`)).status).toBe(200);
    // History now: 5, 4, 3, 2, 1 (newest first); 0 is the 6th-last.
    const fifthLast = await setPassword('History-pass-1');
    expect(fifthLast.status).toBe(422);
    expect((await setPassword('History-pass-0')).status).toBe(200);
  });
});
