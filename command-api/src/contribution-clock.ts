import { randomUUID } from 'node:crypto';
import { streams } from '@mrn/contracts';
import {
  type Clock,
  type EventStore,
  type Logger,
  type Pool,
  WrongExpectedRevisionError,
} from '@mrn/platform';
import { assessAllContributions } from './accounts/contribution.ts';
import { expireSearchWatches } from './merchant-subscriptions/watch-expiry.ts';

const DAY_MS = 86_400_000;

export const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

/**
 * Marks the start of the UTC day `day` in the contribution clock, once: of several processes (or a
 * restart on the same day) exactly one appends it, at the revision it read. Returns whether this call
 * appended it.
 */
export async function startContributionDay(store: EventStore, day: string): Promise<boolean> {
  const stream = streams.contributionClock();
  let revision: bigint | undefined;
  let lastDay: string | undefined;
  for await (const event of store.readStream(stream)) {
    revision = event.revision;
    lastDay = (event.data as { day?: string }).day;
  }
  if (lastDay !== undefined && lastDay >= day) return false;
  try {
    await store.appendToStream(
      stream,
      [{ id: randomUUID(), type: 'ContributionDayStarted', data: { day }, metadata: { source: 'system' } }],
      { expectedRevision: revision ?? 'no_stream' },
    );
    return true;
  } catch (err) {
    if (err instanceof WrongExpectedRevisionError) return false;
    throw err;
  }
}

/**
 * The daily job of DESIGN §4: at 00:00 UTC (and at start, for a day begun while no server ran) a new
 * day starts, the contribution projector recomputes every account's windows as of it, and the process
 * that started the day assesses every funder (warning, lock, lift).
 */
export function runContributionClock(deps: { store: EventStore; pool: Pool; clock: Clock; logger: Logger }): {
  stop(): void;
} {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const tick = async () => {
    try {
      if (await startContributionDay(deps.store, utcDay(deps.clock.now()))) {
        await assessAllContributions(deps, deps.clock.now());
      }
      // Search watches that reached their end go in every process at each midnight and at start, not
      // only in the one that started the day: ending them is idempotent, and a day's pass missed by a
      // crash is caught up by the next start.
      await expireSearchWatches(deps, deps.clock.now());
    } catch (err) {
      deps.logger.error({ err }, 'the contribution day could not be started; retrying in a minute');
      if (!stopped) timer = setTimeout(() => void tick(), 60_000).unref();
      return;
    }
    if (stopped) return;
    const now = deps.clock.now().getTime();
    const nextMidnight = Math.floor(now / DAY_MS) * DAY_MS + DAY_MS;
    timer = setTimeout(() => void tick(), nextMidnight - now + 50);
    timer.unref();
  };
  void tick();
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
