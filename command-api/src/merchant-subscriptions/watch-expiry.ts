import type { EventStore, Logger, Pool } from '@mrn/platform';
import { subscriptions } from './aggregate.ts';

/**
 * The daily pass of "watch merchants we search": every account with a search watch that ended by `now`
 * has it removed (MerchantSubscriptionsRemoved, reason `expired`). The read model only says which
 * accounts to look at; each account's own stream decides what has ended, so a read model behind the log
 * at worst leaves a watch to the next day, and the dispatcher already ignores a watch past its end.
 * One account failing does not stop the others.
 */
export async function expireSearchWatches(
  deps: { pool: Pool; store: EventStore; logger: Logger },
  now: Date,
): Promise<{ accounts: number; removed: number }> {
  const { rows } = await deps.pool.query<{ account_id: string }>(
    `select distinct account_id from read.merchant_subscriptions
      where watch_until is not null and watch_until <= $1 order by account_id`,
    [now],
  );
  let removed = 0;
  for (const { account_id: accountId } of rows) {
    try {
      const result = await subscriptions.handle(
        deps,
        accountId,
        { type: 'ExpireWatches' },
        { now },
        { source: 'system' },
      );
      for (const e of result.events)
        if (e.type === 'MerchantSubscriptionsRemoved') removed += e.data.feins.length;
    } catch (err) {
      deps.logger.error({ err, accountId }, 'expiring search watches failed for an account');
    }
  }
  return { accounts: rows.length, removed };
}
