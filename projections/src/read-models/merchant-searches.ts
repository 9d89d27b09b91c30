import { projector } from '../projector.ts';

export const merchantSearchesProjector = projector({
  name: 'merchant_searches',
  tables: ['read.merchant_searches'],
  bulk: {
    order: ['MerchantSearched'],
    handlers: {
      MerchantSearched: async (tx, events) => {
        const rows = events.flatMap((e) =>
          e.data.merchantIds.map((merchantId) => ({
            merchantId,
            accountId: e.data.accountId,
            at: e.recordedAt,
            eventId: e.id,
          })),
        );
        if (rows.length === 0) return;
        await tx.query(
          `insert into read.merchant_searches (merchant_id, account_id, searched_at, event_id)
           select r."merchantId", r."accountId", r.at, r."eventId"
           from jsonb_to_recordset($1::jsonb) as r("merchantId" uuid, "accountId" uuid, at timestamptz, "eventId" uuid)
           on conflict do nothing`,
          [JSON.stringify(rows)],
        );
      },
    },
  },
});
