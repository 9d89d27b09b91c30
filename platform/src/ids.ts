import { createHash, randomUUID } from 'node:crypto';

export const newId = (): string => randomUUID();

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
