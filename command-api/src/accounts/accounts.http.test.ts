import { buildPath, MESSAGES, PASSWORD_REUSE_MESSAGE, REMEMBER_DEVICE_HEADER, routes } from '@mrn/contracts';
import { DEMO_PASSWORD, startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let server: TestServer;
let admin: string;
const tokens: Record<string, string> = {};
const accountOf: Record<string, string> = {};
const userOf: Record<string, string> = {};
const DEMO = {
  dana: 'dana.whitfield@summitcapital.example', // Summit admin
  marco: 'marco.reyes@summitcapital.example', // Summit member
  priya: 'priya.natarajan@harboradvance.example', // Harbor admin
};

beforeAll(async () => {
  server = await startTestServer({ demo: true });
  admin = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
  for (const [who, email] of Object.entries(DEMO)) {
    const res = await server.call({
      method: 'POST',
      url: routes.login.path,
      payload: { auth: { email, password: DEMO_PASSWORD } },
    });
    tokens[who] = res.body.data.jwt;
    accountOf[who] = res.body.data.user.account_resource_id;
    userOf[who] = res.body.data.user.resource_id;
  }
});
afterAll(async () => {
  await server.close();
});

const put = (token: string, url: string, payload?: object) =>
  server.call({ method: 'PUT', url, token, ...(payload ? { payload } : {}) });
const mailTo = async (email: string) => {
  const { rows } = await server.db.pool.query(
    'select subject, body_text from dev_mailbox where mail_to = $1 order by received_at desc',
    [email],
  );
  return rows as { subject: string; body_text: string }[];
};
const waitForMail = async (email: string, count = 1) => {
  for (let i = 0; i < 50; i++) {
    const mails = await mailTo(email);
    if (mails.length >= count) return mails;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no mail for ${email}`);
};

describe('funders (platform admin)', () => {
  let funderId: string;
  it('creates a funder, lists and filters it; others are refused', async () => {
    const payload = {
      account: {
        name: 'Granite Capital',
        website: 'granite.example',
        primary_contact_email: 'ops@granite.example',
      },
    };
    expect(
      (await server.call({ method: 'POST', url: routes.createAccount.path, token: tokens.dana!, payload }))
        .status,
    ).toBe(403);
    const created = await server.call({
      method: 'POST',
      url: routes.createAccount.path,
      token: admin,
      payload,
    });
    expect(created.status).toBe(201);
    funderId = created.body.data.resource_id;
    const list = await server.call({
      method: 'GET',
      url: `${routes.listAccounts.path}?search=granite&per_page=5`,
      token: admin,
    });
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).toMatchObject({
      name: 'Granite Capital',
      plan_level: 'BASIC',
      membership_status: 'none',
      can_access_api: false,
    });
    const pro = await server.call({
      method: 'GET',
      url: `${routes.listAccounts.path}?plan_level_filter=PRO`,
      token: admin,
    });
    expect(pro.body.data.map((a: { name: string }) => a.name)).toEqual(['Summit Capital Funding']);
    expect(
      (await server.call({ method: 'GET', url: routes.listAccounts.path, token: tokens.dana! })).status,
    ).toBe(403);
    expect(
      (await server.call({ method: 'GET', url: `${routes.listAccounts.path}?per_page=7`, token: admin }))
        .status,
    ).toBe(400);
  });

  it('answers 400 naming the field for a bad funder, writing nothing', async () => {
    const res = await server.call({
      method: 'POST',
      url: routes.createAccount.path,
      token: admin,
      payload: { account: { name: '', website: 'nope', primary_contact_email: 'x' } },
    });
    expect(res.status).toBe(400);
    expect(res.body.fields.map((f: { field: string }) => f.field).sort()).toEqual([
      'account.name',
      'account.primary_contact_email',
      'account.website',
    ]);
  });

  it('starts and cancels a trial, toggles API access and MFA required', async () => {
    const path = (p: string) => buildPath(p, { id: funderId });
    expect((await put(admin, path(routes.startTrial.path))).status).toBe(200);
    expect((await put(admin, path(routes.startTrial.path))).status).toBe(409);
    expect((await put(admin, path(routes.cancelTrial.path))).status).toBe(200);
    expect((await put(admin, path(routes.grantAccountApiAccess.path))).status).toBe(200);
    expect((await put(admin, path(routes.toggleAccountMfaRequired.path))).status).toBe(200);
    expect((await put(tokens.dana!, path(routes.grantAccountApiAccess.path))).status).toBe(403);
    const account = await server.call({ method: 'GET', url: path(routes.getAccount.path), token: admin });
    expect(account.body.data).toMatchObject({
      membership_status: 'canceled',
      can_access_api: true,
      mfa_required: true,
    });
  });

  it('lets an account admin read and edit only their own account', async () => {
    const own = buildPath(routes.getAccount.path, { id: accountOf.dana! });
    const other = buildPath(routes.getAccount.path, { id: accountOf.priya! });
    expect((await server.call({ method: 'GET', url: own, token: tokens.dana! })).status).toBe(200);
    expect((await server.call({ method: 'GET', url: other, token: tokens.dana! })).status).toBe(404);
    expect((await server.call({ method: 'GET', url: own, token: tokens.marco! })).status).toBe(403);
    const payload = {
      account: {
        name: 'Harbor Hijack',
        website: 'harbor.example',
        primary_contact_email: 'x@harboradvance.example',
      },
    };
    expect(
      (await put(tokens.dana!, buildPath(routes.updateAccount.path, { id: accountOf.priya! }), payload))
        .status,
    ).toBe(404);
  });

  it('exports contacts as CSV with the spec columns and a product-stamped file name', async () => {
    const res = await server.app.inject({
      method: 'GET',
      url: routes.exportContacts.path,
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(/filename="merchant-risk-network-contacts-.*\.csv"/);
    const [header, ...lines] = res.body.trim().split('\n');
    expect(header).toBe('funder,first_name,last_name,email,membership_level');
    expect(lines).toContain('Summit Capital Funding,Dana,Whitfield,dana.whitfield@summitcapital.example,PRO');
  });
});

// Issue 21 item 13: the accounts spec's Account fields api_granted, api_revoked and
// payment_method_update_url, and who gets them.
describe('API access dates and the payment-method update address', () => {
  const FIELDS = ['api_granted', 'api_revoked', 'payment_method_update_url'] as const;

  it('dates the last grant and the last revoke of API access', async () => {
    const created = await server.call({
      method: 'POST',
      url: routes.createAccount.path,
      token: admin,
      payload: {
        account: {
          name: 'Dated Api Funding',
          website: 'datedapi.example',
          primary_contact_email: 'ops@datedapi.example',
        },
      },
    });
    const path = (p: string) => buildPath(p, { id: created.body.data.resource_id });
    const view = async () =>
      (await server.call({ method: 'GET', url: path(routes.getAccount.path), token: admin })).body.data;
    expect(await view()).toMatchObject({ can_access_api: false, api_granted: null, api_revoked: null });
    expect((await put(admin, path(routes.grantAccountApiAccess.path))).status).toBe(200);
    const granted = await view();
    expect(granted.can_access_api).toBe(true);
    expect(Date.parse(granted.api_granted)).toBeGreaterThan(Date.now() - 60_000);
    expect(granted.api_revoked).toBeNull();
    expect((await put(admin, path(routes.revokeAccountApiAccess.path))).status).toBe(200);
    const revoked = await view();
    expect(revoked).toMatchObject({ can_access_api: false, api_granted: granted.api_granted });
    expect(Date.parse(revoked.api_revoked)).toBeGreaterThanOrEqual(Date.parse(granted.api_granted));
    expect((await put(admin, path(routes.grantAccountApiAccess.path))).status).toBe(200);
    const again = await view();
    expect(Date.parse(again.api_granted)).toBeGreaterThanOrEqual(Date.parse(revoked.api_revoked));
    expect(again.api_revoked).toBe(revoked.api_revoked);
  });

  it("gives the account's admins their Billing tab and platform admins the funder's, in the one view and the list", async () => {
    const summit = accountOf.dana!;
    const url = buildPath(routes.getAccount.path, { id: summit });
    const own = await server.call({ method: 'GET', url, token: tokens.dana! });
    expect(own.body.data.payment_method_update_url).toMatch(
      /^http:\/\/localhost(:\d+)?\/account\?tab=billing$/,
    );
    const staff = await server.call({ method: 'GET', url, token: admin });
    expect(staff.body.data.payment_method_update_url).toMatch(
      new RegExp(`^http://localhost(:\\d+)?/funders/${summit}\\?tab=billing$`),
    );
    for (const field of FIELDS) expect(Object.keys(own.body.data)).toContain(field);
    const list = await server.call({
      method: 'GET',
      url: `${routes.listAccounts.path}?search=summit`,
      token: admin,
    });
    expect(list.body.data[0].payment_method_update_url).toBe(staff.body.data.payment_method_update_url);
  });

  it("gives none of them, field by field, to a plain member or to another funder's admin", async () => {
    const url = buildPath(routes.getAccount.path, { id: accountOf.dana! });
    const member = await server.call({ method: 'GET', url, token: tokens.marco! });
    expect(member.status).toBe(403);
    const otherAdmin = await server.call({ method: 'GET', url, token: tokens.priya! });
    expect(otherAdmin.status).toBe(404);
    for (const refused of [member, otherAdmin]) {
      const text = JSON.stringify(refused.body);
      for (const field of FIELDS) expect(text).not.toContain(field);
      expect(text).not.toContain('tab=billing');
      expect(refused.body.data).toBeUndefined();
    }
    // Nor through the list of funders (platform admins only).
    for (const token of [tokens.marco!, tokens.priya!]) {
      const list = await server.call({ method: 'GET', url: routes.listAccounts.path, token });
      expect(list.status).toBe(403);
      expect(JSON.stringify(list.body)).not.toContain('payment_method_update_url');
    }
  });
});

