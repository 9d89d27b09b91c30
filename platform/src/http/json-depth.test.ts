import { describe, expect, it } from 'vitest';
import { jsonDeeperThan } from './json-depth.ts';

const nested = (depth: number, open = '[', close = ']') => open.repeat(depth) + close.repeat(depth);

describe('jsonDeeperThan', () => {
  it('lets 32 levels through and refuses 33 (arrays, objects, both)', () => {
    expect(jsonDeeperThan(nested(32))).toBe(false);
    expect(jsonDeeperThan(nested(33))).toBe(true);
    const objects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    expect(jsonDeeperThan(objects(32))).toBe(false);
    expect(jsonDeeperThan(objects(33))).toBe(true);
    expect(jsonDeeperThan(`{"a":[{"b":[${nested(29)}]}]}`)).toBe(true);
  });
  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(jsonDeeperThan(JSON.stringify({ text: '['.repeat(5000) }))).toBe(false);
    expect(jsonDeeperThan(JSON.stringify({ text: `\\"${'{'.repeat(100)}"` }))).toBe(false);
    expect(jsonDeeperThan(`["\\\\", ${nested(40)}]`)).toBe(true);
  });
  it('answers at once for 100,000 levels', () => {
    const started = performance.now();
    expect(jsonDeeperThan(nested(100_000))).toBe(true);
    expect(performance.now() - started).toBeLessThan(200);
  });
});
