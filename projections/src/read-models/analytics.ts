import { projector } from '../projector.ts';

// Counts add up per (account, UTC day): every statement is an upsert adding to a counter, so events
// commute and a batch is one statement per event type whatever its size (searches come by thousands).
const COUNT_SEARCHES = `with s as (
    select * from json_to_recordset($1::json)
      as r("accountId" uuid, at timestamptz, api boolean, hit boolean, categories text[])
  ), daily as (
    insert into read.analytics_daily_searches (account_id, day, web_searches, api_searches, hits)
    select "accountId", (at at time zone 'utc')::date,
           count(*) filter (where not api)::int, count(*) filter (where api)::int, count(*) filter (where hit)::int
      from s group by 1, 2
    on conflict (account_id, day) do update set
      web_searches = read.analytics_daily_searches.web_searches + excluded.web_searches,
      api_searches = read.analytics_daily_searches.api_searches + excluded.api_searches,
      hits = read.analytics_daily_searches.hits + excluded.hits
  )
  insert into read.analytics_daily_hits (account_id, day, category, hits)
  select s."accountId", (s.at at time zone 'utc')::date, c.category, count(*)::int
    from s, unnest(s.categories) as c(category)
   where c.category is not null
   group by 1, 2, 3
  on conflict (account_id, day, category) do update set hits = read.analytics_daily_hits.hits + excluded.hits`;

const COUNT_ADDITIONS = (column: 'merchants_added' | 'notes_added') => `
  insert into read.analytics_daily (account_id, day, ${column})
  select "accountId", (at at time zone 'utc')::date, count(*)::int
    from json_to_recordset($1::json) as r("accountId" uuid, at timestamptz)
   group by 1, 2
  on conflict (account_id, day) do update set ${column} = read.analytics_daily.${column} + excluded.${column}`;

const additions = (events: readonly { recordedAt: Date; data: { accountId: string } }[]) =>
  JSON.stringify(events.map((e) => ({ accountId: e.data.accountId, at: e.recordedAt })));

/**
 * Per-account, per-day figures of the analytics charts and widgets (accounts spec §2, §3) from the event
 * log: merchants and notes added. The searches' figures come from the search log (`analyticsSearchesProjector`).
 */
export const analyticsProjector = projector({
  name: 'analytics',
  tables: ['read.analytics_daily'],
  bulk: {
    order: ['MerchantAdded', 'NoteAdded'],
    handlers: {
      MerchantAdded: async (tx, events) => {
        await tx.query({
          name: 'mrn_analytics_merchants',
          text: COUNT_ADDITIONS('merchants_added'),
          values: [additions(events)],
        });
      },
      NoteAdded: async (tx, events) => {
        await tx.query({
          name: 'mrn_analytics_notes',
          text: COUNT_ADDITIONS('notes_added'),
          values: [additions(events)],
        });
      },
    },
  },
});

/** Searches by source and day, hits, and hits by the category of the merchant found, from the search log. */
export const analyticsSearchesProjector = projector({
  name: 'analytics_searches',
  log: 'searches',
  tables: ['read.analytics_daily_searches', 'read.analytics_daily_hits'],
  bulk: {
    order: ['MerchantSearched'],
    handlers: {
      MerchantSearched: async (tx, events) => {
        await tx.query({
          name: 'mrn_analytics_searches',
          text: COUNT_SEARCHES,
          values: [
            JSON.stringify(
              events.map((e) => ({
                accountId: e.data.accountId,
                at: e.recordedAt,
                api: e.data.source === 'api',
                hit: e.data.hit,
                // A hit counts once per merchant found, in the category that merchant had then.
                categories: e.data.categories ?? [],
              })),
            ),
          ],
        });
      },
    },
  },
});
