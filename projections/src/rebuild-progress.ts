const count = (n: number) => Math.round(n).toLocaleString('en-US');

/** `1h 02m`, `4m 05s`, `12s`: a time left as an operator reads it. */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  if (h > 0) return `${h}h ${String(m).padStart(2, '0')}m`;
  if (m > 0) return `${m}m ${String(rest).padStart(2, '0')}s`;
  return `${rest}s`;
}

/**
 * One line of a rebuild's progress: how far (of the events it will read), how fast, and how long is
 * left at that rate. The total is counted before the replay starts; events appended meanwhile make the
 * figure run past 100 %, so it is capped there.
 */
export function progressLine(done: number, total: number, elapsedSeconds: number): string {
  const rate = elapsedSeconds > 0 ? done / elapsedSeconds : 0;
  const percent = total > 0 ? Math.min(100, (done / total) * 100) : 100;
  const left = rate > 0 ? duration(Math.max(0, total - done) / rate) : 'unknown';
  return `${count(done)} / ${count(total)} events (${percent.toFixed(1)} %), ${count(rate)} events/s, ${left} left`;
}

/**
 * A progress callback for `rebuildProjectors` that writes a line at most every `everyMs` (and none
 * for a rebuild done within it), so a replay of millions of events says where it is without flooding
 * the terminal.
 */
export function progressReporter(
  total: number,
  write: (line: string) => void,
  now: () => number = () => performance.now(),
  everyMs = 1000,
): (done: number) => void {
  const started = now();
  let last = started;
  return (done) => {
    const t = now();
    if (t - last < everyMs) return;
    last = t;
    write(progressLine(done, total, (t - started) / 1000));
  };
}
