import { randomUUID } from 'node:crypto';
import { type DomainEvent, streams } from '@mrn/contracts';
import { DomainError, type EventStore, PostgresEventStore, platformMigrations } from '@mrn/platform';
import { createTestDatabase, type TestDatabase } from '@mrn/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTORS } from '../testing.ts';
import { resolveDisputeWithRecord } from './dispute-resolution.ts';

// Another process resolving the same dispute between our read and our append: in this process commands
// on one stream queue, so only the store's optimistic concurrency stands between two resolutions made
// in different processes. The loser decides again on the winner's state and is refused; its change to
// the merchant (written in the same append) never lands.

let db: TestDatabase;
let store: PostgresEventStore;
beforeAll(async () => {
  db = await createTestDatabase(platformMigrations());
  store = new PostgresEventStore(db.pool);
});
afterAll(async () => {
  await store?.close();
  await db?.drop();
});

const append = (streamId: string, events: DomainEvent[]) =>
  store.appendToStream(
    streamId,
    events.map((e) => ({ id: randomUUID(), type: e.type, data: e.data, metadata: {} })),
    { expectedRevision: 'any' },
  );
const types = async (streamId: string) => {
  const out: string[] = [];
  for await (const e of store.readStream(streamId)) out.push(e.type);
  return out;
};

/** The store as this process sees it, with another process appending `rival` right after our first read of `streamId`. */
function racedStore(streamId: string, rival: DomainEvent): EventStore {
  let raced = false;
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (prop !== 'readStream') return Reflect.get(target, prop, receiver);
      return async function* (id: string, opts?: { fromRevision?: bigint }) {
        yield* target.readStream(id, opts);
        if (id === streamId && !raced) {
          raced = true;
          await append(streamId, [rival]);
        }
      };
    },
  });
}

describe('resolving a dispute across processes', () => {
  it('loses the race on the dispute stream: refused with 409, and the merchant is left untouched', async () => {
    const [merchantId, noteId, disputeId] = [randomUUID(), randomUUID(), randomUUID()];
    await append(streams.merchant(merchantId), [
      {
        type: 'MerchantAdded',
        data: {
          merchantId,
          fein: '123456789',
          legalName: 'Sunrise Diner Inc',
          dba: null,
          street1: null,
          street2: null,
          city: 'Tampa',
          state: 'FL',
          businessPhone: null,
          businessStartdate: null,
          industry: null,
          accountId: 'a1',
          userId: 'u',
        },
      },
      {
        type: 'NoteAdded',
        data: {
          merchantId,
          noteId,
          category: 'Slow Pay',
          note: 'Late.',
          submissionSource: null,
          brokerName: null,
          accountId: 'a1',
          userId: 'u',
          proxiedCreator: null,
        },
      },
    ]);
    await append(streams.dispute(disputeId), [
      {
        type: 'DisputeSubmitted',
        data: {
          disputeId,
          firstName: 'Rosa',
          lastName: 'Diaz',
          email: 'rosa@biz.example',
          fein: '123456789',
          legalName: 'Sunrise Diner Inc',
          dba: null,
          city: 'Tampa',
          state: 'FL',
          reason: 'Wrong.',
        },
      },
    ]);
    const rival: DomainEvent = {
      type: 'DisputeResolved',
      data: {
        disputeId,
        resolution: 'rejected',
        explanation: 'Stands.',
        merchantId: null,
        noteId: null,
        resolvedByUserId: 'other-admin',
      },
    };
    const attempt = resolveDisputeWithRecord(
      { store: racedStore(streams.dispute(disputeId), rival) },
      disputeId,
      { kind: 'note_archived', merchant_id: merchantId, note_id: noteId, explanation: null, note_text: null },
      { now: new Date(), actor: ACTORS.staff },
      { source: 'system' },
    );
    await expect(attempt).rejects.toSatisfy(
      (e) => e instanceof DomainError && e.kind === 'conflict' && /already been resolved/.test(e.message),
    );
    expect(await types(streams.dispute(disputeId))).toEqual(['DisputeSubmitted', 'DisputeResolved']);
    expect(await types(streams.merchant(merchantId))).toEqual(['MerchantAdded', 'NoteAdded']);
  });
});
