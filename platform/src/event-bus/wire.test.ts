import { describe, expect, it } from 'vitest';
import { encodePosition } from '../event-store/position.ts';
import type { RecordedEvent } from '../event-store/types.ts';
import { chunkBySize, fromWireValue, toWireMessage } from './wire.ts';

const event = (over: Partial<RecordedEvent> = {}): RecordedEvent => ({
  id: '0b0e6c4e-6f55-4a8c-9a55-2f1c7f0a4b11',
  streamId: 'merchant-42',
  revision: 9_007_199_254_740_993n, // above 2^53: must not pass through a JS number
  position: encodePosition(812n, 4711n),
  type: 'NoteAdded',
  data: { merchantId: '42', note: 'Paid 40 days late. “Quoted” \u00e9', nested: [1, { a: null }] },
  metadata: { actorAccountId: 'acc-1', correlationId: 'req-1', source: 'web' },
  recordedAt: new Date('2026-11-24T10:11:12.345Z'),
  ...over,
});

describe('an event as a Kafka message', () => {
  it('is keyed by its stream, carries id, type and position as headers, and reads back as the same event', () => {
    const e = event();
    const m = toWireMessage(e);
    expect(m.key).toBe('merchant-42');
    expect(m.headers).toEqual({ 'event-id': e.id, 'event-type': 'NoteAdded', position: e.position });
    expect(fromWireValue(m.value)).toEqual(e);
    expect(fromWireValue(Buffer.from(m.value))).toEqual(e);
  });

  it('refuses to encode a secret-bearing event', () => {
    expect(() =>
      toWireMessage(event({ type: 'UserMfaEnabled', data: { userId: 'u', secret: 'S' } })),
    ).toThrow(/never published/);
  });

  it('refuses a message that is not an event', () => {
    expect(() => fromWireValue(null)).toThrow(/no value/);
    expect(() => fromWireValue('{"hello":"world"}')).toThrow(/Not an event message/);
    expect(() => fromWireValue('not json')).toThrow();
    const { value } = toWireMessage(event());
    expect(() => fromWireValue(value.replace('"revision":"9007199254740993"', '"revision":3'))).toThrow(
      /revision/,
    );
  });
});

describe('chunkBySize', () => {
  const m = (bytes: number) => ({ key: 'k', value: 'x'.repeat(bytes - 1) });

  it('keeps the order and puts at most the limit in a chunk (a larger message goes alone)', () => {
    const messages = [m(40), m(40), m(30), m(100), m(10), m(10)];
    const chunks = chunkBySize(messages, 100);
    expect(chunks.map((c) => c.map((x) => x.value.length + 1))).toEqual([[40, 40], [30], [100], [10, 10]]);
    expect(chunks.flat()).toEqual(messages);
  });

  it('counts bytes, not characters', () => {
    const wide = { key: 'k', value: 'é'.repeat(30) }; // 61 bytes
    expect(chunkBySize([wide, wide], 100)).toHaveLength(2);
  });

  it('gives nothing for nothing', () => {
    expect(chunkBySize([], 100)).toEqual([]);
  });
});
