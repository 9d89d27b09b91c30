import { describe, expect, it } from 'vitest';
import { duration, progressLine, progressReporter } from './rebuild-progress.ts';

describe('rebuild progress', () => {
  it('says how far, how fast and how long is left', () => {
    expect(progressLine(1_250_000, 5_000_000, 40)).toBe(
      '1,250,000 / 5,000,000 events (25.0 %), 31,250 events/s, 2m 00s left',
    );
  });

  it('caps at 100 % when events were appended during the replay, with nothing left', () => {
    expect(progressLine(5_100_000, 5_000_000, 100)).toBe(
      '5,100,000 / 5,000,000 events (100.0 %), 51,000 events/s, 0s left',
    );
  });

  it('has no time left to tell before anything was read', () => {
    expect(progressLine(0, 5_000_000, 0)).toBe('0 / 5,000,000 events (0.0 %), 0 events/s, unknown left');
  });

  it('writes durations in hours and minutes, minutes and seconds, or seconds', () => {
    expect(duration(3725)).toBe('1h 02m');
    expect(duration(245)).toBe('4m 05s');
    expect(duration(12.4)).toBe('12s');
  });

  it('writes at most one line a second', () => {
    let t = 0;
    const lines: string[] = [];
    const report = progressReporter(
      10_000,
      (l) => lines.push(l),
      () => t,
    );
    t = 400;
    report(1000);
    t = 1000;
    report(2500);
    t = 1500;
    report(4000);
    t = 2100;
    report(6000);
    expect(lines).toEqual([
      '2,500 / 10,000 events (25.0 %), 2,500 events/s, 3s left',
      '6,000 / 10,000 events (60.0 %), 2,857 events/s, 1s left',
    ]);
  });
});
