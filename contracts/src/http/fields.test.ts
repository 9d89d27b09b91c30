import { describe, expect, it } from 'vitest';
import { base32Secret, dateProblem, optionalDate } from './fields.ts';
import { hasUnsafeCharacters, unsafeTextPaths } from './safe-text.ts';

describe('dates', () => {
  it.each(['1800-01-01', '2100-12-31', '2024-02-29', '2023-02-28'])('accepts %s', (date) => {
    expect(dateProblem(date)).toBeNull();
  });
  it.each([
    ['2023-02-31', 'is not a real calendar date'],
    ['2023-02-29', 'is not a real calendar date'],
    ['2024-04-31', 'is not a real calendar date'],
    ['2024-00-10', 'is not a real calendar date'],
    ['1799-12-31', 'must be between 1800 and 2100'],
    ['2101-01-01', 'must be between 1800 and 2100'],
    ['0099-01-01', 'must be between 1800 and 2100'],
    ['2024-2-3', 'must be a date as YYYY-MM-DD'],
    ['2024-02-03T00:00:00Z', 'must be a date as YYYY-MM-DD'],
  ])('refuses %s: %s', (date, problem) => {
    expect(dateProblem(date)).toBe(problem);
  });
  it('treats empty and missing as no date', () => {
    expect(optionalDate().parse('')).toBeNull();
    expect(optionalDate().parse(undefined)).toBeNull();
    expect(optionalDate().parse(' 2024-02-29 ')).toBe('2024-02-29');
  });
});

describe('TOTP secrets', () => {
  it('accepts base32, optionally padded', () => {
    expect(base32Secret().safeParse('JBSWY3DPEHPK3PXP').success).toBe(true);
    expect(base32Secret().safeParse('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PX=').success).toBe(true);
  });
  it.each(['JBSWY3DPEHPK3PX1', 'JBSWY3DP EHPK3PXP', 'jbswy3dpehpk3pxp!', 'ABC'])('refuses %s', (secret) => {
    expect(base32Secret().safeParse(secret).success).toBe(false);
  });
});

describe('unsafe text', () => {
  it('finds NUL and lone surrogates, keeps paired surrogates (emoji)', () => {
    expect(hasUnsafeCharacters('a\u0000b')).toBe(true);
    expect(hasUnsafeCharacters('a\uD800')).toBe(true);
    expect(hasUnsafeCharacters('\uDC00a')).toBe(true);
    expect(hasUnsafeCharacters('caf\u00e9 \uD83D\uDE00')).toBe(false);
  });
  it('names the path of every unsafe string and key', () => {
    expect(
      unsafeTextPaths({
        merchant: { legal_name: 'ok', dba: 'x\u0000' },
        tags: ['fine', '\uD800'],
        'k\u0000': 1,
      }),
    ).toEqual([['merchant', 'dba'], ['tags', 1], ['k\u0000']]);
  });
  it('walks 100,000 nested arrays without overflowing the stack', () => {
    let deep: unknown = ['bad\u0000'];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const paths = unsafeTextPaths(deep);
    expect(paths).toHaveLength(1);
    expect(paths[0]).toHaveLength(100_001);
  });
});
