/**
 * The time a command decides at. Injected so that limits and windows (lock-outs, reset links, remembered
 * devices, invitations) are tested at their exact boundaries by moving time, not by sleeping.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests set and move by hand. */
export class ManualClock implements Clock {
  private at: number;
  constructor(start: Date | string = new Date()) {
    this.at = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.at);
  }
  advance(ms: number): void {
    this.at += ms;
  }
  set(to: Date | string): void {
    this.at = new Date(to).getTime();
  }
}
