import { describe, expect, it } from 'vitest';
import { keywordScan, keywordWords } from './views.ts';

describe('keyword words', () => {
  it('splits as the full-text parser does: lower case, letters and digits, apostrophes and hyphens split', () => {
    expect(keywordWords("  O'Brien Auto-Parts  LLC ")).toEqual(['o', 'brien', 'auto', 'parts', 'llc']);
    expect(keywordWords('José 7-Eleven')).toEqual(['jose', '7', 'eleven']);
    expect(keywordWords('Café Müller GmbH')).toEqual(['cafe', 'muller', 'gmbh']);
    expect(keywordWords('Straße Ærø Łódź')).toEqual(['strasse', 'aero', 'lodz']);
    expect(keywordWords(' -- ')).toEqual([]);
  });
});

describe('keyword scan', () => {
  it('drives by the longest word as a prefix range and tests the others as word starts', () => {
    expect(keywordScan(['golden', 'bakery', 'co'])).toEqual([
      'golden',
      'goldeo',
      ['%bakery%', '%co%'],
      ['\\mbakery', '\\mco\\M'],
    ]);
  });

  it('matches a word under three letters only as a whole word', () => {
    const [from, to] = keywordScan(['co']);
    expect(from).toBe('co');
    expect(to).toBe('co\u0001');
    // The range [from, to) in byte order holds "co" and nothing that merely begins with it.
    expect(['co', 'coastal', 'cn', 'cp'].filter((w) => w >= from && w < to)).toEqual(['co']);
  });

  it('ends a prefix range after every word that begins with it, whatever its last letter', () => {
    const [from, to] = keywordScan(['josé']);
    expect(['josé', 'josélito', 'josf', 'jose'].filter((w) => w >= from && w < to)).toEqual([
      'josé',
      'josélito',
    ]);
  });
});
