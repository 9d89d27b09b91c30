import { projector } from '../projector.ts';

// Named statements: under load this projector runs several times a second.
export const merchantSearchesProjector = projector({
  name: 'merchant_searches',
  tables: ['read.merchant_searches', 'read.ein_searches', 'read.account_daily_searches'],
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
        await tx.query({
          name: 'mrn_project_daily_searches',
          text: `insert into read.account_daily_searches (account_id, day, searches)
           select r."accountId", (r.at at time zone 'utc')::date, count(*)::int
           from jsonb_to_recordset($1::jsonb) as r("accountId" uuid, at timestamptz)
           group by 1, 2
           on conflict (account_id, day) do update set searches = read.account_daily_searches.searches + excluded.searches`,
          values: [JSON.stringify(events.map((e) => ({ accountId: e.data.accountId, at: e.recordedAt })))],
        });
        const einRows = events
          .filter((e) => e.data.einSearch)
          .map((e) => ({
            fein: e.data.term.replace(/[\s-]/g, ''),
            accountId: e.data.accountId,
            at: e.recordedAt,
            eventId: e.id,
          }));
        if (einRows.length > 0) {
          await tx.query({
            name: 'mrn_project_ein_searches',
            text: `insert into read.ein_searches (fein, account_id, searched_at, event_id)
             select r.fein, r."accountId", r.at, r."eventId"
             from jsonb_to_recordset($1::jsonb) as r(fein text, "accountId" uuid, at timestamptz, "eventId" uuid)
             on conflict do nothing`,
            values: [JSON.stringify(einRows)],
          });
        }
        if (rows.length === 0) return;
        await tx.query({
          name: 'mrn_project_merchant_searches',
          text: `insert into read.merchant_searches (merchant_id, account_id, searched_at, event_id)
           select r."merchantId", r."accountId", r.at, r."eventId"
           from jsonb_to_recordset($1::jsonb) as r("merchantId" uuid, "accountId" uuid, at timestamptz, "eventId" uuid)
           on conflict do nothing`,
          values: [JSON.stringify(rows)],
        });
      },
    },
  },
});
