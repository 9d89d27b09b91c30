import { projector } from '../projector.ts';

/**
 * Merchant subscriptions (`subscriptions-{accountId}`): the EINs each account watches, with when it
 * began watching them, how (`source`) and, for a watch a search made, until when (`watch_until`), and
 * the account's CSV imports with their status and counts.
 */
export const merchantSubscriptionsProjector = projector({
  name: 'merchant_subscriptions',
  tables: ['read.merchant_subscriptions', 'read.merchant_subscription_imports'],
  handlers: {
    MerchantSubscriptionsAdded: async (tx, e) => {
      // An EIN already watched is recorded again only to change its watch (a search made it longer, or
      // a person subscribed it for good): it keeps the date it was first watched.
      await tx.query(
        `insert into read.merchant_subscriptions (account_id, fein, created_at, source, watch_until)
         select $1, fein, $3, $4, $5 from unnest($2::text[]) as fein
         on conflict (account_id, fein) do update
           set source = excluded.source, watch_until = excluded.watch_until`,
        [e.data.accountId, e.data.feins, e.recordedAt, e.data.source, e.data.watchUntil ?? null],
      );
    },
    MerchantSubscriptionsRemoved: async (tx, e) => {
      await tx.query(
        'delete from read.merchant_subscriptions where account_id = $1 and fein = any($2::text[])',
        [e.data.accountId, e.data.feins],
      );
    },
    SubscriptionImportQueued: async (tx, e) => {
      await tx.query(
        `insert into read.merchant_subscription_imports (id, account_id, file_name, file_size, status, created_at)
         values ($1, $2, $3, $4, 'queued', $5) on conflict (id) do nothing`,
        [e.data.importId, e.data.accountId, e.data.fileName, e.data.fileSize, e.recordedAt],
      );
    },
    SubscriptionImportStarted: async (tx, e) => {
      await tx.query(`update read.merchant_subscription_imports set status = 'processing' where id = $1`, [
        e.data.importId,
      ]);
    },
    SubscriptionImportFinished: async (tx, e) => {
      const d = e.data;
      await tx.query(
        `update read.merchant_subscription_imports
            set status = 'done', processed = $2, imported = $3, skipped = $4, errors = $5, finished_at = $6
          where id = $1`,
        [d.importId, d.processed, d.imported, d.skipped, d.errors, e.recordedAt],
      );
    },
    SubscriptionImportFailed: async (tx, e) => {
      await tx.query(
        `update read.merchant_subscription_imports set status = 'failed', finished_at = $2 where id = $1`,
        [e.data.importId, e.recordedAt],
      );
    },
  },
});
