import { identifiedMerchant, inquiredMerchant } from '@mrn/contracts';
import { projector } from '../projector.ts';

// Both feeds in one statement per batch. A look-up is fed when another account watches the merchant's EIN
// now; a candidate when its account watches what it searches now (the reactor then decides from the
// account's stream as of the search: a setting switched on within the last moments before a search
// may miss it, one switched off is decided exactly).
const FEED = `with s as (
    select * from json_to_recordset($1::json)
      as r(position text, "searchId" uuid, at timestamptz, "accountId" uuid, "userId" uuid, looked uuid, identified uuid)
  ), lookups as (
    insert into read.watched_lookups (position, search_id, searched_at, merchant_id, account_id)
    select s.position, s."searchId", s.at, s.looked, s."accountId"
      from s join read.merchants m on m.id = s.looked
     where exists (select 1 from read.merchant_subscriptions w
                    where w.fein = m.fein and w.account_id <> s."accountId")
    on conflict (position) do nothing
  )
  insert into read.search_watch_candidates (position, search_id, searched_at, account_id, user_id, merchant_id, fein)
  select s.position, s."searchId", s.at, s."accountId", s."userId", s.identified, m.fein
    from s
    join read.accounts a on a.id = s."accountId" and a.watch_searched_merchants
    join read.merchants m on m.id = s.identified
  on conflict (position) do nothing`;

/**
 * The search log's feeds for the services that act on searches without reading them (issue 31): the
 * webhook dispatcher (being-shopped alerts) and the search-watch reactor ("watch merchants we search").
 * Which rows are fed depends on the watches and settings when the searches are read, so a rebuild may
 * feed another set; their readers keep their cursor, so nothing is acted on twice.
 */
export const searchFeedsProjector = projector({
  name: 'search_feeds',
  log: 'searches',
  tables: ['read.watched_lookups', 'read.search_watch_candidates'],
  bulk: {
    order: ['MerchantSearched'],
    handlers: {
      MerchantSearched: async (tx, events) => {
        const rows = events.flatMap((e) => {
          const looked = inquiredMerchant(e.data) ?? null;
          const identified = identifiedMerchant(e.data) ?? null;
          return looked || identified
            ? [
                {
                  position: e.position,
                  searchId: e.id,
                  at: e.recordedAt,
                  accountId: e.data.accountId,
                  userId: e.data.userId,
                  looked,
                  identified,
                },
              ]
            : [];
        });
        if (rows.length > 0) await tx.query(FEED, [JSON.stringify(rows)]);
      },
    },
  },
});
