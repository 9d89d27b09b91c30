import { randomUUID } from 'node:crypto';
import { registerUser } from '@mrn/command-api';
import {
  buildPath,
  DISPUTE_COMMENT_MAX,
  IDEMPOTENCY_KEY_HEADER,
  MESSAGES,
  routes,
  streams,
} from '@mrn/contracts';
import { DEMO_PASSWORD, startTestServer, TEST_ADMIN, type TestServer } from '@mrn/server/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

// The platform admins' dispute work (issue 13) over HTTP: the queue, assignment, comments, resolutions
// that change the merchant's record all or nothing, concurrent resolutions, and the owner's e-mails
// read back from the development mailbox (a real SMTP server keeping what it receives).

let server: TestServer;
let admin: string;
let adminId: string;
let admin2: string;
let admin2Id: string;
let tom: string; // Harbor member
let tomId: string;
let priya: string; // Harbor account admin

beforeAll(async () => {
  server = await startTestServer({ demo: true });
  const login = async (email: string, password: string) => {
    const res = await server.call({
      method: 'POST',
      url: routes.login.path,
      payload: { auth: { email, password } },
    });
    return { token: res.body.data.jwt as string, user: res.body.data.user };
  };
  const a = await login(TEST_ADMIN.email, TEST_ADMIN.password);
  admin = a.token;
  adminId = a.user.resource_id;
  admin2Id = randomUUID();
  await registerUser(
    server,
    {
      userId: admin2Id,
      accountId: a.user.account_resource_id,
      email: 'second.admin@test.example',
      firstName: 'Sam',
      lastName: 'Second',
      isAdmin: true,
      isDmAdmin: true,
      password: 'second admin password 2026',
      agreedToTermsAt: new Date().toISOString(),
    },
    { now: new Date() },
    { source: 'system' },
  );
  admin2 = (await login('second.admin@test.example', 'second admin password 2026')).token;
  const t = await login('tom.becker@harboradvance.example', DEMO_PASSWORD);
  tom = t.token;
  tomId = t.user.resource_id;
  priya = (await login('priya.natarajan@harboradvance.example', DEMO_PASSWORD)).token;
});
afterAll(async () => {
  await server.close();
});
afterEach(async () => {
  await server.db.pool.query('drop trigger if exists fail_on_type on events');
});

const call = (method: 'GET' | 'POST', url: string, token?: string, payload?: object, headers?: object) =>
  server.call({
    method,
    url,
    ...(token ? { token } : {}),
    ...(payload ? { payload } : {}),
    ...(headers ? { headers: headers as Record<string, string> } : {}),
  });
const at = (path: string, id: string) => buildPath(path, { id });
const streamTypes = async (streamId: string) =>
  (
    await server.db.pool.query('select type from events where stream_id = $1 order by revision', [streamId])
  ).rows.map((r) => r.type as string);
const eventCount = async () =>
  Number((await server.db.pool.query('select count(*) as n from events')).rows[0].n);
const mailTo = async (email: string) =>
  (
    await server.db.pool.query(
      'select subject, body_text from dev_mailbox where mail_to = $1 order by received_at',
      [email],
    )
  ).rows as { subject: string; body_text: string }[];
const waitForMail = async (email: string, count: number) => {
  for (let i = 0; i < 100; i++) {
    const mails = await mailTo(email);
    if (mails.length >= count) return mails;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`expected ${count} mail(s) for ${email}, got ${(await mailTo(email)).length}`);
};

