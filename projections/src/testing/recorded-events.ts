import { randomUUID } from 'node:crypto';
import type { DomainEvent } from '@mrn/contracts';
import { merchantAddedData } from '@mrn/contracts/testing';
import { encodePosition, type RecordedEvent } from '@mrn/platform';

// Events as the log hands them to projectors, with times the test chooses: for projectors whose
// figures depend on when things happened (windows, UTC days), fed straight to `applyBatch`.

let sequence = 0;

/** `event` recorded at `at`, at the next position of a made-up log. */
export function recorded(event: DomainEvent, at: Date): RecordedEvent {
  sequence += 1;
  return {
    id: randomUUID(),
    streamId: 'test',
    revision: BigInt(sequence),
    position: encodePosition(1n, BigInt(sequence)),
    type: event.type,
    data: event.data,
    metadata: {},
    recordedAt: at,
  };
}

/** A new merchant reported by `accountId` at `at`. */
export const merchantAddedAt = (accountId: string, userId: string, at: Date) =>
  recorded(
    {
      type: 'MerchantAdded',
      data: merchantAddedData({
        merchantId: randomUUID(),
        fein: '123456789',
        legalName: 'Any LLC',
        city: 'Tampa',
        state: 'FL',
        accountId,
        userId,
      }),
    },
    at,
  );

/** A Slow Pay note by `accountId` at `at`. */
export const noteAddedAt = (accountId: string, userId: string, at: Date) =>
  recorded(
    {
      type: 'NoteAdded',
      data: {
        merchantId: randomUUID(),
        noteId: randomUUID(),
        category: 'Slow Pay',
        note: 'late',
        submissionSource: null,
        brokerName: null,
        accountId,
        userId,
        proxiedCreator: null,
      },
    },
    at,
  );
