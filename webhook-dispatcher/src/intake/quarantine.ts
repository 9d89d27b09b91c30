import { EventParseError } from '@mrn/contracts';
import type { Queryable, RecordedEvent } from '@mrn/platform';

/** An event whose data the catalogue cannot read: applying it again will never work. */
export const isUnreadable = (err: unknown): err is Error =>
  err instanceof EventParseError || (err instanceof Error && err.name === 'EventParseError');

/** Sets an unreadable event aside (migration 0003), in the transaction of the batch it came in. */
export async function quarantineEvent(tx: Queryable, e: RecordedEvent, reason: string): Promise<void> {
  await tx.query(
    `insert into webhook_quarantine (event_id, position, stream_id, type, reason)
     values ($1, $2, $3, $4, $5)
     on conflict (event_id) do nothing`,
    [e.id, e.position, e.streamId, e.type, reason.slice(0, 2000)],
  );
}
