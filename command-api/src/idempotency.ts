import { createHash } from 'node:crypto';
import { IDEMPOTENCY_KEY_HEADER } from '@mrn/contracts';
import { invalid, newId, type Queryable, ruleBroken } from '@mrn/platform';
import type { FastifyRequest } from 'fastify';

export const IDEMPOTENCY_TEXTS = {
  reused: 'This Idempotency-Key was already used with a different request. Use a new key for a new request.',
} as const;

/**
 * Ids for the records a create makes. With an Idempotency-Key header they are derived from the
 * caller and the key, so a double-submitted form names the same merchant/note the second time and
 * the deciders record nothing new; without one they are random. The key is bound to the request it
 * first came with (as Stripe does): the same key with another request answers 422.
 */
export async function recordIds(
  db: Queryable,
  request: FastifyRequest,
  scope: { accountId: string; userId: string },
  /** What makes two requests the same: the route and its parsed input. */
  fingerprint: unknown,
): Promise<(purpose: string) => string> {
  const raw = request.headers[IDEMPOTENCY_KEY_HEADER];
  const key = typeof raw === 'string' ? raw.trim() : undefined;
  if (key === undefined) return () => newId();
  if (key.length === 0 || key.length > 200 || !/^[\x21-\x7e]+$/.test(key)) {
    throw invalid(`${IDEMPOTENCY_KEY_HEADER}: must be 1 to 200 visible ASCII characters`, {
      fields: [{ field: IDEMPOTENCY_KEY_HEADER, message: 'must be 1 to 200 visible ASCII characters' }],
    });
  }
  const caller = `${scope.accountId}:${scope.userId}:${key}`;
  const hash = createHash('sha256').update(stableJson(fingerprint)).digest('hex');
  // One statement: of concurrent first uses one inserts, the others read what it bound.
  const { rows } = await db.query<{ request_hash: string }>(
    `insert into idempotency_keys (scope, request_hash) values ($1, $2)
     on conflict (scope) do update set scope = excluded.scope
     returning request_hash`,
    [caller, hash],
  );
  if (rows[0]?.request_hash !== hash) throw ruleBroken(IDEMPOTENCY_TEXTS.reused);
  return (purpose: string) => derivedUuid(`${caller}:${purpose}`);
}

/** JSON with object keys sorted, so the same input always hashes alike. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function derivedUuid(seed: string): string {
  const h = createHash('sha256').update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((Number.parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
