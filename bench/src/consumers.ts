import { DISPUTE_MAIL_CHECKPOINT, SEARCH_WATCH_CHECKPOINT } from '@mrn/command-api';
import { PostgresEventStore } from '@mrn/platform';
import { CHECKPOINT_NAME as DISPATCHER_CHECKPOINT } from '@mrn/webhook-dispatcher';
import type { Pool } from 'pg';

/**
 * The consumers a server process starts besides the projections (whose checkpoints the rebuild sets).
 * On a freshly seeded log they begin at its start; a live system has long been following it.
 */
export const LIVE_CONSUMERS = [
  DISPATCHER_CHECKPOINT,
  SEARCH_WATCH_CHECKPOINT,
  DISPUTE_MAIL_CHECKPOINT,
] as const;

/**
 * Waits until every live consumer's checkpoint has reached the log's head, so that a measurement
 * sees the steady state and not a catch-up over millions of events running beside it.
 * Returns the seconds waited. Idle consumers write their checkpoint every few seconds at most.
 */
export async function waitForConsumers(pool: Pool, timeoutSeconds: number): Promise<number> {
  const started = performance.now();
  const head = await new PostgresEventStore(pool).headPosition();
  for (;;) {
    const { rows } = await pool.query<{ name: string; position: string }>(
      'select name, position from subscription_checkpoints where name = any($1)',
      [LIVE_CONSUMERS],
    );
    const behind = LIVE_CONSUMERS.filter((name) => {
      const at = rows.find((r) => r.name === name)?.position;
      return at === undefined || at < head;
    });
    const waited = (performance.now() - started) / 1000;
    if (behind.length === 0) return waited;
    if (waited > timeoutSeconds)
      throw new Error(
        `consumers still behind the log's head after ${timeoutSeconds} s: ${behind.join(', ')}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}
