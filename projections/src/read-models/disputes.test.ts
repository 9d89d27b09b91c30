import { randomUUID } from 'node:crypto';
import { type DomainEvent, streams } from '@mrn/contracts';
import { PostgresEventStore, platformMigrations } from '@mrn/platform';
import { createTestDatabase, type TestDatabase } from '@mrn/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectionMigrations } from '../migrations.ts';
import { expectRebuildEqualsIncremental } from '../testing/replay-equality.ts';
import { disputesProjector } from './disputes.ts';

let db: TestDatabase;
let store: PostgresEventStore;
const append = (stream: string, ...events: DomainEvent[]) =>
  store.appendToStream(
    stream,
    events.map((e) => ({ id: randomUUID(), ...e })),
    { expectedRevision: 'any' },
  );
const submitted = (disputeId: string, legalName: string): DomainEvent => ({
  type: 'DisputeSubmitted',
  data: {
    disputeId,
    firstName: 'Rosa',
    lastName: 'Diaz',
    email: 'rosa@biz.example',
    fein: '123456789',
    legalName,
    dba: null,
    city: 'Tampa',
    state: 'FL',
    reason: 'Wrong report.',
  },
});

const [fresh, reviewed, assigned, resolved] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
const [ann, bob, merchant, note, c1, c2, c3] = [
  randomUUID(),
  randomUUID(),
  randomUUID(),
  randomUUID(),
  randomUUID(),
  randomUUID(),
  randomUUID(),
];

beforeAll(async () => {
  db = await createTestDatabase([...platformMigrations(), ...projectionMigrations()]);
  store = new PostgresEventStore(db.pool);
  await append(streams.dispute(fresh), submitted(fresh, 'Fresh LLC'));
  await append(streams.dispute(reviewed), submitted(reviewed, 'Reviewed LLC'), {
    type: 'DisputeReviewStarted',
    data: { disputeId: reviewed },
  });
  await append(
    streams.dispute(assigned),
    submitted(assigned, 'Assigned LLC'),
    { type: 'DisputeAssigned', data: { disputeId: assigned, assigneeUserId: ann, assigneeName: 'Ann Lee' } },
    {
      type: 'DisputeCommentAdded',
      data: {
        disputeId: assigned,
        commentId: c1,
        authorUserId: ann,
        authorName: 'Ann Lee',
        text: 'Looking.',
      },
    },
    { type: 'DisputeAssigned', data: { disputeId: assigned, assigneeUserId: bob, assigneeName: 'Bob Ray' } },
    {
      type: 'DisputeCommentAdded',
      data: {
        disputeId: assigned,
        commentId: c2,
        authorUserId: bob,
        authorName: 'Bob Ray',
        text: 'Taking over.',
      },
    },
  );
  await append(
    streams.dispute(resolved),
    submitted(resolved, 'Resolved LLC'),
    { type: 'DisputeAssigned', data: { disputeId: resolved, assigneeUserId: ann, assigneeName: 'Ann Lee' } },
    {
      type: 'DisputeResolved',
      data: {
        disputeId: resolved,
        resolution: 'note_archived',
        explanation: 'Removed.',
        merchantId: merchant,
        noteId: note,
        resolvedByUserId: ann,
      },
    },
    {
      type: 'DisputeCommentAdded',
      data: {
        disputeId: resolved,
        commentId: c3,
        authorUserId: ann,
        authorName: 'Ann Lee',
        text: 'Owner thanked us.',
      },
    },
  );
});
afterAll(async () => {
  await db.drop();
});

describe('disputes projector', () => {
  it('keeps status, assignee, resolution and the comment thread; a rebuild yields the same rows', async () => {
    const tables = await expectRebuildEqualsIncremental({ pool: db.pool, store }, disputesProjector);
    expect(tables['read.disputes']).toHaveLength(4);
    expect(tables['read.dispute_comments']).toHaveLength(3);
    const { rows } = await db.pool.query(
      `select id, status, assigned_to_id, assigned_to_name, resolution, explanation, resolved_by_id,
              resolution_note_id, resolution_merchant_id, comment_count, resolved_at is not null as has_resolved_at
         from read.disputes`,
    );
    const byId = Object.fromEntries(rows.map((r) => [r.id, r]));
    expect(byId[fresh]).toMatchObject({
      status: 'new',
      assigned_to_id: null,
      comment_count: 0,
      has_resolved_at: false,
    });
    expect(byId[reviewed]).toMatchObject({ status: 'in_review', assigned_to_id: null });
    expect(byId[assigned]).toMatchObject({
      status: 'in_review',
      assigned_to_id: bob,
      assigned_to_name: 'Bob Ray',
      comment_count: 2,
      resolution: null,
    });
    expect(byId[resolved]).toMatchObject({
      status: 'resolved',
      // Assigning never reopens: the resolved dispute keeps its status through later events.
      assigned_to_id: ann,
      resolution: 'note_archived',
      explanation: 'Removed.',
      resolved_by_id: ann,
      resolution_note_id: note,
      resolution_merchant_id: merchant,
      comment_count: 1,
      has_resolved_at: true,
    });
    const thread = await db.pool.query(
      'select author_name, text from read.dispute_comments where dispute_id = $1 order by log_position',
      [assigned],
    );
    expect(thread.rows).toEqual([
      { author_name: 'Ann Lee', text: 'Looking.' },
      { author_name: 'Bob Ray', text: 'Taking over.' },
    ]);
  });
});
