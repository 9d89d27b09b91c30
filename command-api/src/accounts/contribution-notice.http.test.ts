import { randomUUID } from 'node:crypto';
import { assessAllContributions, contributionMails, MAIL_CHECKPOINT, MailReactor } from '@mrn/command-api';
import { buildPath, routes, streams } from '@mrn/contracts';
import { createLogger, START, systemClock } from '@mrn/platform';
import { DEMO_PASSWORD, startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Contribution every member can see coming (issue 21): every member of a funder reads its contribution
// (another funder's members are answered as for an unknown id), its admins are e-mailed when a warning
// is issued, again three days before it expires, when search locks at its expiry and when the lock is
// lifted (issue 32), and a warned or locked funder whose new records bring the figure back to 0.5 % has
// the warning lifted without anyone pressing Recalculate.

const DAY = 86_400_000;
let server: TestServer;
const tokens: Record<string, string> = {};
let harbor = '';
let summit = '';
let tomUser = '';

const PEOPLE = {
  tom: 'tom.becker@harboradvance.example', // Harbor member
  priya: 'priya.natarajan@harboradvance.example', // Harbor admin
  marco: 'marco.reyes@summitcapital.example', // Summit member
  dana: 'dana.whitfield@summitcapital.example', // Summit admin
};

beforeAll(async () => {
  server = await startTestServer({ demo: true, listen: true });
  tokens.admin = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
  for (const [who, email] of Object.entries(PEOPLE)) {
    const res = await server.call({
      method: 'POST',
      url: routes.login.path,
      payload: { auth: { email, password: DEMO_PASSWORD } },
    });
    tokens[who] = res.body.data.jwt;
    if (who === 'tom') {
      harbor = res.body.data.user.account_resource_id;
      tomUser = res.body.data.user.resource_id;
    }
    if (who === 'dana') summit = res.body.data.user.account_resource_id;
  }
});
afterAll(async () => {
  await server.close();
});

const settle = async () => {
  await server.searches.flush();
  expect(await server.projectedAll(undefined, 10_000)).toBe(true);
};
const contribution = (who: string, id = harbor) =>
  server.call({
    method: 'GET',
    url: buildPath(routes.getAccountContribution.path, { id }),
    token: tokens[who],
  });
const mailTo = async (email: string) => {
  const { rows } = await server.db.pool.query(
    'select subject, body_text from dev_mailbox where mail_to = $1 order by received_at',
    [email],
  );
  return rows as { subject: string; body_text: string }[];
};
const waitForMail = async (email: string, count = 1) => {
  for (let i = 0; i < 200; i++) {
    const mails = await mailTo(email);
    if (mails.length >= count) return mails;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no mail for ${email}`);
};
const eventsOf = async (accountId: string, type: string) =>
  (
    await server.db.pool.query('select data, metadata from events where stream_id = $1 and type = $2', [
      streams.account(accountId),
      type,
    ])
  ).rows as { data: Record<string, unknown>; metadata: Record<string, unknown> }[];
/** As the e-mail writes a deadline: "November 15, 2026". */
const longDate = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', {
    timeZone: 'UTC',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
  });

/** `n` EIN searches by the funder, each finding a different merchant: n more distinct merchants searched. */
async function searchDistinctMerchants(n: number, accountId = harbor) {
  await server.recordSearches(
    Array.from({ length: n }, () => ({
      accountId,
      userId: tomUser,
      source: 'web',
      term: '123456789',
      einSearch: true,
      merchantIds: [randomUUID()],
      hit: true,
    })),
  );
  await settle();
}

/** Polls until `check` holds, at most 15 s: the lift runs in the background after the add's answer. */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  const until = Date.now() + 15_000;
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() > until) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

let merchantNo = 0;
const addMerchant = (who: string) =>
  server.call({
    method: 'POST',
    url: routes.addMerchant.path,
    token: tokens[who],
    payload: {
      merchant: {
        fein: `8${String(merchantNo++).padStart(8, '0')}`,
        legal_name: `Contributor ${merchantNo} LLC`,
        city: 'Tampa',
        state: 'FL',
      },
      note: { category: 'Slow Pay', note: 'Paid late twice.', submission_source: 'in-house' },
    },
  });

describe('the contribution view for every member', () => {
  it("answers every member of the funder with the contribution alone; another funder's members and admins get 404 as for an unknown id", async () => {
    await settle();
    const own = await contribution('tom');
    expect(own.status).toBe(200);
    expect(own.body.data).toMatchObject({
      account_id: harbor,
      account_name: 'Harbor Business Advance',
      total_ninety_days_contribution_percentage: 100,
      contribution_warning_date: null,
      search_locked: false,
    });
    // Nothing of the account beyond its contribution: no contacts, settings, secrets or billing.
    expect(Object.keys(own.body.data).sort()).toEqual(
      [
        'account_id',
        'account_name',
        'contribution_locked',
        'contribution_merchants_searched',
        'contribution_override',
        'contribution_records_added',
        'contribution_records_needed',
        'contribution_warning_date',
        'contribution_warning_expire_date',
        'search_locked',
        'total_month_contribution_percentage',
        'total_ninety_days_contribution_percentage',
        'total_two_week_contribution_percentage',
        'total_week_contribution_percentage',
      ].sort(),
    );
    // The full account stays the admins'.
    expect(
      (
        await server.call({
          method: 'GET',
          url: buildPath(routes.getAccount.path, { id: harbor }),
          token: tokens.tom,
        })
      ).status,
    ).toBe(403);

    const unknown = await contribution('marco', '00000000-0000-4000-8000-0000000000ff');
    expect(unknown.status).toBe(404);
    for (const who of ['marco', 'dana']) {
      const refused = await contribution(who);
      expect(refused.status).toBe(404);
      expect(refused.body.errors).toBe(unknown.body.errors);
    }
    expect((await contribution('dana', summit)).status).toBe(200);
    expect((await contribution('admin')).status).toBe(200);
    expect(
      (
        await server.call({
          method: 'GET',
          url: buildPath(routes.getAccountContribution.path, { id: harbor }),
        })
      ).status,
    ).toBe(401);
  });
});

describe('contribution e-mails', () => {
  it("e-mails the funder's admins when a warning is issued: the figure, the deadline, what happens then, what avoids it and the link", async () => {
    const before = (await contribution('tom')).body.data;
    // 100 × added ÷ (203 × added) = 0.49 %.
    await searchDistinctMerchants(
      203 * before.contribution_records_added - before.contribution_merchants_searched,
    );
    const recalculated = await server.call({
      method: 'PUT',
      url: buildPath(routes.recalculateContribution.path, { id: harbor }),
      token: tokens.priya,
    });
    expect(recalculated.status).toBe(200);
    await settle();
    const view = (await contribution('tom')).body.data;
    expect(view.total_ninety_days_contribution_percentage).toBe(0.49);
    expect(view.contribution_warning_date).not.toBeNull();
    expect(
      Date.parse(view.contribution_warning_expire_date) - Date.parse(view.contribution_warning_date),
    ).toBe(14 * DAY);
    expect(view.search_locked).toBe(false);
    expect(view.contribution_records_needed).toBeGreaterThan(0);

    const [mail] = await waitForMail(PEOPLE.priya);
    const deadline = longDate(view.contribution_warning_expire_date);
    expect(mail!.subject).toBe(
      `Contribution warning for Harbor Business Advance: search locks on ${deadline} unless it is back at 0.5%`,
    );
    expect(mail!.body_text).toContain('The 90-day contribution of Harbor Business Advance is 0.49%');
    expect(mail!.body_text).toMatch(
      new RegExp(`The warning expires on \\w+, ${deadline} at \\d\\d:\\d\\d UTC`),
    );
    expect(mail!.body_text).toContain('locked out of merchant search until the contribution is back at 0.5%');
    const needed = view.contribution_records_needed;
    expect(mail!.body_text).toContain(
      needed === 1 ? 'adding 1 more merchant or note' : `adding ${needed} more merchants or notes`,
    );
    expect(mail!.body_text).toContain(`${server.url}/contribution`);
    // Members who are not admins are told on every page instead.
    expect(await mailTo(PEOPLE.tom)).toEqual([]);
  });

  it('reminds them once when the warning expires within 3 days', async () => {
    const view = (await contribution('tom')).body.data;
    const expiry = Date.parse(view.contribution_warning_expire_date);
    const assess = (at: number) =>
      assessAllContributions(
        { pool: server.db.pool, store: server.store, logger: createLogger('silent') },
        new Date(at),
      );
    // Just outside the 3 days: nothing.
    await assess(expiry - 3 * DAY - 1000);
    expect(await eventsOf(harbor, 'AccountContributionWarningReminded')).toEqual([]);
    // Exactly 3 days before: the reminder, once however often the assessment runs.
    await assess(expiry - 3 * DAY);
    await assess(expiry - 2 * DAY);
    const reminded = await eventsOf(harbor, 'AccountContributionWarningReminded');
    expect(reminded.map((e) => e.data)).toEqual([
      {
        accountId: harbor,
        percent: 0.49,
        issuedAt: view.contribution_warning_date,
        expiresAt: view.contribution_warning_expire_date,
      },
    ]);
    const mails = await waitForMail(PEOPLE.priya, 2);
    expect(mails[1]!.subject).toBe(
      `Reminder: Harbor Business Advance's search locks on ${longDate(view.contribution_warning_expire_date)} unless contribution is back at 0.5%`,
    );
    expect(mails[1]!.body_text).toContain('expires in less than 3 days');
    expect(mails[1]!.body_text).toContain(`${server.url}/contribution`);
    await new Promise((r) => setTimeout(r, 300));
    expect(await mailTo(PEOPLE.priya)).toHaveLength(2);
  });
});