let einSeq = 0;
/** A merchant reported by Tom with a fresh EIN, its first note's id, and a dispute of it by its owner. */
async function disputedMerchant(owner = `owner${++einSeq}@biz.example`) {
  const digits = `77${String(100_000 + einSeq * 7 + Math.floor(Math.random() * 5)).padStart(7, '0')}`;
  const added = await call('POST', routes.addMerchant.path, tom, {
    merchant: { fein: digits, legal_name: `Disputed Diner ${einSeq} LLC`, city: 'Tampa', state: 'FL' },
    note: { category: 'Slow Pay', note: 'Paid late twice.', submission_source: 'in-house' },
  });
  expect(added.status).toBe(201);
  const dispute = await submitDispute(digits, owner);
  return {
    merchantId: added.body.data.resource_id as string,
    noteId: added.body.data.note_id as string,
    disputeId: dispute,
    owner,
    digits,
  };
}
async function submitDispute(fein: string, email: string, headers?: object) {
  const res = await call(
    'POST',
    routes.createDispute.path,
    undefined,
    {
      dispute: {
        first_name: 'Rosa',
        last_name: 'Diaz',
        email,
        fein: `${fein.slice(0, 2)}-${fein.slice(2)}`,
        legal_name: 'Disputed Diner LLC',
        city: 'Tampa',
        state: 'FL',
        reason: 'We paid every remittance on time; the slow pay report is wrong.',
      },
    },
    headers,
  );
  expect([200, 201]).toContain(res.status);
  return res.body.data.data.resource_id as string;
}

