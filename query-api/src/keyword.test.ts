import { describe, expect, it } from 'vitest';
import { keywordKeys, keywordScan, keywordWords } from './views.ts';

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

describe('keyword keys (read.merchant_keywords, migration 0024)', () => {
  const ALNUM = [...'abcdefghijklmnopqrstuvwxyz0123456789'];

  it('pairs the tokens of two words, in byte order: four letters, or a word under three whole', () => {
    expect(keywordKeys(['summit', 'diner'])).toEqual(['dine summ', '*']);
    expect(keywordKeys(['diner', 'summit'])).toEqual(['dine summ', '*']);
    expect(keywordKeys(['summit', 'co'])).toEqual(['co summ', '*']);
    expect(keywordKeys(['7', 'eleven'])).toEqual(['7 elev', '*']);
    // A word whose first four are not all a-z or digits has its first three as token, as in a name.
    expect(keywordKeys(['москва', 'pizza'])).toEqual(['pizz мос', '*']);
  });

  it('pairs the two longest words of more: a name must have those, the rules then test the rest', () => {
    expect(keywordKeys(['golden', 'bakery', 'co'])).toEqual(['bake gold', '*']);
    expect(keywordKeys(['summit', 'diner', 'llc', 'bak'])).toEqual(['dine summ', '*']);
  });

  it('pairs a word of three letters with every token it may begin: itself, and it and a letter or digit', () => {
    const keys = keywordKeys(['summit', 'din']);
    expect(keys).toEqual([...['din', ...ALNUM.map((c) => `din${c}`)].map((t) => `${t} summ`), '*']);
    expect(keywordKeys(['co', 'sum'])).toEqual([
      ...['sum', ...ALNUM.map((c) => `sum${c}`)].map((t) => (t < 'co' ? `${t} co` : `co ${t}`)),
      '*',
    ]);
  });

  it('has none when a pair says nothing: one word, one token, two words of three letters', () => {
    expect(keywordKeys(['summit'])).toEqual([]);
    expect(keywordKeys(['summit', 'summer'])).toEqual([]);
    // "sum" may begin the very word "summit" begins: the name needs no second word.
    expect(keywordKeys(['summit', 'sum'])).toEqual([]);
    expect(keywordKeys(['joe', 'bar'])).toEqual([]);
  });

  it('has none for a character outside the Basic Multilingual Plane (UTF-16 and the database part there)', () => {
    expect(keywordKeys(['𝒜bc', 'diner'])).toEqual([]);
  });
});
