import { projector } from '../projector.ts';

export const merchantSearchesProjector = projector({
  name: 'merchant_searches',
  tables: ['read.merchant_searches'],
  handlers: {
    MerchantSearched: async (tx, e) => {
      if (e.data.merchantIds.length === 0) return;
      await tx.query(
        `insert into read.merchant_searches (merchant_id, account_id, searched_at, event_id)
         select m, $2, $3, $4 from unnest($1::uuid[]) as m on conflict do nothing`,
        [e.data.merchantIds, e.data.accountId, e.recordedAt, e.id],
      );
    },
  },
});