describe('dispute lifecycle', () => {
  it('new → assigned (in review) → commented → resolved with a Merchant Dispute note, mailing the owner twice', async () => {
    const { merchantId, disputeId, owner } = await disputedMerchant();
    const received = await waitForMail(owner, 1);
    expect(received[0]!.subject).toBe('We received your dispute about Disputed Diner LLC');
    expect(received[0]!.body_text).toContain(disputeId);

    const queue = await call('GET', routes.listDisputes.path, admin);
    expect(queue.status).toBe(200);
    const row = queue.body.data.find((d: { id: string }) => d.id === disputeId);
    expect(row).toMatchObject({
      status: 'new',
      assigned_to: null,
      merchant_id: merchantId,
      days_open: 0,
      comment_count: 0,
    });
    expect(queue.body.counts.new).toBeGreaterThanOrEqual(1);

    const assigned = await call('POST', at(routes.assignDispute.path, disputeId), admin, {
      assignee_id: adminId,
    });
    expect(assigned.status).toBe(200);
    const inReview = await call('GET', `${routes.listDisputes.path}?status=in_review`, admin);
    expect(inReview.body.data.find((d: { id: string }) => d.id === disputeId)).toMatchObject({
      status: 'in_review',
      assigned_to: { id: adminId, name: 'Platform Administrator' },
    });
    expect(
      (await call('GET', `${routes.listDisputes.path}?status=new`, admin)).body.data.map(
        (d: { id: string }) => d.id,
      ),
    ).not.toContain(disputeId);
    // Reassigning to a colleague; starting review of one in review changes nothing.
    expect(
      (await call('POST', at(routes.assignDispute.path, disputeId), admin, { assignee_id: admin2Id })).status,
    ).toBe(200);
    expect((await call('POST', at(routes.startDisputeReview.path, disputeId), admin2)).status).toBe(200);

    const commented = await call('POST', at(routes.addDisputeComment.path, disputeId), admin2, {
      comment: { text: 'Harbor confirms two late payments in March. INTERNAL-ONLY' },
    });
    expect(commented.status).toBe(201);

    const detail = await call('GET', at(routes.getDispute.path, disputeId), admin);
    expect(detail.status).toBe(200);
    expect(detail.body.data).toMatchObject({
      id: disputeId,
      status: 'in_review',
      merchant_id: merchantId,
      assigned_to: { id: admin2Id, name: 'Sam Second' },
      comment_count: 1,
      resolution: null,
    });
    expect(detail.body.data.comments).toEqual([
      expect.objectContaining({
        author: { id: admin2Id, name: 'Sam Second' },
        text: expect.stringContaining('INTERNAL-ONLY'),
      }),
    ]);

    const resolved = await call('POST', at(routes.resolveDispute.path, disputeId), admin2, {
      resolution: {
        kind: 'dispute_note_added',
        merchant_id: merchantId,
        note_text: 'The owner disputes the slow pay report; remittance records provided.',
        explanation: 'Thank you for the remittance records.',
      },
    });
    expect(resolved.status).toBe(200);

    const notes = await call('GET', at(routes.listMerchantNotes.path, merchantId), admin);
    const disputeNote = notes.body.data.find((n: { category: string }) => n.category === 'Merchant Dispute');
    expect(disputeNote).toMatchObject({
      note: 'The owner disputes the slow pay report; remittance records provided.',
    });
    // Merchant Dispute notes are for platform administrators only.
    const tomsNotes = await call('GET', at(routes.listMerchantNotes.path, merchantId), tom);
    expect(tomsNotes.body.data.map((n: { category: string }) => n.category)).not.toContain(
      'Merchant Dispute',
    );

    const after = await call('GET', at(routes.getDispute.path, disputeId), admin);
    expect(after.body.data).toMatchObject({
      status: 'resolved',
      resolution: 'dispute_note_added',
      resolution_note_id: disputeNote.resource_id,
      resolution_merchant_id: merchantId,
      explanation: 'Thank you for the remittance records.',
      resolved_by: { id: admin2Id, name: 'Sam Second' },
    });
    expect(after.body.data.resolved_at).not.toBeNull();
    const resolvedTab = await call('GET', `${routes.listDisputes.path}?status=resolved`, admin);
    expect(resolvedTab.body.data.map((d: { id: string }) => d.id)).toContain(disputeId);
    expect(
      (await call('GET', routes.listDisputes.path, admin)).body.data.map((d: { id: string }) => d.id),
    ).not.toContain(disputeId);

    const mails = await waitForMail(owner, 2);
    expect(mails[1]!.subject).toBe('Your dispute about Disputed Diner LLC has been resolved');
    expect(mails[1]!.body_text).toContain(
      'Outcome: We have added a statement of your dispute to the business record',
    );
    expect(mails[1]!.body_text).toContain('Thank you for the remittance records.');
    expect(mails[1]!.body_text).not.toContain('INTERNAL-ONLY');

    // Resolving again is refused; a follow-up comment is still recorded.
    const again = await call('POST', at(routes.resolveDispute.path, disputeId), admin, {
      resolution: { kind: 'rejected', explanation: 'x' },
    });
    expect(again.status).toBe(409);
    expect(again.body.errors).toBe('This dispute has already been resolved.');
    expect(
      (
        await call('POST', at(routes.addDisputeComment.path, disputeId), admin, {
          comment: { text: 'Owner thanked us.' },
        })
      ).status,
    ).toBe(201);
    expect(
      (await call('POST', at(routes.assignDispute.path, disputeId), admin, { assignee_id: adminId })).status,
    ).toBe(409);
  });

  it('archives the disputed note, or the merchant (releasing its EIN), with the resolution', async () => {
    const a = await disputedMerchant();
    const archivedNote = await call('POST', at(routes.resolveDispute.path, a.disputeId), admin, {
      resolution: { kind: 'note_archived', merchant_id: a.merchantId, note_id: a.noteId },
    });
    expect(archivedNote.status).toBe(200);
    const notes = await call('GET', at(routes.listMerchantNotes.path, a.merchantId), admin);
    expect(notes.body.data.map((n: { resource_id: string }) => n.resource_id)).not.toContain(a.noteId);
    expect(await streamTypes(streams.merchant(a.merchantId))).toEqual([
      'MerchantAdded',
      'NoteAdded',
      'NoteArchived',
    ]);
    expect((await waitForMail(a.owner, 2))[1]!.body_text).toContain('We have removed the disputed report');

    const b = await disputedMerchant();
    const archivedMerchant = await call('POST', at(routes.resolveDispute.path, b.disputeId), admin, {
      resolution: {
        kind: 'merchant_archived',
        merchant_id: b.merchantId,
        explanation: 'Record removed at your request.',
      },
    });
    expect(archivedMerchant.status).toBe(200);
    expect(await streamTypes(streams.merchant(b.merchantId))).toContain('MerchantArchived');
    expect(await streamTypes(streams.ein(b.digits))).toEqual(['EinReserved', 'EinReleased']);
    expect((await call('GET', at(routes.getDispute.path, b.disputeId), admin)).body.data).toMatchObject({
      resolution: 'merchant_archived',
      merchant_id: null, // no live merchant holds the EIN any more
      resolution_merchant_id: b.merchantId,
    });
  });

  it('sends one acknowledgement for a double-submitted form', async () => {
    const owner = 'double.submit@biz.example';
    const key = { [IDEMPOTENCY_KEY_HEADER]: `dispute-${randomUUID()}` };
    const first = await submitDispute('881234567', owner, key);
    const second = await submitDispute('881234567', owner, key);
    expect(second).toBe(first);
    expect(await streamTypes(streams.dispute(first))).toEqual(['DisputeSubmitted']);
    await waitForMail(owner, 1);
    await new Promise((r) => setTimeout(r, 500));
    expect(await mailTo(owner)).toHaveLength(1);
  });
});

