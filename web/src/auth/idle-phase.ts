import { IDLE_LOGOUT_MS, IDLE_WARNING_MS } from '@mrn/contracts';

export type IdlePhase =
  | { kind: 'active'; warnInMs: number }
  | { kind: 'warning'; logoutInMs: number }
  | { kind: 'expired' };

/** Where an idle session stands `now`, given the time of the user's last activity (core spec §9). */
export function idlePhase(now: number, lastActivityAt: number): IdlePhase {
  const idleMs = Math.max(0, now - lastActivityAt);
  if (idleMs >= IDLE_LOGOUT_MS) return { kind: 'expired' };
  const warnAtMs = IDLE_LOGOUT_MS - IDLE_WARNING_MS;
  if (idleMs >= warnAtMs) return { kind: 'warning', logoutInMs: IDLE_LOGOUT_MS - idleMs };
  return { kind: 'active', warnInMs: warnAtMs - idleMs };
}
