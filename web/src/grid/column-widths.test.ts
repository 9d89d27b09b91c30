import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clampColumnWidth, fitColumnWidths } from './column-widths.ts';

const cols = [
  { width: 200, flex: 2, min: 60 },
  { width: 100, flex: 0, min: 80 },
  { width: 120, flex: 1, min: 90 },
];

describe('fitColumnWidths', () => {
  it('shares spare width among the flexible columns by their flex', () => {
    expect(fitColumnWidths(cols, [], 720)).toEqual([400, 100, 220]);
  });

  it('keeps preferred widths when the table is narrower (it scrolls sideways)', () => {
    expect(fitColumnWidths(cols, [], 300)).toEqual([200, 100, 120]);
  });

  it('never draws a column below its header, and a sized column stops growing', () => {
    expect(fitColumnWidths(cols, [30, undefined, undefined], 280)).toEqual([60, 100, 120]);
    expect(fitColumnWidths(cols, [250, undefined, undefined], 720)).toEqual([250, 100, 370]);
  });

  it('leaves the space empty when every flexible column was sized', () => {
    expect(fitColumnWidths(cols, [250, undefined, 150], 720)).toEqual([250, 100, 150]);
  });

  it('fills the table exactly whenever there is spare width and a column to take it', () => {
    const column = fc.record({
      width: fc.integer({ min: 40, max: 400 }),
      flex: fc.integer({ min: 0, max: 3 }),
      min: fc.integer({ min: 20, max: 200 }),
    });
    fc.assert(
      fc.property(
        fc.array(column, { minLength: 1, maxLength: 10 }),
        fc.integer({ min: 0, max: 3000 }),
        (c, w) => {
          const widths = fitColumnWidths(c, [], w);
          const total = widths.reduce((s, x) => s + x, 0);
          for (const [i, x] of widths.entries()) expect(x).toBeGreaterThanOrEqual(c[i]!.min);
          const natural = c.reduce((s, x) => s + Math.max(x.min, x.width), 0);
          if (natural < w && c.some((x) => x.flex > 0)) expect(total).toBe(w);
          else expect(total).toBe(natural);
        },
      ),
    );
  });
});

describe('clampColumnWidth', () => {
  it('keeps a dragged width at or above the header', () => {
    expect(clampColumnWidth({ width: 100, flex: 0, min: 90 }, 40)).toBe(90);
    expect(clampColumnWidth({ width: 100, flex: 0, min: 90 }, 140.4)).toBe(140);
  });
});
