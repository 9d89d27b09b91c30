import { Intent } from '@blueprintjs/core';
import { DISPUTE_TARGET_DAYS, DISPUTE_WARNING_DAYS } from '@mrn/contracts';

/**
 * Days a dispute has been (or was) open against the 30-day target: "12 of 30 days", amber from day 25,
 * red past the target. A resolved dispute keeps the days it took, without alarm once closed in time.
 */
export function daysOpenBadge(
  days: number,
  resolved: boolean,
): { text: string; intent: Intent; title: string } {
  const text = `${days} of ${DISPUTE_TARGET_DAYS} days`;
  if (days > DISPUTE_TARGET_DAYS)
    return {
      text,
      intent: resolved ? Intent.WARNING : Intent.DANGER,
      title: resolved
        ? `Resolved after the ${DISPUTE_TARGET_DAYS}-day target`
        : `Past the ${DISPUTE_TARGET_DAYS}-day target`,
    };
  if (!resolved && days >= DISPUTE_WARNING_DAYS)
    return { text, intent: Intent.WARNING, title: `Nearing the ${DISPUTE_TARGET_DAYS}-day target` };
  return {
    text,
    intent: resolved ? Intent.SUCCESS : Intent.NONE,
    title: resolved ? 'Resolved within the target' : 'Within the target',
  };
}
