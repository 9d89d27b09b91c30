/** Step of the search-history chart's y-axis (core spec §2). */
export const Y_STEP = 5;

/** Y-axis ticks 0, 5, 10, … up to the first multiple of 5 at or above the largest count (at least 5). */
export function yTicks(maxCount: number, step = Y_STEP): number[] {
  const top = Math.max(step, Math.ceil(Math.max(0, maxCount) / step) * step);
  return Array.from({ length: top / step + 1 }, (_, i) => i * step);
}
