import { IDLE_LOGOUT_MS, IDLE_WARNING_MS } from '@mrn/contracts';
import { describe, expect, it } from 'vitest';
import { idlePhase } from './idle-phase.ts';

describe('idlePhase', () => {
  const start = 1_000_000;

  it('is active until 30 seconds before the 6-hour limit', () => {
    expect(idlePhase(start, start)).toEqual({ kind: 'active', warnInMs: IDLE_LOGOUT_MS - IDLE_WARNING_MS });
    expect(idlePhase(start + IDLE_LOGOUT_MS - IDLE_WARNING_MS - 1, start)).toEqual({
      kind: 'active',
      warnInMs: 1,
    });
  });

  it('warns during the last 30 seconds', () => {
    expect(idlePhase(start + IDLE_LOGOUT_MS - IDLE_WARNING_MS, start)).toEqual({
      kind: 'warning',
      logoutInMs: IDLE_WARNING_MS,
    });
    expect(idlePhase(start + IDLE_LOGOUT_MS - 1, start)).toEqual({ kind: 'warning', logoutInMs: 1 });
  });

  it('expires at 6 hours', () => {
    expect(IDLE_LOGOUT_MS).toBe(21_600_000);
    expect(idlePhase(start + IDLE_LOGOUT_MS, start)).toEqual({ kind: 'expired' });
    expect(idlePhase(start + 2 * IDLE_LOGOUT_MS, start)).toEqual({ kind: 'expired' });
  });

  it('treats a clock that went backwards as activity now', () => {
    expect(idlePhase(start - 5_000, start).kind).toBe('active');
  });
});
