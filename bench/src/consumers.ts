import { CONTRIBUTION_REACTOR_CHECKPOINT, MAIL_CHECKPOINT, SEARCH_WATCH_CHECKPOINT } from '@mrn/command-api';
import { encodePosition, type Position, PostgresEventStore, readCheckpoints, START } from '@mrn/platform';
import { allProjectors, liveGroup } from '@mrn/projections';
import { CHECKPOINT_NAME as DISPATCHER_CHECKPOINT, LOOKUPS_CHECKPOINT } from '@mrn/webhook-dispatcher';
import type { Pool } from 'pg';

/**
 * The consumers a server process starts besides the projections (whose checkpoints the rebuild sets):
 * the webhook intake (event log), the dispatcher's reader of projections' being-shopped feed, the
 * search-watch reactor (projections' feed of candidates), the contribution reactor and the dispute
 * mailer's outbox.
 * On a freshly seeded log they begin at its start; a live system has long been following it.
 */
export const LIVE_CONSUMERS = [
  DISPATCHER_CHECKPOINT,
  LOOKUPS_CHECKPOINT,
  SEARCH_WATCH_CHECKPOINT,
  CONTRIBUTION_REACTOR_CHECKPOINT,
  MAIL_CHECKPOINT,
] as const;

/** The projections' live groups: one reader and one checkpoint per log for every projector up to date. */
export const PROJECTION_GROUPS = [liveGroup('events'), liveGroup('searches')] as const;

/**
 * Every follower of the logs a server process runs: the projections' live groups, each projector (its row
 * reads `@<group>`, the group it follows: the live group's, or a catching-up group's while it is behind)
 * and the live consumers.
 */
export const ALL_FOLLOWERS = [...PROJECTION_GROUPS, ...allProjectors.map((p) => p.name), ...LIVE_CONSUMERS];

/**
 * The newest position of both logs (the event log and the search log share one position space), of
 * transactions every snapshot sees as ended, as `headPosition` takes the event log's.
 */
export async function headOfLogs(pool: Pool): Promise<Position> {
  const events = await new PostgresEventStore(pool).headPosition();
  const { rows } = await pool.query<{ tx: string; position: string }>(
    `select transaction_id::text as tx, position from search_log
      where transaction_id < pg_snapshot_xmin(pg_current_snapshot())
      order by transaction_id desc, position desc limit 1`,
  );
  const searches = rows[0] ? encodePosition(rows[0].tx, rows[0].position) : START;
  // Positions are strings whose order is the logs' (not numbers for Math.max).
  return [events, searches].sort().at(-1)!;
}

/**
 * Waits until each named checkpoint has reached the logs' head (as it was when the wait began), so that
 * a measurement sees the steady state and not a catch-up over millions of events running beside it.
 * A follower's position is its group's (`readCheckpoints` resolves `@<group>`); a position at or past the
 * head is caught up (a reader that has read everything stands at the log's horizon, past its last event).
 * Returns the seconds waited. Consumers write their checkpoint within a second of catching up.
 */
export async function waitForCheckpoints(
  pool: Pool,
  names: readonly string[],
  timeoutSeconds: number,
): Promise<number> {
  const started = performance.now();
  const head = await headOfLogs(pool);
  for (;;) {
    const positions = await readCheckpoints(pool, names);
    const behind = names.filter((name) => {
      const at = positions.get(name);
      return at === undefined || at < head;
    });
    const waited = (performance.now() - started) / 1000;
    if (behind.length === 0) return waited;
    if (waited > timeoutSeconds)
      throw new Error(`still behind the logs' head after ${timeoutSeconds} s: ${behind.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}
