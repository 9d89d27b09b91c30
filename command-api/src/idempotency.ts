import { createHash } from 'node:crypto';
import { IDEMPOTENCY_KEY_HEADER } from '@mrn/contracts';
import { invalid, newId } from '@mrn/platform';
import type { FastifyRequest } from 'fastify';

/**
 * Ids for the records a create makes. With an Idempotency-Key header they are derived from the
 * caller and the key, so a double-submitted form names the same merchant/note the second time and
 * the deciders record nothing new; without one they are random.
 */
export function recordIds(request: FastifyRequest, scope: { accountId: string; userId: string }) {
  const raw = request.headers[IDEMPOTENCY_KEY_HEADER];
  const key = typeof raw === 'string' ? raw.trim() : undefined;
  if (key !== undefined && (key.length === 0 || key.length > 200)) {
    throw invalid(`${IDEMPOTENCY_KEY_HEADER}: must be 1 to 200 characters`);
  }
  return (purpose: string): string =>
    key ? derivedUuid(`${scope.accountId}:${scope.userId}:${key}:${purpose}`) : newId();
}

function derivedUuid(seed: string): string {
  const h = createHash('sha256').update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((Number.parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
