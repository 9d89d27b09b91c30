import { inquiredMerchant } from '@mrn/contracts';
import { projector } from '../projector.ts';

// One named statement for both tables: under load this projector runs many times a second.
const PROJECT_SEARCHES = `with s as (
    select * from json_to_recordset($1::json)
      as r("eventId" uuid, "accountId" uuid, at timestamptz, fein text, "merchantIds" uuid[], inquired uuid)
  ), eins as (
    insert into read.ein_searches (fein, account_id, searched_at, event_id)
    select fein, "accountId", at, "eventId" from s where fein is not null
    on conflict do nothing
  )
  insert into read.merchant_searches (merchant_id, account_id, searched_at, event_id, looked_up)
  select m, s."accountId", s.at, s."eventId", (m = s.inquired) is true from s, unnest(s."merchantIds") as m
  on conflict do nothing`;

/** Search history and counts (by merchant found, by EIN searched), from the search log. */
export const merchantSearchesProjector = projector({
  name: 'merchant_searches',
  log: 'searches',
  tables: ['read.merchant_searches', 'read.ein_searches'],
  bulk: {
    order: ['MerchantSearched'],
    handlers: {
      MerchantSearched: async (tx, events) => {
        await tx.query({
          name: 'mrn_project_searches',
          text: PROJECT_SEARCHES,
          values: [
            JSON.stringify(
              events.map((e) => ({
                eventId: e.id,
                accountId: e.data.accountId,
                at: e.recordedAt,
                // An EIN search counts for that EIN even when no merchant has it (search history).
                fein: e.data.einSearch ? e.data.term.replace(/[\s-]/g, '') : null,
                merchantIds: e.data.merchantIds,
                // Whether it counted as a look-up of the merchant (inquiry velocity's audit, issue 24).
                inquired: inquiredMerchant(e.data) ?? null,
              })),
            ),
          ],
        });
      },
    },
  },
});
