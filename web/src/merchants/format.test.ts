import { describe, expect, it } from 'vitest';
import { cityState, displayEin, formatDate, formatDateTime, fullAddress, monthLabel } from './format.ts';

describe('formatDate', () => {
  it('shows a date-only value as MM/DD/YYYY without time-zone shifts', () => {
    expect(formatDate('2020-05-01')).toBe('05/01/2020');
    expect(formatDate('1999-12-31')).toBe('12/31/1999');
  });

  it('shows a timestamp as MM/DD/YYYY in local time', () => {
    const local = new Date(2026, 2, 7, 12, 30);
    expect(formatDate(local.toISOString())).toBe('03/07/2026');
  });

  it('gives an empty string for nothing or nonsense', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate(undefined)).toBe('');
    expect(formatDate('not a date')).toBe('');
  });
});

describe('formatDateTime', () => {
  it('adds a 12-hour time', () => {
    expect(formatDateTime(new Date(2026, 0, 2, 0, 5).toISOString())).toBe('01/02/2026 12:05 AM');
    expect(formatDateTime(new Date(2026, 0, 2, 13, 45).toISOString())).toBe('01/02/2026 1:45 PM');
    expect(formatDateTime(new Date(2026, 0, 2, 12, 0).toISOString())).toBe('01/02/2026 12:00 PM');
  });
});

describe('merchant display helpers', () => {
  it('formats EINs as 12-3456789', () => {
    expect(displayEin('451234567')).toBe('45-1234567');
    expect(displayEin('45-1234567')).toBe('45-1234567');
  });

  it('joins city, state and street lines', () => {
    expect(cityState({ city: 'Tampa', state: 'FL' })).toBe('Tampa, FL');
    expect(cityState({ city: 'Tampa', state: null })).toBe('Tampa');
    expect(fullAddress({ street1: '1 Main St', street2: null, city: 'Tampa', state: 'FL' })).toBe(
      '1 Main St, Tampa, FL',
    );
  });

  it('names months', () => {
    expect(monthLabel('2026-03')).toBe('Mar 2026');
    expect(monthLabel('2025-12')).toBe('Dec 2025');
    expect(monthLabel('bad')).toBe('bad');
  });
});
