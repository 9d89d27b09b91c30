import { describe, expect, it } from 'vitest';
import { niceTicks, shortDay } from './chart-ticks.ts';

describe('chart ticks', () => {
  it('steps by 1, 2 or 5 times a power of ten (whole numbers only), reaching the largest value', () => {
    expect(niceTicks(0)).toEqual([0, 1]);
    expect(niceTicks(4)).toEqual([0, 1, 2, 3, 4]);
    expect(niceTicks(2)).toEqual([0, 1, 2]);
    expect(niceTicks(7)).toEqual([0, 2, 4, 6, 8]);
    expect(niceTicks(23)).toEqual([0, 5, 10, 15, 20, 25]);
    expect(niceTicks(1234)).toEqual([0, 500, 1000, 1500]);
  });

  it('names a UTC day without shifting it to the local zone', () => {
    expect(shortDay('2026-11-02')).toBe('Nov 2');
    expect(shortDay('2026-01-01')).toBe('Jan 1');
  });
});
