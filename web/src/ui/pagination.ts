import type { Pagination } from '@mrn/contracts';

/** "26–50 of 340": the rows a page shows, 1-based; 0–0 of 0 when empty. */
export function pageRange(p: Pagination): { from: number; to: number; total: number } {
  if (p.total_count === 0) return { from: 0, to: 0, total: 0 };
  const from = (p.current_page - 1) * p.per_page + 1;
  return { from, to: Math.min(p.total_count, from + p.per_page - 1), total: p.total_count };
}

/** Reads a positive page number or page size from the URL, else the fallback. */
export function readPositiveInt(raw: string | null, fallback: number, allowed?: readonly number[]): number {
  const n = Number(raw);
  if (!raw || !Number.isInteger(n) || n < 1) return fallback;
  return allowed && !allowed.includes(n) ? fallback : n;
}
