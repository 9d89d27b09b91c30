import { describe, expect, it } from 'vitest';
import { neutraliseCell, toCsv } from './csv.ts';

describe('CSV cells', () => {
  it.each([
    ['=HYPERLINK("http://x")', `'=HYPERLINK("http://x")`],
    ['+1+2', `'+1+2`],
    ['-2+3', `'-2+3`],
    ['@SUM(A1)', `'@SUM(A1)`],
    ['\tcmd', `'\tcmd`],
    ['\rcmd', `'\rcmd`],
  ])('neutralises %j', (cell, expected) => {
    expect(neutraliseCell(cell)).toBe(expected);
  });
  it.each(['Summit Capital', 'a=b', 'ann@summit.example', '', ' =x'])('keeps %j as it is', (cell) => {
    expect(neutraliseCell(cell)).toBe(cell);
  });
  it('writes a header and neutralised, quoted rows', () => {
    expect(
      toCsv(
        ['name', 'n'],
        [
          ['=1+1', 2],
          ['Plain, Inc', null],
        ],
      ),
    ).toBe(`name,n\n'=1+1,2\n"Plain, Inc",\n`);
  });
});
