/**
 * Waits before attempts 2…8 (attempt 1 is immediate), the Standard Webhooks reference schedule:
 * 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. A delivery whose 8th attempt fails is dead.
 */
export const RETRY_DELAYS_MS = [
  5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** Each wait is lengthened by up to this fraction, at random, so retries of many rows spread out. */
export const JITTER = 0.1;

/** Where a failed attempt leaves its row: retried after the schedule's next wait, or dead. */
export function afterFailure(
  attempt: number,
  now: Date,
  random: () => number,
): { status: 'failed'; next: Date } | { status: 'dead'; next: null } {
  if (attempt >= MAX_ATTEMPTS) return { status: 'dead', next: null };
  const wait = RETRY_DELAYS_MS[attempt - 1]! * (1 + JITTER * random());
  return { status: 'failed', next: new Date(now.getTime() + Math.round(wait)) };
}
