import { buildPath, routes, streams } from '@mrn/contracts';
import { DEMO_PASSWORD, startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

// Commands that write several streams (EIN or e-mail reservation + its record) must leave nothing behind
// when any part fails, and commands on one busy stream must all land. Failures are injected with a
// trigger on the event table that raises for one event type, i.e. half-way through the command's writes.

let server: TestServer;
let admin: string;
let dana: string;
let danaAccount: string;

beforeAll(async () => {
  server = await startTestServer({ demo: true });
  admin = await server.login(TEST_ADMIN.email, TEST_ADMIN.password);
  const res = await server.call({
    method: 'POST',
    url: routes.login.path,
    payload: { auth: { email: 'dana.whitfield@summitcapital.example', password: DEMO_PASSWORD } },
  });
  dana = res.body.data.jwt;
  danaAccount = res.body.data.user.account_resource_id;
});
afterAll(async () => {
  await server.close();
});
afterEach(async () => {
  await server.db.pool.query('drop trigger if exists fail_on_type on events');
});

/** From now on, any append containing an event of `type` fails inside the database. */
async function failAppendsOf(type: string) {
  await server.db.pool.query(`
    create or replace function fail_on_type() returns trigger language plpgsql as $$
    begin
      if new.type = '${type}' then raise exception 'injected failure on %', new.type; end if;
      return new;
    end $$`);
  await server.db.pool.query(
    'create trigger fail_on_type before insert on events for each row execute function fail_on_type()',
  );
}
const stopFailing = () => server.db.pool.query('drop trigger if exists fail_on_type on events');

const eventCount = async () =>
  Number((await server.db.pool.query('select count(*) as n from events')).rows[0].n);
const streamEvents = async (streamId: string) =>
  (
    await server.db.pool.query('select type from events where stream_id = $1 order by revision', [streamId])
  ).rows.map((r) => r.type as string);

let einSeq = 300_000;
const nextEin = () => {
  einSeq += 1;
  const digits = `66${String(einSeq).padStart(7, '0')}`;
  return { fein: `${digits.slice(0, 2)}-${digits.slice(2)}`, digits };
};
const merchant = (fein: string, legal_name = 'Atomic Bakery LLC') => ({
  fein,
  legal_name,
  city: 'Tampa',
  state: 'FL',
});
const note = (text: string) => ({ category: 'Slow Pay', note: text, submission_source: 'in-house' });
const addMerchant = (fein: string) =>
  server.call({
    method: 'POST',
    url: routes.addMerchant.path,
    token: dana,
    payload: { merchant: merchant(fein), note: note('First report.') },
  });

describe('adding a merchant', () => {
  it('leaves no EIN reservation and no merchant when its note fails to write, and the EIN stays free', async () => {
    const { fein, digits } = nextEin();
    await failAppendsOf('NoteAdded');
    const before = await eventCount();
    const failed = await addMerchant(fein);
    expect(failed.status).toBe(500);
    expect(await eventCount()).toBe(before);
    expect(await streamEvents(streams.ein(digits))).toEqual([]);
    await stopFailing();
    const retried = await addMerchant(fein);
    expect(retried.status).toBe(201);
    expect(await streamEvents(streams.ein(digits))).toEqual(['EinReserved']);
  });
});

describe('changing a merchant EIN', () => {
  it('keeps the old EIN held and the new one free when the merchant update fails', async () => {
    const old = nextEin();
    const next = nextEin();
    const id = (await addMerchant(old.fein)).body.data.resource_id;
    await failAppendsOf('MerchantUpdated');
    const url = buildPath(routes.updateMerchant.path, { id });
    const failed = await server.call({
      method: 'PUT',
      url,
      token: dana,
      payload: { merchant: merchant(next.fein) },
    });
    expect(failed.status).toBe(500);
    expect(await streamEvents(streams.ein(old.digits))).toEqual(['EinReserved']);
    expect(await streamEvents(streams.ein(next.digits))).toEqual([]);
    await stopFailing();
    // The new EIN was never taken: another merchant can have it... after this one moves there and back.
    const moved = await server.call({
      method: 'PUT',
      url,
      token: dana,
      payload: { merchant: merchant(next.fein) },
    });
    expect(moved.status).toBe(200);
    expect(await streamEvents(streams.ein(old.digits))).toEqual(['EinReserved', 'EinReleased']);
    expect(await streamEvents(streams.ein(next.digits))).toEqual(['EinReserved']);
    // The released EIN is free for a new merchant.
    expect((await addMerchant(old.fein)).status).toBe(201);
  });

  it('refuses an EIN another live merchant holds with 409 and writes nothing', async () => {
    const a = nextEin();
    const b = nextEin();
    await addMerchant(a.fein);
    const id = (await addMerchant(b.fein)).body.data.resource_id;
    const before = await eventCount();
    const res = await server.call({
      method: 'PUT',
      url: buildPath(routes.updateMerchant.path, { id }),
      token: dana,
      payload: { merchant: merchant(a.fein) },
    });
    expect(res.status).toBe(409);
    expect(await eventCount()).toBe(before);
  });
});

describe('adding a member', () => {
  const createUser = (email: string) =>
    server.call({
      method: 'POST',
      url: buildPath(routes.createUser.path, { id: danaAccount }),
      token: dana,
      payload: { user: { first_name: 'Ada', last_name: 'Atomic', email } },
    });

  it('leaves the e-mail free when the user record fails to write', async () => {
    const email = 'ada.atomic@summitcapital.example';
    await failAppendsOf('UserRegistered');
    const before = await eventCount();
    expect((await createUser(email)).status).toBe(500);
    expect(await eventCount()).toBe(before);
    expect(await streamEvents(streams.userEmail(email))).toEqual([]);
    await stopFailing();
    expect((await createUser(email)).status).toBe(201);
    expect(await streamEvents(streams.userEmail(email))).toEqual(['EmailReserved']);
  });

  it('gives one e-mail to exactly one of 10 concurrent requests', async () => {
    const email = 'same.time@summitcapital.example';
    const answers = await Promise.all(Array.from({ length: 10 }, () => createUser(email)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    expect(await streamEvents(streams.userEmail(email))).toEqual(['EmailReserved']);
    const registered = await server.db.pool.query(
      `select count(*) as n from events where type = 'UserRegistered' and data->>'email' = $1`,
      [email],
    );
    expect(Number(registered.rows[0].n)).toBe(1);
  });

  it('keeps the old e-mail held and the new one free when an e-mail change fails', async () => {
    const oldEmail = 'change.me@summitcapital.example';
    const newEmail = 'changed@summitcapital.example';
    const id = (await createUser(oldEmail)).body.data.resource_id;
    await failAppendsOf('UserUpdated');
    const url = buildPath(routes.updateUser.path, { id });
    const payload = { user: { first_name: 'Ada', last_name: 'Atomic', email: newEmail } };
    expect((await server.call({ method: 'PUT', url, token: dana, payload })).status).toBe(500);
    expect(await streamEvents(streams.userEmail(oldEmail))).toEqual(['EmailReserved']);
    expect(await streamEvents(streams.userEmail(newEmail))).toEqual([]);
    await stopFailing();
    expect((await server.call({ method: 'PUT', url, token: dana, payload })).status).toBe(200);
    expect(await streamEvents(streams.userEmail(oldEmail))).toEqual(['EmailReserved', 'EmailReleased']);
    expect(await streamEvents(streams.userEmail(newEmail))).toEqual(['EmailReserved']);
  });
});

describe('creating a funder', () => {
  it('answers 400 for a field it refuses on a BASIC funder and creates nothing', async () => {
    const before = await eventCount();
    const res = await server.call({
      method: 'POST',
      url: routes.createAccount.path,
      token: admin,
      payload: {
        account: {
          name: 'Half Written Capital',
          website: 'halfwritten.example',
          primary_contact_email: 'ops@halfwritten.example',
          merchant_subscription_enabled: true,
        },
      },
    });
    expect(res.status).toBe(400);
    expect(await eventCount()).toBe(before);
    const list = await server.call({
      method: 'GET',
      url: `${routes.listAccounts.path}?search=Half%20Written`,
      token: admin,
    });
    expect(list.body.data).toEqual([]);
  });
});

describe('one busy merchant', () => {
  it('lands all of 50 concurrent note adds', async () => {
    const id = (await addMerchant(nextEin().fein)).body.data.resource_id;
    const url = buildPath(routes.addNote.path, { id });
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        server.call({ method: 'POST', url, token: dana, payload: { note: note(`Concurrent note ${i}`) } }),
      ),
    );
    expect(answers.map((a) => a.status).filter((s) => s !== 201)).toEqual([]);
    const noteEvents = (await streamEvents(streams.merchant(id))).filter((t) => t === 'NoteAdded');
    expect(noteEvents).toHaveLength(51);
    const texts = await server.db.pool.query(
      `select data->>'note' as note from events where stream_id = $1 and type = 'NoteAdded'`,
      [streams.merchant(id)],
    );
    expect(new Set(texts.rows.map((r) => r.note)).size).toBe(51);
  });
});
