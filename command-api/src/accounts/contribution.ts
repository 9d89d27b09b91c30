import type {
  Clock,
  EventMetadata,
  EventStore,
  Logger,
  Pool,
  Position,
  ReadModelProgress,
} from '@mrn/platform';
import { accounts } from './aggregate.ts';

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

/** What the 90-day figure is made of as of `now`: records added, distinct merchants searched, the figure. */
export async function contributionNow(
  pool: Pool,
  accountId: string,
  now: Date,
): Promise<{ added: number; searched: number; percent: number }> {
  const { rows } = await pool.query<{ added: string; searched: string; percent: string }>(
    `select w.added, w.searched, read.contribution_percent($1::uuid, $2, 90) as percent
       from read.contribution_in_window($1::uuid, $2, 90) as w`,
    [accountId, now],
  );
  const row = rows[0];
  return row
    ? { added: Number(row.added), searched: Number(row.searched), percent: Number(row.percent) }
    : { added: 0, searched: 0, percent: 100 };
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

/** How long the re-assessment after new records waits for the contribution read model to count them. */
export const REASSESS_WAIT_MS = 30_000;

/**
 * A funder under a contribution warning or lock added merchants or notes (the command appended up to
 * `position`): once the contribution read model has counted them, its 90-day figure is judged again by
 * the account decider, so a figure back at the minimum lifts the warning and lock at once rather than at
 * the next day's assessment. Run by the contribution reactor (contribution-reactor.ts), never by the request. A funder
 * in good standing costs one read of its stream. Returns the events the assessment appended.
 */
export async function reassessAfterRecords(
  deps: {
    pool: Pool;
    store: EventStore;
    clock: Clock;
    logger: Logger;
    readModels: ReadModelProgress;
  },
  accountId: string,
  position: Position,
  metadata: EventMetadata,
): Promise<number> {
  const { state } = await accounts.load(deps.store, accountId);
  if (state.status !== 'open' || (!state.contributionWarning && !state.contributionLocked)) return 0;
  if (!(await deps.readModels.waitFor(position, ['contribution'], REASSESS_WAIT_MS))) {
    // The daily assessment (or a Recalculate) decides it later.
    deps.logger.warn({ accountId, position }, 'contribution not re-assessed: the read model is behind');
    return 0;
  }
  const now = deps.clock.now();
  const percent = await ninetyDayContribution(deps.pool, accountId, now);
  const result = await accounts.handle(
    deps,
    accountId,
    { type: 'AssessContribution', percent, requested: false },
    { now },
    { ...metadata, source: 'system' },
  );
  return result.events.length;
}
