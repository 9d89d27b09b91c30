-- The search log (issue 31): every search the network serves is a fact, recorded here once, in batches,
-- beside the event log and like it platform's (the event store's family: its writer and reader are in
-- platform/src/search-log/, the shape of a search is the contracts' MerchantSearched);
-- with typed columns (a search was an event of the event log, written as JSON and read back by four
-- readers of the log). One reader follows it: the projections' search group keeps every figure made of
-- searches (history, look-ups, contribution, analytics) and the feeds the dispatcher and the search watch
-- read. Its positions come from the event log's sequence, with the same transaction ids: a position of
-- either log compares with a position of the other (X-Consistent-After holds one token), and each is
-- tailed without gaps in (transaction_id, position) order (DESIGN §3).
create table search_log (
  position       bigint primary key default nextval('events_position_seq'),
  transaction_id xid8 not null default pg_current_xact_id(),
  searched_at    timestamptz not null default now(),
  search_id      uuid not null,
  account_id     uuid not null,
  user_id        uuid not null,
  source         text not null check (source in ('web', 'api')),
  term           text not null,
  ein_search     boolean not null,
  merchant_ids   uuid[] not null,
  -- The category of each merchant found, as the searcher saw it; null before they were kept.
  categories     text[],
  hit            boolean not null,
  platform_admin boolean not null default false
);
create index search_log_tail on search_log (transaction_id, position);

-- The searches recorded before the search log, with their positions and times: the figures made of
-- them are read on from where they stand, and built again from here when a read model is rebuilt.
insert into search_log (position, transaction_id, searched_at, search_id, account_id, user_id, source, term,
                        ein_search, merchant_ids, categories, hit, platform_admin)
select e.position, e.transaction_id, e.recorded_at, e.event_id,
       (e.data ->> 'accountId')::uuid, (e.data ->> 'userId')::uuid, e.data ->> 'source', e.data ->> 'term',
       (e.data ->> 'einSearch')::boolean,
       array(select jsonb_array_elements_text(e.data -> 'merchantIds')::uuid),
       case when e.data ? 'categories' then array(select jsonb_array_elements_text(e.data -> 'categories')) end,
       (e.data ->> 'hit')::boolean, coalesce((e.data ->> 'platformAdmin')::boolean, false)
  from events e
 where e.type = 'MerchantSearched';
