import { describe, expect, it } from 'vitest';
import { toQueryString } from './query-string.ts';

describe('toQueryString', () => {
  it('is empty without a query', () => {
    expect(toQueryString(undefined)).toBe('');
    expect(toQueryString({})).toBe('');
  });

  it('encodes values and leaves out empty ones', () => {
    expect(toQueryString({ search: 'Acme & Co', page: 2, per_page: undefined, status: '', x: null })).toBe(
      '?search=Acme+%26+Co&page=2',
    );
  });

  it('repeats the key for arrays', () => {
    expect(toQueryString({ id: ['a', 'b'] })).toBe('?id=a&id=b');
  });
});