describe('dispute refusals', () => {
  it('refuses funder admins and members (403) and anonymous callers (401) on every new route', async () => {
    const { disputeId } = await disputedMerchant();
    const calls: [string, 'GET' | 'POST', string, object?][] = [
      ['listDisputes', 'GET', routes.listDisputes.path],
      ['getDispute', 'GET', at(routes.getDispute.path, disputeId)],
      ['assignDispute', 'POST', at(routes.assignDispute.path, disputeId), { assignee_id: tomId }],
      ['startDisputeReview', 'POST', at(routes.startDisputeReview.path, disputeId)],
      [
        'addDisputeComment',
        'POST',
        at(routes.addDisputeComment.path, disputeId),
        { comment: { text: 'hi' } },
      ],
      [
        'resolveDispute',
        'POST',
        at(routes.resolveDispute.path, disputeId),
        { resolution: { kind: 'rejected', explanation: 'x' } },
      ],
    ];
    const before = await eventCount();
    for (const [name, method, url, body] of calls) {
      for (const token of [priya, tom]) {
        const res = await call(method, url, token, body);
        expect({ name, status: res.status, errors: res.body.errors }).toEqual({
          name,
          status: 403,
          errors: MESSAGES.notAllowed,
        });
      }
      expect({ name, status: (await call(method, url, undefined, body)).status }).toEqual({
        name,
        status: 401,
      });
    }
    expect(await eventCount()).toBe(before);
    expect(await streamTypes(streams.dispute(disputeId))).toEqual(['DisputeSubmitted']);
  });

  it('answers 400 naming the field, and writes nothing', async () => {
    const d = await disputedMerchant();
    const other = await disputedMerchant();
    const before = await eventCount();
    const bad = async (path: string, body: object, field: string) => {
      const res = await call('POST', at(path, d.disputeId), admin, body);
      expect({ status: res.status, field: res.body.fields?.[0]?.field }, JSON.stringify(res.body)).toEqual({
        status: 400,
        field,
      });
    };
    await bad(routes.addDisputeComment.path, { comment: { text: '   ' } }, 'comment.text');
    await bad(routes.addDisputeComment.path, {}, 'comment');
    await bad(routes.addDisputeComment.path, { comment: { text: 'called\u0000them' } }, 'comment.text');
    await bad(
      routes.addDisputeComment.path,
      { comment: { text: 'x'.repeat(DISPUTE_COMMENT_MAX + 1) } },
      'comment.text',
    );
    await bad(
      routes.resolveDispute.path,
      { resolution: { kind: 'rejected', explanation: 'a'.repeat(200_000) } },
      'resolution.explanation',
    );
    await bad(
      routes.resolveDispute.path,
      {
        resolution: { kind: 'dispute_note_added', merchant_id: d.merchantId, note_text: 'lone \uD800 half' },
      },
      'resolution.note_text',
    );
    await bad(routes.assignDispute.path, { assignee_id: 'nope' }, 'assignee_id');
    await bad(routes.assignDispute.path, { assignee_id: tomId }, 'assignee_id'); // not a platform admin
    await bad(routes.resolveDispute.path, { resolution: { kind: 'forgiven' } }, 'resolution.kind');
    await bad(routes.resolveDispute.path, { resolution: { kind: 'rejected' } }, 'resolution.explanation');
    await bad(
      routes.resolveDispute.path,
      { resolution: { kind: 'dispute_note_added', merchant_id: d.merchantId } },
      'resolution.note_text',
    );
    await bad(
      routes.resolveDispute.path,
      { resolution: { kind: 'note_archived', merchant_id: d.merchantId } },
      'resolution.note_id',
    );
    // A note that does not exist, or belongs to another merchant; a merchant that is not the disputed one.
    await bad(
      routes.resolveDispute.path,
      { resolution: { kind: 'note_archived', merchant_id: d.merchantId, note_id: randomUUID() } },
      'note_id',
    );
    await bad(
      routes.resolveDispute.path,
      { resolution: { kind: 'note_archived', merchant_id: d.merchantId, note_id: other.noteId } },
      'note_id',
    );
    await bad(
      routes.resolveDispute.path,
      { resolution: { kind: 'merchant_archived', merchant_id: other.merchantId } },
      'merchant_id',
    );
    expect(await eventCount()).toBe(before);
    expect(await streamTypes(streams.dispute(d.disputeId))).toEqual(['DisputeSubmitted']);
    expect(await streamTypes(streams.merchant(d.merchantId))).toEqual(['MerchantAdded', 'NoteAdded']);
    const missing = await call('GET', at(routes.getDispute.path, randomUUID()), admin);
    expect(missing.status).toBe(404);
    expect((await call('GET', `${routes.listDisputes.path}?status=closed`, admin)).body.fields[0].field).toBe(
      'status',
    );
  });
});

