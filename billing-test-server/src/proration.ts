import { formatDay } from './calendar.ts';

/**
 * Proration to the second, as Stripe computes it: the share of the period left after `at`, times
 * the item's amount, rounded to the cent.
 */
export function prorate(amount: number, period: { start: number; end: number }, at: number): number {
  const length = period.end - period.start;
  const remaining = Math.min(length, Math.max(0, period.end - at));
  if (length <= 0 || remaining === 0) return 0;
  return Math.round((amount * remaining) / length);
}

export interface ItemState {
  price: { id: string; unitAmount: number; productName: string };
  quantity: number;
}

export interface ProrationLine {
  amount: number;
  description: string;
  priceId: string;
  quantity: number;
  period: { start: number; end: number };
}

const named = (s: ItemState) =>
  s.quantity === 1 ? s.price.productName : `${s.quantity} × ${s.price.productName}`;

/**
 * The two lines of a change at `at`: credit for the unused time of what was there, charge for the
 * remaining time of what replaces it (either side absent for an added or removed item).
 */
export function prorationLines(
  before: ItemState | null,
  after: ItemState | null,
  period: { start: number; end: number },
  at: number,
): ProrationLine[] {
  const lines: ProrationLine[] = [];
  const linePeriod = { start: at, end: period.end };
  if (before) {
    const credit = prorate(before.price.unitAmount * before.quantity, period, at);
    if (credit !== 0) {
      lines.push({
        amount: -credit,
        description: `Unused time on ${named(before)} after ${formatDay(at)}`,
        priceId: before.price.id,
        quantity: before.quantity,
        period: linePeriod,
      });
    }
  }
  if (after) {
    const charge = prorate(after.price.unitAmount * after.quantity, period, at);
    if (charge !== 0) {
      lines.push({
        amount: charge,
        description: `Remaining time on ${named(after)} after ${formatDay(at)}`,
        priceId: after.price.id,
        quantity: after.quantity,
        period: linePeriod,
      });
    }
  }
  return lines;
}
