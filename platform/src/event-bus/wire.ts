import { z } from 'zod';
import type { EventMetadata, RecordedEvent } from '../event-store/types.ts';
import { isPublished } from './unpublished.ts';

/** One event as a Kafka message, without kafkajs types so that it can be tested without a broker. */
export interface WireMessage {
  /** The stream id: Kafka keeps the order of a key's messages, so a stream's events stay in order. */
  key: string;
  value: string;
  headers: Record<string, string>;
}

// The value is the whole event, so a consumer needs nothing but the message; the headers repeat the
// id, type and position so that tools (and filters) can look at a message without parsing its body.
const WireEvent = z.object({
  id: z.string().min(1),
  streamId: z.string(),
  type: z.string().min(1),
  // A bigint has no JSON form: it travels as its decimal digits.
  revision: z.string().regex(/^\d+$/),
  position: z.string().min(1),
  data: z.unknown(),
  metadata: z.record(z.string(), z.unknown()),
  recordedAt: z.iso.datetime({ offset: true }),
});

export function toWireMessage(e: RecordedEvent): WireMessage {
  if (!isPublished(e.type)) throw new Error(`Event type ${e.type} is never published (unpublished.ts)`);
  const value: z.input<typeof WireEvent> = {
    id: e.id,
    streamId: e.streamId,
    type: e.type,
    revision: e.revision.toString(),
    position: e.position,
    data: e.data,
    metadata: e.metadata as Record<string, unknown>,
    recordedAt: e.recordedAt.toISOString(),
  };
  return {
    key: e.streamId,
    value: JSON.stringify(value),
    headers: { 'event-id': e.id, 'event-type': e.type, position: e.position },
  };
}

/** The event a message carries; throws on a message that is not one of ours. */
export function fromWireValue(value: string | Buffer | null): RecordedEvent {
  if (value === null) throw new Error('Message has no value');
  const parsed = WireEvent.safeParse(JSON.parse(value.toString()));
  if (!parsed.success) {
    throw new Error(`Not an event message: ${parsed.error.issues.map((i) => i.path.join('.')).join(', ')}`);
  }
  const w = parsed.data;
  return {
    id: w.id,
    streamId: w.streamId,
    type: w.type,
    revision: BigInt(w.revision),
    position: w.position,
    data: w.data,
    metadata: w.metadata as EventMetadata,
    recordedAt: new Date(w.recordedAt),
  };
}

/**
 * Splits messages, in order, into sends of at most `maxBytes` of keys and values. A broker refuses a
 * record batch above its `message.max.bytes` (1 MiB by default), and a relay batch of a thousand events
 * can be larger than that. A single message above the limit goes alone (the broker decides).
 */
export function chunkBySize<M extends { key: string; value: string }>(
  messages: readonly M[],
  maxBytes: number,
): M[][] {
  const chunks: M[][] = [];
  let current: M[] = [];
  let size = 0;
  for (const m of messages) {
    const bytes = Buffer.byteLength(m.key) + Buffer.byteLength(m.value);
    if (current.length > 0 && size + bytes > maxBytes) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(m);
    size += bytes;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
