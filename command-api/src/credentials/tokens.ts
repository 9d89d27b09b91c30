import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Random bearer secrets (reset links, remember-device, API keys): high entropy, so a plain SHA-256 is the right hash. */
export const newSecret = (bytes = 32): string => randomBytes(bytes).toString('base64url');
export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');
export function secretMatches(secret: string, hash: string): boolean {
  const a = Buffer.from(hashSecret(secret), 'hex');
  const b = Buffer.from(hash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
