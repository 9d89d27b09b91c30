import { createHash, randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Random base62 text; modulo bias is irrelevant for test identifiers. */
export function randomText(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += ALPHABET[b % ALPHABET.length];
  return out;
}

/** Stripe-style object id: `cus_` + 24 characters (Stripe's own ids have 14–24). */
export function newId(prefix: string): string {
  return `${prefix}_${randomText(24)}`;
}

/** Same card number → same fingerprint, as Stripe does within an account. */
export function fingerprint(cardNumber: string): string {
  const digest = createHash('sha256').update(`mrn-billing-test:${cardNumber}`).digest();
  let out = '';
  for (const b of digest.subarray(0, 16)) out += ALPHABET[b % ALPHABET.length];
  return out;
}

/** Invoice number prefix: Stripe gives each customer 8 upper-case characters. */
export function invoicePrefix(): string {
  return randomText(8).toUpperCase();
}
