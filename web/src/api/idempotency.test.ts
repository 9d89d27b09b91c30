import { describe, expect, it } from 'vitest';
import { idempotencyKeys, newIdempotencyKey } from './idempotency.ts';

describe('idempotency keys', () => {
  it('are version-4 uuids', () => {
    expect(newIdempotencyKey()).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(newIdempotencyKey()).not.toBe(newIdempotencyKey());
  });

  it('repeat for the same body and change with the body', () => {
    let n = 0;
    const keyFor = idempotencyKeys(() => `k${++n}`);
    expect(keyFor({ a: 1 })).toBe('k1');
    expect(keyFor({ a: 1 })).toBe('k1');
    expect(keyFor({ a: 2 })).toBe('k2');
    expect(keyFor({ a: 1 })).toBe('k3');
  });
});