describe('dispute resolution: atomic and exactly once', () => {
  it('of concurrent resolutions by two admins exactly one is written', async () => {
    const d = await disputedMerchant();
    const attempts = await Promise.all([
      ...[admin, admin2, admin, admin2].map((token) =>
        call('POST', at(routes.resolveDispute.path, d.disputeId), token, {
          resolution: {
            kind: 'dispute_note_added',
            merchant_id: d.merchantId,
            note_text: 'Disputed by the owner.',
          },
        }),
      ),
      ...[admin, admin2].map((token) =>
        call('POST', at(routes.resolveDispute.path, d.disputeId), token, {
          resolution: { kind: 'note_archived', merchant_id: d.merchantId, note_id: d.noteId },
        }),
      ),
    ]);
    const statuses = attempts.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409, 409]);
    expect(
      (await streamTypes(streams.dispute(d.disputeId))).filter((t) => t === 'DisputeResolved'),
    ).toHaveLength(1);
    // Only the winner's change reached the merchant.
    const merchantTypes = (await streamTypes(streams.merchant(d.merchantId))).slice(2);
    expect(merchantTypes.length).toBe(1);
    expect(['NoteAdded', 'NoteArchived']).toContain(merchantTypes[0]);
    expect(await waitForMail(d.owner, 2)).toHaveLength(2);
  });

  it('writes neither the note nor the resolution when the append fails half-way', async () => {
    const d = await disputedMerchant();
    await server.db.pool.query(`
      create or replace function fail_on_type() returns trigger language plpgsql as $$
      begin
        if new.type = 'DisputeResolved' then raise exception 'injected failure on %', new.type; end if;
        return new;
      end $$`);
    await server.db.pool.query(
      'create trigger fail_on_type before insert on events for each row execute function fail_on_type()',
    );
    const failed = await call('POST', at(routes.resolveDispute.path, d.disputeId), admin, {
      resolution: { kind: 'dispute_note_added', merchant_id: d.merchantId, note_text: 'Disputed.' },
    });
    expect(failed.status).toBe(500);
    expect(await streamTypes(streams.merchant(d.merchantId))).toEqual(['MerchantAdded', 'NoteAdded']);
    expect(await streamTypes(streams.dispute(d.disputeId))).toEqual(['DisputeSubmitted']);
    await server.db.pool.query('drop trigger fail_on_type on events');
    const retried = await call('POST', at(routes.resolveDispute.path, d.disputeId), admin, {
      resolution: { kind: 'dispute_note_added', merchant_id: d.merchantId, note_text: 'Disputed.' },
    });
    expect(retried.status).toBe(200);
    expect(await streamTypes(streams.merchant(d.merchantId))).toEqual([
      'MerchantAdded',
      'NoteAdded',
      'NoteAdded',
    ]);
  });
});
