import { inquiredMerchant } from '@mrn/contracts';
import { projector } from '../projector.ts';

// One named statement for the three tables: under load this projector runs many times a second, and
// a statement per table cost each batch two more round trips.
const PROJECT_SEARCHES = `with s as (
    select * from jsonb_to_recordset($1::jsonb)
      as r("eventId" uuid, "accountId" uuid, at timestamptz, fein text, "merchantIds" uuid[], inquired uuid)
  ), daily as (
    insert into read.account_daily_searches (account_id, day, searches)
    select "accountId", (at at time zone 'utc')::date, count(*)::int from s group by 1, 2
    on conflict (account_id, day) do update set searches = read.account_daily_searches.searches + excluded.searches
  ), eins as (
    insert into read.ein_searches (fein, account_id, searched_at, event_id)
    select fein, "accountId", at, "eventId" from s where fein is not null
    on conflict do nothing
  )
  insert into read.merchant_searches (merchant_id, account_id, searched_at, event_id, looked_up)
  select m, s."accountId", s.at, s."eventId", (m = s.inquired) is true from s, unnest(s."merchantIds") as m
  on conflict do nothing`;

export const merchantSearchesProjector = projector({
  name: 'merchant_searches',
  tables: ['read.merchant_searches', 'read.ein_searches', 'read.account_daily_searches'],
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
