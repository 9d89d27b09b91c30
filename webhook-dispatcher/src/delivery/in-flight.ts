import type { Busy } from './claim.ts';

interface Row {
  account_id: string;
  target: string;
}

/**
 * This process's deliveries in flight, in all and per endpoint (account + target): what the claim needs
 * to keep each endpoint under its cap, and what tells a finishing delivery that a slot someone waits for
 * has opened.
 */
export class InFlight {
  private readonly byEndpoint = new Map<string, Busy>();
  total = 0;
  /**
   * The pool is refilled once this many slots are free, not slot by slot: a claim per finished
   * delivery would cost a statement per delivery (a quarter of the pool, at most a claim's batch).
   */
  readonly refillAt: number;

  constructor(
    readonly limit: number,
    readonly perEndpoint: number,
    claimBatch: number,
  ) {
    this.refillAt = Math.max(1, Math.min(claimBatch, Math.floor(limit / 4)));
  }

  /** Slots free now, or 0 while fewer than `refillAt` are. */
  room(): number {
    const free = this.limit - this.total;
    return free >= this.refillAt || this.total === 0 ? free : 0;
  }

  add(d: Row): void {
    const key = keyOf(d);
    const busy = this.byEndpoint.get(key);
    if (busy) busy.inFlight++;
    else this.byEndpoint.set(key, { accountId: d.account_id, target: d.target, inFlight: 1 });
    this.total++;
  }

  /**
   * True when freeing this slot may let work start: its endpoint was at its cap, or the pool reaches
   * its refill mark.
   */
  remove(d: Row): boolean {
    const key = keyOf(d);
    const busy = this.byEndpoint.get(key);
    const wasFull =
      this.limit - this.total + 1 === this.refillAt || (busy?.inFlight ?? 0) >= this.perEndpoint;
    if (busy && --busy.inFlight === 0) this.byEndpoint.delete(key);
    this.total--;
    return wasFull;
  }

  busy(): Busy[] {
    return [...this.byEndpoint.values()];
  }
}

const keyOf = (d: Row) => `${d.account_id} ${d.target}`;
