import { MAIL_CHECKPOINT, SEARCH_WATCH_CHECKPOINT } from '@mrn/command-api';
import { PostgresEventStore } from '@mrn/platform';
import { allProjectors } from '@mrn/projections';
import { CHECKPOINT_NAME as DISPATCHER_CHECKPOINT } from '@mrn/webhook-dispatcher';
import type { Pool } from 'pg';

/**
 * The consumers a server process starts besides the projections (whose checkpoints the rebuild sets).
 * On a freshly seeded log they begin at its start; a live system has long been following it.
 */
export const LIVE_CONSUMERS = [DISPATCHER_CHECKPOINT, SEARCH_WATCH_CHECKPOINT, MAIL_CHECKPOINT] as const;

/** Every follower of the log a server process runs: its projections and its live consumers. */
export const ALL_FOLLOWERS = [...allProjectors.map((p) => p.name), ...LIVE_CONSUMERS];

/**
 * Waits until each named checkpoint has reached the log's head (as it was when the wait began), so
 * that a measurement sees the steady state and not a catch-up over millions of events running beside
 * it. Returns the seconds waited. Consumers write their checkpoint as soon as they have caught up.
 */
export async function waitForCheckpoints(
  pool: Pool,
  names: readonly string[],
  timeoutSeconds: number,
): Promise<number> {
  const started = performance.now();
  const head = await new PostgresEventStore(pool).headPosition();
  for (;;) {
    const { rows } = await pool.query<{ name: string; position: string }>(
      'select name, position from subscription_checkpoints where name = any($1)',
      [names],
    );
    const behind = names.filter((name) => {
      const at = rows.find((r) => r.name === name)?.position;
      return at === undefined || at < head;
    });
    const waited = (performance.now() - started) / 1000;
    if (behind.length === 0) return waited;
    if (waited > timeoutSeconds)
      throw new Error(`still behind the log's head after ${timeoutSeconds} s: ${behind.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}
