import { ACTIVITY_THROTTLE_MS } from '@mrn/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { idlePhase } from './idle-phase.ts';

const ACTIVITY_EVENTS = ['mousemove', 'mousedown', 'keydown', 'touchstart', 'wheel', 'scroll'] as const;
const COUNTDOWN_TICK_MS = 1_000;

/**
 * Calls `onExpire` after 6 hours without user activity; during the last 30 seconds it returns the
 * seconds left so a warning can be shown. Activity is sampled at most every 500 ms.
 */
export function useIdleLogout(enabled: boolean, onExpire: () => void) {
  const [secondsLeft, setSecondsLeft] = useState<number | null>(null);
  const lastActivityAt = useRef(Date.now());
  const onExpireRef = useRef(onExpire);
  const evaluateRef = useRef<() => void>(() => undefined);

  useEffect(() => {
    onExpireRef.current = onExpire;
  }, [onExpire]);

  useEffect(() => {
    if (!enabled) {
      setSecondsLeft(null);
      return;
    }
    lastActivityAt.current = Date.now();
    let timer: number | undefined;
    let lastSampledAt = 0;

    const evaluate = () => {
      window.clearTimeout(timer);
      const phase = idlePhase(Date.now(), lastActivityAt.current);
      if (phase.kind === 'expired') {
        setSecondsLeft(null);
        onExpireRef.current();
        return;
      }
      if (phase.kind === 'warning') {
        setSecondsLeft(Math.ceil(phase.logoutInMs / 1000));
        timer = window.setTimeout(evaluate, Math.min(COUNTDOWN_TICK_MS, phase.logoutInMs));
      } else {
        setSecondsLeft(null);
        timer = window.setTimeout(evaluate, phase.warnInMs);
      }
    };
    evaluateRef.current = evaluate;

    const onActivity = () => {
      const now = Date.now();
      if (now - lastSampledAt < ACTIVITY_THROTTLE_MS) return;
      lastSampledAt = now;
      lastActivityAt.current = now;
      evaluate();
    };
    // Timers of a hidden tab can fire late; check again as soon as the tab is visible.
    const onVisibilityChange = () => {
      if (document.visibilityState === 'visible') evaluate();
    };

    for (const name of ACTIVITY_EVENTS)
      window.addEventListener(name, onActivity, { passive: true, capture: true });
    document.addEventListener('visibilitychange', onVisibilityChange);
    evaluate();
    return () => {
      window.clearTimeout(timer);
      for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, onActivity, { capture: true });
      document.removeEventListener('visibilitychange', onVisibilityChange);
      evaluateRef.current = () => undefined;
    };
  }, [enabled]);

  const stayActive = useCallback(() => {
    lastActivityAt.current = Date.now();
    evaluateRef.current();
  }, []);

  return { secondsLeft, stayActive };
}
