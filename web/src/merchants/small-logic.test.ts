import { describe, expect, it } from 'vitest';
import { pageRange, readPositiveInt } from '../ui/pagination.ts';
import { categoryIntent } from './category-intent.ts';
import { yTicks } from './chart-scale.ts';
import { searchOutcome } from './search-outcome.ts';

describe('searchOutcome', () => {
  it('opens the merchant for exactly one result', () => {
    expect(searchOutcome({ data: [{ resource_id: 'm1' }] })).toEqual({ kind: 'one', merchantId: 'm1' });
  });
  it('lists several results', () => {
    expect(searchOutcome({ data: [{ resource_id: 'm1' }, { resource_id: 'm2' }] })).toEqual({
      kind: 'several',
    });
  });
  it('treats 404 and an empty answer as none found', () => {
    expect(searchOutcome(null, { status: 404, message: 'No Merchants Found' })).toEqual({ kind: 'none' });
    expect(searchOutcome({ data: [] })).toEqual({ kind: 'none' });
  });
  it('passes other failures on with the server text', () => {
    expect(searchOutcome(null, { status: 403, message: 'below 0.5%' })).toEqual({
      kind: 'failed',
      message: 'below 0.5%',
    });
  });
});

describe('yTicks', () => {
  it('steps by 5 up to the first multiple at or above the largest count', () => {
    expect(yTicks(0)).toEqual([0, 5]);
    expect(yTicks(3)).toEqual([0, 5]);
    expect(yTicks(5)).toEqual([0, 5]);
    expect(yTicks(11)).toEqual([0, 5, 10, 15]);
  });
});

describe('pagination helpers', () => {
  it('gives the rows a page shows', () => {
    expect(pageRange({ current_page: 2, per_page: 25, total_pages: 14, total_count: 340 })).toEqual({
      from: 26,
      to: 50,
      total: 340,
    });
    expect(pageRange({ current_page: 14, per_page: 25, total_pages: 14, total_count: 340 })).toEqual({
      from: 326,
      to: 340,
      total: 340,
    });
    expect(pageRange({ current_page: 1, per_page: 25, total_pages: 1, total_count: 0 })).toEqual({
      from: 0,
      to: 0,
      total: 0,
    });
  });

  it('reads page numbers and sizes from the URL', () => {
    expect(readPositiveInt('3', 1)).toBe(3);
    expect(readPositiveInt(null, 1)).toBe(1);
    expect(readPositiveInt('0', 1)).toBe(1);
    expect(readPositiveInt('2.5', 1)).toBe(1);
    expect(readPositiveInt('50', 25, [25, 50, 100])).toBe(50);
    expect(readPositiveInt('7', 25, [25, 50, 100])).toBe(25);
  });
});

describe('categoryIntent', () => {
  it('colours categories', () => {
    expect(categoryIntent('Suspicious Activity')).toBe('danger');
    expect(categoryIntent('Slow Pay')).toBe('warning');
    expect(categoryIntent('Default Satisfied')).toBe('success');
    expect(categoryIntent('Other')).toBe('none');
    expect(categoryIntent(null)).toBe('none');
  });
});
