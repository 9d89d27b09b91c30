import {
  type EventStore,
  PgNotifications,
  type Position,
  PROGRESS_CHANNEL,
  parseProgressNotice,
} from '@mrn/platform';
import { merchantAppends, type Owner } from './search-data.ts';

export interface LagResult {
  /** Measured commands the run meant to send (the rate × the measured seconds). */
  planned: number;
  /** Measured commands appended, and at what rate they went out. */
  commands: number;
  perSecond: number;
  /** Measured commands whose append failed. */
  failed: number;
  /** Per command: ms from its append's commit to the notice that every projector named has applied it. */
  lags: number[];
  /** The same, with when each command committed (performance.now()), in commit order. */
  samples: { committedAt: number; ms: number }[];
  /** Commands no notice covered within the grace period after the run, and failed ones. */
  unapplied: number;
}

/**
 * Live projection lag under load, as a user waiting on read-your-writes sees it: commands are appended
 * at a fixed rate (open loop: the next does not wait for the last), each an add of a new merchant with
 * its first note as the command side writes it (EinReserved and MerchantAdded + NoteAdded, two streams,
 * one append); its lag is the time from the append's commit until a projection progress notice
 * (`mrn_progress`, sent in the projection batch's own transaction) says every projector named is past it.
 * `during` runs beside it (searches), so the machine also serves them and the search log's readers
 * carry their facts.
 */
export async function measureProjectionLag(opts: {
  databaseUrl: string;
  store: EventStore;
  owner: Owner;
  /** Merchant numbers from here on are new (their EINs are not in the log yet). */
  firstMerchant: number;
  ratePerSecond: number;
  /** Measured seconds, after `warmupSeconds` at the same rate whose commands are not measured. */
  seconds: number;
  warmupSeconds: number;
  /** The projectors (checkpoint names) that must have applied a command: the event log's. */
  projectors: readonly string[];
  during?: () => Promise<unknown>;
}): Promise<LagResult> {
  const through = new Map<string, Position>();
  const pending: { position: Position; committedAt: number; measured: boolean }[] = [];
  const samples: { committedAt: number; ms: number }[] = [];
  const everyoneThrough = (): Position | undefined => {
    let min: Position | undefined;
    for (const name of opts.projectors) {
      const at = through.get(name);
      if (at === undefined) return undefined;
      if (min === undefined || at < min) min = at;
    }
    return min;
  };
  const settle = () => {
    const min = everyoneThrough();
    if (min === undefined) return;
    const now = performance.now();
    for (let i = pending.length - 1; i >= 0; i--) {
      const p = pending[i]!;
      if (p.position <= min) {
        if (p.measured) samples.push({ committedAt: p.committedAt, ms: now - p.committedAt });
        pending.splice(i, 1);
      }
    }
  };
  const notifications = new PgNotifications(opts.databaseUrl);
  await notifications.on(PROGRESS_CHANNEL, (payload) => {
    const notice = parseProgressNotice(payload);
    if (!notice) return;
    for (const name of notice.n) {
      const at = through.get(name);
      if (at === undefined || at < notice.p) through.set(name, notice.p);
    }
    settle();
  });
  try {
    const during = opts.during?.();
    const started = performance.now();
    const warmup = Math.round(opts.ratePerSecond * opts.warmupSeconds);
    const planned = Math.round(opts.ratePerSecond * opts.seconds);
    const total = warmup + planned;
    let sent = 0;
    let inFlight = 0;
    let failed = 0;
    const appends: Promise<void>[] = [];
    while (sent < total) {
      const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * opts.ratePerSecond));
      while (sent < due && inFlight < 256) {
        const measured = sent >= warmup;
        const i = opts.firstMerchant + sent++;
        inFlight++;
        appends.push(
          opts.store
            .appendMany(merchantAppends(i, 1, opts.owner))
            .then((results) => {
              const position = results
                .map((r) => r.position)
                .sort()
                .at(-1)!;
              pending.push({ position, committedAt: performance.now(), measured });
              settle();
            })
            .catch(() => {
              if (measured) failed++;
            })
            .finally(() => {
              inFlight--;
            }),
        );
      }
      await new Promise((r) => setTimeout(r, 1));
    }
    const seconds = (performance.now() - started) / 1000 - opts.warmupSeconds;
    await Promise.all(appends);
    await during;
    // Every command should be applied within a few seconds of the load's end.
    for (let waited = 0; pending.some((p) => p.measured) && waited < 10_000; waited += 50)
      await new Promise((r) => setTimeout(r, 50));
    samples.sort((a, b) => a.committedAt - b.committedAt);
    return {
      planned,
      commands: planned - failed,
      perSecond: (planned - failed) / seconds,
      failed,
      lags: samples.map((s) => s.ms).sort((a, b) => a - b),
      samples,
      unapplied: pending.filter((p) => p.measured).length + failed,
    };
  } finally {
    await notifications.close();
  }
}
