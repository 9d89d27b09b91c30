import { createHash } from 'node:crypto';
import { v7 } from 'uuid';

/**
 * A new id: a time-ordered uuid (version 7: milliseconds, then 74 random bits), so ids made one after
 * another sort together. Every index keyed by an id (the log's event ids and stream ids, each read
 * model's primary keys) then grows at its end instead of at a random page: after a checkpoint, each
 * random page touched costs a full-page image in the WAL (issue 31). 0.45 µs a call (randomUUID: 0.14).
 */
export const newId = (): string => v7();

/**
 * A name-based uuid (SHA-1, version 5 layout) of `name`: the same name always gives the same id, so
 * records keyed by their natural key (an account's subscription to an EIN) need no id table.
 */
export function nameBasedId(name: string): string {
  const h = createHash('sha1').update(name).digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}

/** The id of an account's subscription to an EIN. */
export const merchantSubscriptionId = (accountId: string, fein: string): string =>
  nameBasedId(`merchant-subscription:${accountId}:${fein}`);
