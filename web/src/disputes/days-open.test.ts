import { Intent } from '@blueprintjs/core';
import { describe, expect, it } from 'vitest';
import { daysOpenBadge } from './days-open.ts';

describe('daysOpenBadge', () => {
  it('counts against the 30-day target, warning near it and alarming past it', () => {
    expect(daysOpenBadge(12, false)).toMatchObject({ text: '12 of 30 days', intent: Intent.NONE });
    expect(daysOpenBadge(24, false).intent).toBe(Intent.NONE);
    expect(daysOpenBadge(25, false).intent).toBe(Intent.WARNING);
    expect(daysOpenBadge(30, false).intent).toBe(Intent.WARNING);
    expect(daysOpenBadge(31, false)).toMatchObject({ text: '31 of 30 days', intent: Intent.DANGER });
  });
  it('shows a resolved dispute calmly when it was closed in time', () => {
    expect(daysOpenBadge(28, true).intent).toBe(Intent.SUCCESS);
    expect(daysOpenBadge(40, true).intent).toBe(Intent.WARNING);
  });
});
