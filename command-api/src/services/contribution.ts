import type { EventStore, Logger, Pool } from '@mrn/platform';
import { accounts } from '../aggregates.ts';

/**
 * The account's 90-day contribution as of `now`, computed by the contribution read model's own
 * function (projections migration 0010), the one the projector stores figures with.
 */
export async function ninetyDayContribution(pool: Pool, accountId: string, now: Date): Promise<number> {
  const { rows } = await pool.query<{ percent: string }>(
    'select read.contribution_percent($1::uuid, $2, 90) as percent',
    [accountId, now],
  );
  return Number(rows[0]?.percent ?? 100);
}

/**
 * The daily assessment (DESIGN §4): every open funder's 90-day figure judged by its account decider,
 * which issues a warning, locks at the warning's expiry or lifts both. One account failing does not
 * stop the others; the next day (or a Recalculate) assesses it again.
 */
export async function assessAllContributions(
  deps: { pool: Pool; store: EventStore; logger: Logger },
  now: Date,
): Promise<{ assessed: number; changed: number }> {
  const { rows } = await deps.pool.query<{ id: string }>(
    'select id from read.accounts where archived_at is null and not is_platform order by id',
  );
  let changed = 0;
  for (const { id } of rows) {
    try {
      const percent = await ninetyDayContribution(deps.pool, id, now);
      const result = await accounts.handle(
        deps,
        id,
        { type: 'AssessContribution', percent, requested: false },
        { now },
        { source: 'system' },
      );
      if (result.events.length > 0) changed += 1;
    } catch (err) {
      deps.logger.error({ err, accountId: id }, 'contribution assessment failed for an account');
    }
  }
  return { assessed: rows.length, changed };
}
