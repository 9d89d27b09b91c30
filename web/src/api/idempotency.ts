/** A random version-4 uuid; `crypto.randomUUID` exists only in secure contexts, `getRandomValues` everywhere. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Idempotency-Key for the submissions of one create form: the same body sent again (a double click,
 * a retry after a network error) reuses the key, so the server creates one record; a changed body
 * gets a fresh key.
 */
export function idempotencyKeys(generate: () => string = newIdempotencyKey): (body: unknown) => string {
  let last: { body: string; key: string } | null = null;
  return (body) => {
    const serialised = JSON.stringify(body);
    if (last?.body !== serialised) last = { body: serialised, key: generate() };
    return last.key;
  };
}