describe('members', () => {
  it('adds a member on the account domain and e-mails an invitation; the domain rule refuses others', async () => {
    const url = buildPath(routes.createUser.path, { id: accountOf.dana! });
    const wrong = await server.call({
      method: 'POST',
      url,
      token: tokens.dana,
      payload: { user: { first_name: 'Eve', last_name: 'Outsider', email: 'eve@gmail.com' } },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toBe('Only email addresses ending in @summitcapital.example are valid.');
    const ok = await server.call({
      method: 'POST',
      url,
      token: tokens.dana,
      payload: { user: { first_name: 'Nina', last_name: 'Park', email: 'nina.park@summitcapital.example' } },
    });
    expect(ok.status).toBe(201);
    const mails = await waitForMail('nina.park@summitcapital.example');
    expect(mails[0]!.body_text).toContain('/password_reset?reset_token=');
    // Platform admins are exempt from the domain rule.
    const exempt = await server.call({
      method: 'POST',
      url,
      token: admin,
      payload: { user: { first_name: 'Ext', last_name: 'Auditor', email: 'auditor@audit.example' } },
    });
    expect(exempt.status).toBe(201);
  });

  it('refuses member management to a plain member and to the admin of another account', async () => {
    const payload = { user: { first_name: 'X', last_name: 'Y', email: 'x.y@harboradvance.example' } };
    expect(
      (
        await server.call({
          method: 'POST',
          url: buildPath(routes.createUser.path, { id: accountOf.priya! }),
          token: tokens.dana,
          payload,
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await server.call({
          method: 'POST',
          url: buildPath(routes.createUser.path, { id: accountOf.dana! }),
          token: tokens.marco,
          payload,
        })
      ).status,
    ).toBe(403);
    expect((await put(tokens.dana!, buildPath(routes.archiveUser.path, { id: userOf.priya! }))).status).toBe(
      404,
    );
    expect(
      (await put(tokens.marco!, buildPath(routes.toggleUserAdmin.path, { id: userOf.dana! }))).status,
    ).toBe(403);
    expect(
      (
        await server.call({
          method: 'GET',
          url: buildPath(routes.listAccountUsers.path, { id: accountOf.priya! }),
          token: tokens.dana,
        })
      ).status,
    ).toBe(404);
  });

  it('archives (ending the sessions) and restores a member, toggles admin', async () => {
    const marcoToken = await server.login(DEMO.marco, DEMO_PASSWORD);
    expect((await put(tokens.dana!, buildPath(routes.archiveUser.path, { id: userOf.marco! }))).status).toBe(
      200,
    );
    expect((await server.call({ method: 'GET', url: routes.autoLogin.path, token: marcoToken })).status).toBe(
      401,
    );
    const lists = await server.call({
      method: 'GET',
      url: buildPath(routes.listAccountUsers.path, { id: accountOf.dana! }),
      token: tokens.dana,
    });
    expect(lists.body.data.archived.map((u: { email: string }) => u.email)).toContain(DEMO.marco);
    expect((await put(tokens.dana!, buildPath(routes.restoreUser.path, { id: userOf.marco! }))).status).toBe(
      200,
    );
    expect(
      (await put(tokens.dana!, buildPath(routes.toggleUserAdmin.path, { id: userOf.marco! }))).status,
    ).toBe(200);
    const marco = await server.call({
      method: 'GET',
      url: buildPath(routes.getUser.path, { id: userOf.marco! }),
      token: tokens.dana,
    });
    expect(marco.body.data).toMatchObject({ is_admin: true, deleted_at: null });
    await put(tokens.dana!, buildPath(routes.toggleUserAdmin.path, { id: userOf.marco! }));
    tokens.marco = await server.login(DEMO.marco, DEMO_PASSWORD);
  });

  it('applies a role given or taken to the live token of the member at once', async () => {
    // Sessions are cached for a moment; a change to users must not wait for that moment to pass.
    const members = buildPath(routes.listAccountUsers.path, { id: accountOf.dana! });
    const asMarco = () => server.call({ method: 'GET', url: members, token: tokens.marco });
    expect((await asMarco()).status).toBe(403);
    await put(tokens.dana!, buildPath(routes.toggleUserAdmin.path, { id: userOf.marco! }));
    expect((await asMarco()).status).toBe(200);
    await put(tokens.dana!, buildPath(routes.toggleUserAdmin.path, { id: userOf.marco! }));
    expect((await asMarco()).status).toBe(403);
  });

  it('grants member API access only after the account has it, showing the key once', async () => {
    const grant = buildPath(routes.grantUserApiAccess.path, { id: userOf.marco! });
    const refused = await put(tokens.dana!, grant);
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toContain('platform administrator');
    await put(admin, buildPath(routes.grantAccountApiAccess.path, { id: accountOf.dana! }));
    const granted = await put(tokens.dana!, grant);
    expect(granted.status).toBe(200);
    expect(granted.body.data.authentication_token).toMatch(/^mrn_/);
    expect(granted.body.data.authentication_key.length).toBeGreaterThan(20);
    const { rows } = await server.db.pool.query(
      `select data from events where type = 'UserApiAccessGranted'`,
    );
    expect(JSON.stringify(rows)).not.toContain(granted.body.data.authentication_key);
    const creds = await server.call({
      method: 'GET',
      url: buildPath(routes.getApiCredentials.path, { id: userOf.marco! }),
      token: tokens.dana,
    });
    expect(creds.body.data).toMatchObject({
      authentication_token: granted.body.data.authentication_token,
      key_hint: '••••••••',
    });
  });
});

describe('passwords', () => {
  it('changes the own password with the old one, refuses reuse of the last five, and revokes other sessions', async () => {
    const email = DEMO.priya;
    const other = await server.login(email, DEMO_PASSWORD);
    const url = buildPath(routes.changePassword.path, { id: userOf.priya! });
    const wrongOld = await put(tokens.priya!, url, {
      old_password: 'nope',
      new_password: 'brand-new-pass-1',
      confirm_password: 'brand-new-pass-1',
    });
    expect(wrongOld.status).toBe(400);
    const mismatch = await put(tokens.priya!, url, {
      old_password: DEMO_PASSWORD,
      new_password: 'brand-new-pass-1',
      confirm_password: 'different',
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.fields).toContainEqual({
      field: 'confirm_password',
      message: 'must match the new password',
    });
    const tooLong = await put(tokens.priya!, url, {
      old_password: DEMO_PASSWORD,
      new_password: 'x'.repeat(65),
      confirm_password: 'x'.repeat(65),
    });
    expect(tooLong.body.fields[0]).toMatchObject({
      field: 'new_password',
      message: 'must be at most 64 characters',
    });
    const ok = await put(tokens.priya!, url, {
      old_password: DEMO_PASSWORD,
      new_password: 'brand-new-pass-1',
      confirm_password: 'brand-new-pass-1',
    });
    expect(ok.status).toBe(200);
    tokens.priya = ok.body.data.jwt;
    expect(
      (await server.call({ method: 'GET', url: routes.autoLogin.path, token: tokens.priya! })).status,
    ).toBe(200);
    expect((await server.call({ method: 'GET', url: routes.autoLogin.path, token: other })).status).toBe(401);
    const reuse = await put(tokens.priya!, url, {
      old_password: 'brand-new-pass-1',
      new_password: DEMO_PASSWORD,
      confirm_password: DEMO_PASSWORD,
    });
    expect(reuse.status).toBe(422);
    expect(reuse.body.errors).toBe(PASSWORD_REUSE_MESSAGE);
  });

  it('resets a forgotten password through the link e-mailed over SMTP; the link works once', async () => {
    const email = DEMO.dana;
    const anon = await server.call({
      method: 'POST',
      url: routes.forgotPassword.path,
      payload: { email: 'nobody@nowhere.example' },
    });
    expect(anon.status).toBe(200);
    expect(
      (await server.call({ method: 'POST', url: routes.forgotPassword.path, payload: { email } })).status,
    ).toBe(200);
    const [mail] = await waitForMail(email);
    const token = decodeURIComponent(/reset_token=([^&\s]+)/.exec(mail!.body_text)![1]!);
    const body = {
      email,
      reset_token: token,
      new_password: 'reset-pass-2026',
      confirm_password: 'reset-pass-2026',
    };
    expect(
      (
        await server.call({
          method: 'POST',
          url: routes.passwordReset.path,
          payload: { ...body, reset_token: 'forged' },
        })
      ).status,
    ).toBe(400);
    expect(
      (await server.call({ method: 'POST', url: routes.passwordReset.path, payload: body })).status,
    ).toBe(200);
    expect(
      (await server.call({ method: 'POST', url: routes.passwordReset.path, payload: body })).status,
    ).toBe(400);
    expect(
      (await server.call({ method: 'GET', url: routes.autoLogin.path, token: tokens.dana! })).status,
    ).toBe(401);
    tokens.dana = await server.login(email, 'reset-pass-2026');
  });

  it('lets an account admin set a member password without the old one', async () => {
    const url = buildPath(routes.adminChangePassword.path, { id: userOf.marco! });
    expect(
      (
        await put(tokens.priya!, url, {
          new_password: 'admin-set-pass-1',
          confirm_password: 'admin-set-pass-1',
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await put(tokens.dana!, url, {
          new_password: 'admin-set-pass-1',
          confirm_password: 'admin-set-pass-1',
        })
      ).status,
    ).toBe(200);
    tokens.marco = await server.login(DEMO.marco, 'admin-set-pass-1');
  });
});

describe('MFA and terms', () => {
  it('routes a user of an MFA account through registration with a real TOTP code, then verification or a remembered device', async () => {
    await put(admin, buildPath(routes.toggleAccountMfaRequired.path, { id: accountOf.dana! }));
    const first = await server.call({
      method: 'POST',
      url: routes.login.path,
      payload: { auth: { email: DEMO.marco, password: 'admin-set-pass-1' } },
    });
    expect(first.body.data.user).toMatchObject({
      mfa_required: true,
      mfa_enabled: false,
      mfa_verified: false,
    });
    const pending = first.body.data.jwt;
    expect(
      (await server.call({ method: 'GET', url: routes.getAppSettings.path, token: pending })).status,
    ).toBe(200);
    expect(
      (
        await server.call({
          method: 'GET',
          url: `${routes.searchMerchants.path}?search=sunrise`,
          token: pending,
        })
      ).status,
    ).toBe(403);

    const otp = await server.call({ method: 'GET', url: routes.otpNew.path, token: pending });
    expect(otp.body.data.otp_url).toMatch(/^otpauth:\/\/totp\//);
    const secret = otp.body.data.otp_secret;
    const short = await server.call({
      method: 'POST',
      url: routes.otpRegister.path,
      token: pending,
      payload: { otp: { otp_secret: secret, code: '123' } },
    });
    expect(short.body.fields[0]).toMatchObject({ field: 'otp.code', message: 'Code must be 6 digits' });
    const registered = await server.call({
      method: 'POST',
      url: routes.otpRegister.path,
      token: pending,
      payload: { otp: { otp_secret: secret, code: await generate({ secret }), remember_device: true } },
    });
    expect(registered.status).toBe(200);
    expect(registered.body.data.user).toMatchObject({ mfa_enabled: true, mfa_verified: true });
    const remember = registered.body.data.remember_token;
    expect(
      (
        await server.call({
          method: 'GET',
          url: `${routes.searchMerchants.path}?search=sunrise`,
          token: registered.body.data.jwt,
        })
      ).status,
    ).toBe(200);

    const again = await server.call({
      method: 'POST',
      url: routes.login.path,
      payload: { auth: { email: DEMO.marco, password: 'admin-set-pass-1' } },
    });
    expect(again.body.data).toMatchObject({ bypass_mfa: false, user: { mfa_verified: false } });
    const wrong = await server.call({
      method: 'POST',
      url: routes.otpVerify.path,
      token: again.body.data.jwt,
      payload: { otp: { code: '000000' } },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.errors).toBe('Failed');
    const verified = await server.call({
      method: 'POST',
      url: routes.otpVerify.path,
      token: again.body.data.jwt,
      payload: { otp: { code: await generate({ secret }) } },
    });
    expect(verified.body.data.user.mfa_verified).toBe(true);

    const bypass = await server.call({
      method: 'POST',
      url: routes.login.path,
      payload: { auth: { email: DEMO.marco, password: 'admin-set-pass-1' } },
      headers: { [REMEMBER_DEVICE_HEADER]: remember },
    });
    expect(bypass.body.data.bypass_mfa).toBe(true);

    const profile = await server.call({
      method: 'GET',
      url: buildPath(routes.getUser.path, { id: userOf.marco! }),
      token: tokens.dana,
    });
    expect(profile.body.data).toMatchObject({
      mfa_enabled: true,
      otp_remember_device: true,
      otp_ip: '127.0.0.1',
    });
    expect((await put(tokens.dana!, buildPath(routes.forgetDevice.path, { id: userOf.marco! }))).status).toBe(
      200,
    );
    const forgotten = await server.call({
      method: 'POST',
      url: routes.login.path,
      payload: { auth: { email: DEMO.marco, password: 'admin-set-pass-1' } },
      headers: { [REMEMBER_DEVICE_HEADER]: remember },
    });
    expect(forgotten.body.data.bypass_mfa).toBe(false);
    const marcoNow = verified.body.data.jwt;
    expect((await put(tokens.dana!, buildPath(routes.resetMfa.path, { id: userOf.marco! }))).status).toBe(
      200,
    );
    expect((await server.call({ method: 'GET', url: routes.autoLogin.path, token: marcoNow })).status).toBe(
      401,
    );
    await put(admin, buildPath(routes.toggleAccountMfaRequired.path, { id: accountOf.dana! }));
  });

  it('refuses the member MFA toggle while the account requires MFA', async () => {
    await put(admin, buildPath(routes.toggleAccountMfaRequired.path, { id: accountOf.priya! }));
    const res = await put(tokens.priya!, buildPath(routes.toggleUserMfaRequired.path, { id: userOf.priya! }));
    expect(res.status).toBe(409);
    await put(admin, buildPath(routes.toggleAccountMfaRequired.path, { id: accountOf.priya! }));
    expect(
      (await put(tokens.priya!, buildPath(routes.toggleUserMfaRequired.path, { id: userOf.priya! }))).status,
    ).toBe(200);
    await put(tokens.priya!, buildPath(routes.toggleUserMfaRequired.path, { id: userOf.priya! }));
  });

  it('records terms agreement for the user themselves only', async () => {
    const ninaToken = async () => {
      const { rows } = await server.db.pool.query(
        `select id from read.users where email = 'nina.park@summitcapital.example'`,
      );
      return rows[0].id as string;
    };
    const nina = await ninaToken();
    expect((await put(tokens.dana!, buildPath(routes.agreeToTerms.path, { id: nina }))).status).toBe(403);
    expect((await put(tokens.dana!, buildPath(routes.agreeToTerms.path, { id: userOf.dana! }))).status).toBe(
      200,
    );
  });
});

describe('disputes (public)', () => {
  it('takes a dispute without login, once per Idempotency-Key, and lists it for platform admins only', async () => {
    const payload = {
      dispute: {
        first_name: 'Sam',
        last_name: 'Owner',
        email: 'sam@sunrisediner.example',
        fein: '45-1234567',
        legal_name: 'Sunrise Diner Inc',
        city: 'Tampa',
        state: 'FL',
        reason: 'The default was settled in 2025.',
      },
    };
    const headers = { 'idempotency-key': 'dispute-form-1' };
    const first = await server.call({ method: 'POST', url: routes.createDispute.path, payload, headers });
    expect(first.status).toBe(201);
    expect(first.body.data.data.resource_id).toBeTruthy();
    const again = await server.call({ method: 'POST', url: routes.createDispute.path, payload, headers });
    expect(again.body.data.data.resource_id).toBe(first.body.data.data.resource_id);
    const bad = await server.call({
      method: 'POST',
      url: routes.createDispute.path,
      payload: { dispute: { ...payload.dispute, reason: '' } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toContainEqual({ field: 'dispute.reason', message: 'is required' });
    const list = await server.call({ method: 'GET', url: routes.listDisputes.path, token: admin });
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).toMatchObject({
      legal_name: 'Sunrise Diner Inc',
      merchant_id: expect.any(String),
    });
    expect(
      (await server.call({ method: 'GET', url: routes.listDisputes.path, token: tokens.dana! })).status,
    ).toBe(403);
  });

  it('shows the development mailbox to platform admins only', async () => {
    expect(
      (await server.call({ method: 'GET', url: routes.listDevMailbox.path, token: admin })).body.data.length,
    ).toBeGreaterThan(0);
    expect(
      (await server.call({ method: 'GET', url: routes.listDevMailbox.path, token: tokens.dana! })).status,
    ).toBe(403);
  });

  it('throttles password reset guessing', async () => {
    let last = 0;
    for (let i = 0; i < 11; i++) {
      last = (
        await server.call({
          method: 'POST',
          url: routes.passwordReset.path,
          payload: {
            email: 'tom.becker@harboradvance.example',
            reset_token: `guess-${i}`,
            new_password: 'whatever-123',
            confirm_password: 'whatever-123',
          },
        })
      ).status;
    }
    expect(last).toBe(429);
    expect(MESSAGES.tooManyAttempts).toBeTruthy();
  });
});
