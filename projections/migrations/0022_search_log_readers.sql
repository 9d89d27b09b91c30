-- Issue 31: searches are facts of their own log, read by the projections' search group.
-- * The daily search count lives in one place, query-api's search_quota: the projected copy goes.
-- * Analytics' searches (by source, hits, hits by category) are kept by the search log's reader, in a table
--   of their own; analytics_daily keeps what the event log says (records added).
-- * A contribution figure is recomputed by both logs' readers, each as of its own events' times: never as
--   of an earlier time than it already is (read.recompute_contribution below), so the reader that comes
--   last leaves the figures of the latest time, whatever order the two logs were read in.
drop table read.account_daily_searches;

create table read.analytics_daily_searches (
  account_id   uuid not null,
  day          date not null,
  web_searches integer not null default 0,
  api_searches integer not null default 0,
  hits         integer not null default 0,
  primary key (account_id, day)
);
create index analytics_daily_searches_day on read.analytics_daily_searches (day);
alter table read.analytics_daily drop column web_searches, drop column api_searches, drop column hits;

create or replace function read.recompute_contribution(accounts uuid[], as_of timestamptz) returns void
language plpgsql as $$
declare
  v_account uuid;
  v_days integer;
  v_added bigint;
  v_searched bigint;
  v_old_start timestamptz;
  v_new_start timestamptz;
  v_records_before bigint;
  v_searched_before bigint;
  v_sign integer;
  v_lo timestamptz;
  v_hi timestamptz;
  v_percents numeric[];
  v_as_of timestamptz;
begin
  -- A day's start recomputes every other account: array_agg of none is null.
  foreach v_account in array coalesce(accounts, '{}') loop
    -- Never as of an earlier time than the account's figures already are: its records and searches come
    -- from two logs read apart, so whichever reader comes last computes as of the latest time.
    v_as_of := greatest(as_of, coalesce((select c.computed_at from read.account_contribution c
                                          where c.account_id = v_account), as_of));
    -- Everything the account added and searched up to `v_as_of`.
    v_added := coalesce((select t.records from read.contribution_totals t where t.account_id = v_account), 0)
      - (select coalesce(sum(a.records), 0) from read.contribution_additions a
          where a.account_id = v_account and a.added_at > v_as_of);
    v_searched := coalesce((select t.merchants from read.contribution_search_totals t where t.account_id = v_account), 0)
      - (select count(*) from read.contribution_searches s
          where s.account_id = v_account and s.last_searched_at > v_as_of);
    v_percents := '{}';
    foreach v_days in array array[90, 30, 14, 7] loop
      v_new_start := v_as_of - make_interval(days => v_days);
      select w.start_at, w.records_before, w.searched_before into v_old_start, v_records_before, v_searched_before
        from read.contribution_window_starts w where w.account_id = v_account and w.days = v_days;
      v_old_start := coalesce(v_old_start, '-infinity');
      v_sign := case when v_old_start > v_new_start then -1 else 1 end;
      v_lo := least(v_old_start, v_new_start);
      v_hi := greatest(v_old_start, v_new_start);
      v_records_before := coalesce(v_records_before, 0) + v_sign * (
        select coalesce(sum(a.records), 0) from read.contribution_additions a
         where a.account_id = v_account and a.added_at >= v_lo and a.added_at < v_hi);
      v_searched_before := coalesce(v_searched_before, 0) + v_sign * (
        select count(*) from read.contribution_searches s
         where s.account_id = v_account and s.last_searched_at >= v_lo and s.last_searched_at < v_hi);
      insert into read.contribution_window_starts as w (account_id, days, start_at, records_before, searched_before)
      values (v_account, v_days, v_new_start, v_records_before, v_searched_before)
      on conflict (account_id, days) do update
        set start_at = excluded.start_at, records_before = excluded.records_before,
            searched_before = excluded.searched_before;
      v_percents := v_percents || case when v_searched - v_searched_before = 0 then 100::numeric
        else round(100.0 * (v_added - v_records_before) / (v_searched - v_searched_before), 2) end;
    end loop;
    insert into read.account_contribution as c (account_id, ninety_day, month, two_week, week, computed_at)
    values (v_account, v_percents[1], v_percents[2], v_percents[3], v_percents[4], v_as_of)
    on conflict (account_id) do update
      set ninety_day = excluded.ninety_day, month = excluded.month, two_week = excluded.two_week,
          week = excluded.week, computed_at = excluded.computed_at;
  end loop;
end
$$;

-- What the search log's readers tell other services, so that none of them reads searches (issue 31): each
-- row names a search by its position in the search log (a position token), which the reader of the feed
-- keeps as its cursor; rows come in the log's order, one batch of searches at a time.
-- * Look-ups of merchants someone watches: the webhook dispatcher judges the being-shopped alerts from
--   them (the figures themselves are read from read.merchant_searches, as of each look-up's time).
create table read.watched_lookups (
  position    text primary key,
  search_id   uuid not null,
  searched_at timestamptz not null,
  merchant_id uuid not null,
  account_id  uuid not null
);
-- * Merchants identified by the searches of accounts that watch what they search: the search-watch
--   reactor decides each from the account's own stream, as of the search's position.
create table read.search_watch_candidates (
  position    text primary key,
  search_id   uuid not null,
  searched_at timestamptz not null,
  account_id  uuid not null,
  user_id     uuid not null,
  merchant_id uuid not null,
  fein        text not null
);