describe('the warning lifts by itself', () => {
  it("lifts a warned funder's warning once its own new records bring the figure back to 0.5 %, without Recalculate", async () => {
    let view = (await contribution('tom')).body.data;
    expect(view.contribution_warning_date).not.toBeNull();
    const restoredBefore = (await eventsOf(harbor, 'AccountContributionRestored')).length;
    // Records until the minimum is reached (a merchant with its first note is two).
    while (view.contribution_records_needed > 0) {
      const added = await addMerchant('tom');
      expect(added.status).toBe(201);
      view = (await contribution('tom')).body.data;
    }
    expect(view.total_ninety_days_contribution_percentage).toBeGreaterThanOrEqual(0.5);
    view = await eventually(
      async () => (await contribution('tom')).body.data,
      (v) => v.contribution_warning_date === null,
    );
    expect(view.contribution_warning_date).toBeNull();
    expect(view.contribution_warning_expire_date).toBeNull();
    expect(view.contribution_locked).toBe(false);
    const restored = await eventsOf(harbor, 'AccountContributionRestored');
    expect(restored).toHaveLength(restoredBefore + 1);
    expect(restored.at(-1)!.metadata.source).toBe('system');
  });

  it("lifts a locked funder's lock the same way (a note added brings it back)", async () => {
    // Summit: warned 15 days ago, locked at the expiry, and still below the minimum.
    const before = (await contribution('dana', summit)).body.data;
    await searchDistinctMerchants(
      203 * before.contribution_records_added - before.contribution_merchants_searched,
      summit,
    );
    await server.store.appendToStream(
      streams.account(summit),
      [
        {
          id: randomUUID(),
          type: 'AccountContributionWarningIssued',
          data: {
            accountId: summit,
            percent: 0.49,
            issuedAt: new Date(Date.now() - 15 * DAY).toISOString(),
            expiresAt: new Date(Date.now() - DAY).toISOString(),
          },
          metadata: { source: 'system' },
        },
        {
          id: randomUUID(),
          type: 'AccountContributionLocked',
          data: { accountId: summit, percent: 0.49 },
          metadata: { source: 'system' },
        },
      ],
      { expectedRevision: 'any' },
    );
    await settle();
    let view = (await contribution('marco', summit)).body.data;
    expect(view.contribution_locked).toBe(true);
    expect(view.search_locked).toBe(true);
    // A warning that had expired before it was read is not news: no e-mail about it. The lock is.
    const [locked] = await waitForMail(PEOPLE.dana);
    expect(locked!.subject).toBe(
      'Search is locked for Summit Capital Funding: contribution 0.49% is below the 0.5% minimum',
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(await mailTo(PEOPLE.dana)).toHaveLength(1);

    const merchant = await addMerchant('marco');
    expect(merchant.status).toBe(201);
    view = (await contribution('marco', summit)).body.data;
    while (view.contribution_records_needed > 0) {
      const note = await server.call({
        method: 'POST',
        url: buildPath(routes.addNote.path, { id: merchant.body.data.resource_id }),
        token: tokens.marco,
        payload: { note: { category: 'Slow Pay', note: 'Late again.', submission_source: 'in-house' } },
      });
      expect(note.status).toBe(201);
      view = (await contribution('marco', summit)).body.data;
    }
    view = await eventually(
      async () => (await contribution('marco', summit)).body.data,
      (v) => !v.contribution_locked,
    );
    expect(view).toMatchObject({
      contribution_locked: false,
      contribution_warning_date: null,
      search_locked: false,
    });
    // Its admin hears that search is open again; its member is told on every page.
    const mails = await waitForMail(PEOPLE.dana, 2);
    expect(mails[1]!.subject).toBe(
      'Search is open again for Summit Capital Funding: contribution is back at 0.5%',
    );
    expect(mails[1]!.body_text).toContain('at or above the 0.5% minimum, so the contribution lock is lifted');
    expect(await mailTo(PEOPLE.marco)).toEqual([]);
  });
});

describe('search locks at the expiry (issue 32)', () => {
  const lockRows = async () =>
    (
      await server.db.pool.query(
        `select mail_to from mail_outbox where kind = 'contribution-locked' and mail_key like $1 order by mail_to`,
        [`contribution-locked:${harbor}:%`],
      )
    ).rows.map((r) => r.mail_to as string);
  const longDay = (iso: string) =>
    new Date(iso).toLocaleDateString('en-US', {
      timeZone: 'UTC',
      weekday: 'long',
      year: 'numeric',
      month: 'long',
      day: 'numeric',
    });

  it("e-mails the funder's admins once that search is locked, why (the figure against the minimum) and how to unlock it, however often the log is read", async () => {
    // A second admin: the lock is mailed to every admin, as the warning is.
    const nina = 'nina.okafor@harboradvance.example';
    const created = await server.call({
      method: 'POST',
      url: buildPath(routes.createUser.path, { id: harbor }),
      token: tokens.priya,
      payload: { user: { first_name: 'Nina', last_name: 'Okafor', email: nina } },
    });
    expect(created.status).toBeLessThan(300);
    const members = await server.call({
      method: 'GET',
      url: buildPath(routes.listAccountUsers.path, { id: harbor }),
      token: tokens.priya,
    });
    const ninaId = members.body.data.members.find((u: { email: string }) => u.email === nina).resource_id;
    const promoted = await server.call({
      method: 'PUT',
      url: buildPath(routes.toggleUserAdmin.path, { id: ninaId }),
      token: tokens.priya,
    });
    expect(promoted.status).toBe(200);

    // Below the minimum again: a new warning, then the assessment after its expiry locks search.
    let view = (await contribution('tom')).body.data;
    await searchDistinctMerchants(
      203 * view.contribution_records_added - view.contribution_merchants_searched,
    );
    const priyaBefore = (await mailTo(PEOPLE.priya)).length;
    const recalculated = await server.call({
      method: 'PUT',
      url: buildPath(routes.recalculateContribution.path, { id: harbor }),
      token: tokens.priya,
    });
    expect(recalculated.status).toBe(200);
    await settle();
    view = (await contribution('tom')).body.data;
    expect(view.contribution_warning_date).not.toBeNull();
    await waitForMail(PEOPLE.priya, priyaBefore + 1);
    const expiry = Date.parse(view.contribution_warning_expire_date);
    const assess = (at: number) =>
      assessAllContributions(
        { pool: server.db.pool, store: server.store, logger: createLogger('silent') },
        new Date(at),
      );
    await assess(expiry + 1000);
    await assess(expiry + 2000); // locked already: nothing more
    expect(await eventsOf(harbor, 'AccountContributionLocked')).toHaveLength(1);
    await settle();
    view = (await contribution('tom')).body.data;
    expect(view.contribution_locked).toBe(true);

    const priya = await waitForMail(PEOPLE.priya, priyaBefore + 2);
    const lock = priya.at(-1)!;
    const figure = `${view.total_ninety_days_contribution_percentage}%`;
    expect(lock.subject).toBe(
      `Search is locked for Harbor Business Advance: contribution ${figure} is below the 0.5% minimum`,
    );
    expect(lock.body_text).toContain('Hello Priya,');
    expect(lock.body_text).toContain(
      `The 90-day contribution of Harbor Business Advance is ${figure}, below the 0.5% minimum needed to search`,
    );
    expect(lock.body_text).toContain(
      `The contribution warning issued on ${longDay(view.contribution_warning_date)} at`,
    );
    expect(lock.body_text).toContain(`expired on ${longDay(view.contribution_warning_expire_date)} at`);
    expect(lock.body_text).toContain(
      'Every member of Harbor Business Advance is now locked out of merchant search',
    );
    const needed = view.contribution_records_needed;
    expect(needed).toBeGreaterThan(0);
    expect(lock.body_text).toContain(
      `How to unlock: add ${needed === 1 ? '1 more merchant or note' : `${needed} more merchants or notes`}`,
    );
    expect(lock.body_text).toContain('The lock is lifted by itself as soon as the figure is back');
    expect(lock.body_text).toContain(
      `${view.contribution_records_added.toLocaleString('en-US')} merchants and notes added for ${view.contribution_merchants_searched.toLocaleString('en-US')} distinct merchants searched`,
    );
    expect(lock.body_text).toContain(`${server.url}/contribution`);
    // Nina (besides her invitation) has the warning and the lock, as Priya has.
    const ninaMails = async () =>
      (await mailTo(nina)).filter((m) => /^(Contribution warning|Search is locked)/.test(m.subject));
    const ninaContribution = await eventually(ninaMails, (mails) => mails.length >= 2);
    expect(ninaContribution.map((m) => m.subject)).toEqual([priya.at(-2)!.subject, lock.subject]);
    expect(ninaContribution[1]!.body_text).toContain('Hello Nina,');
    // Its admins, as for the warning: not its member, not another funder's people.
    const { rows: recipients } = await server.db.pool.query(
      'select email from read.account_mail_recipients where account_id = $1 order by email',
      [harbor],
    );
    expect(recipients.map((r) => r.email)).toEqual([nina, PEOPLE.priya].sort());
    expect(await lockRows()).toEqual([nina, PEOPLE.priya].sort());
    expect(await mailTo(PEOPLE.tom)).toEqual([]);
    expect((await mailTo(PEOPLE.dana)).map((m) => m.subject)).not.toContain(lock.subject);

    // The whole log read again (the mail reactor's checkpoint moved back to its start): nothing new.
    await server.db.pool.query('update subscription_checkpoints set position = $1 where name = $2', [
      START,
      MAIL_CHECKPOINT,
    ]);
    const again = new MailReactor(
      {
        pool: server.db.pool,
        store: server.store,
        mailer: { send: async () => undefined, close: () => undefined },
        logger: createLogger('silent'),
      },
      [
        contributionMails({
          pool: server.db.pool,
          store: server.store,
          clock: systemClock,
          productName: 'Merchant Risk Network',
          publicUrl: () => server.url,
        }),
      ],
    );
    expect((await again.runOnce()).enqueued).toBe(0);
    await new Promise((r) => setTimeout(r, 300));
    expect(await lockRows()).toEqual([nina, PEOPLE.priya].sort());
    expect(await mailTo(PEOPLE.priya)).toHaveLength(priyaBefore + 2);
    expect(await ninaMails()).toHaveLength(2);
  });
});
