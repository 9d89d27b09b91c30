-- Contribution figures in time independent of the account's history (DESIGN §4, performance).
-- Counting an account's records in each window at every recompute grew with its history: a replay
-- of a big funder's log recomputed after every batch and so became quadratic (the 1M-merchant replay
-- fell from 20,000 to 6,400 events/s). Now:
-- * records are counted per account and exact time (a row per record, with its event id as the key,
--   cost a random B-tree insert per merchant and note; the figures only ever needed the counts), and
-- * each window keeps, per account, how many records came before its start at the last recompute,
--   and how many searched merchants were last searched before it; the next recompute counts only
--   what lies between the old start and the new one, and what is after `as_of` (normally nothing).
--   Searching is as frequent as adding: every batch of searches recomputes its accounts.

create table read.contribution_additions (
  account_id uuid not null,
  added_at   timestamptz not null,
  records    integer not null,
  primary key (account_id, added_at)
);
insert into read.contribution_additions (account_id, added_at, records)
select account_id, added_at, count(*) from read.contribution_records group by account_id, added_at;

-- Every record an account added, counted as it is inserted.
create table read.contribution_totals (
  account_id uuid primary key,
  records    bigint not null
);
insert into read.contribution_totals (account_id, records)
select account_id, count(*) from read.contribution_records group by account_id;

drop table read.contribution_records;

-- Every merchant an account searched, counted as it is first searched.
create table read.contribution_search_totals (
  account_id uuid primary key,
  merchants  bigint not null
);
insert into read.contribution_search_totals (account_id, merchants)
select account_id, count(*) from read.contribution_searches group by account_id;

-- Per account and window length: the window's start at its last recompute, how many of the
-- account's records were added before it and how many of its searched merchants were last searched
-- before it. A record with an older time inserted later, or a merchant searched again (its last search
-- moving past the start), changes these as it is written.
create table read.contribution_window_starts (
  account_id      uuid not null,
  days            integer not null,
  start_at        timestamptz not null,
  records_before  bigint not null,
  searched_before bigint not null,
  primary key (account_id, days)
);

-- Records of the account added at or after `from_at` and before `to_at`.
create function read.contribution_added_between(account uuid, from_at timestamptz, to_at timestamptz)
returns bigint language sql stable as $$
  select coalesce(sum(a.records), 0) from read.contribution_additions a
   where a.account_id = account and a.added_at >= from_at and a.added_at < to_at
$$;

-- Merchants the account last searched at or after `from_at` and before `to_at`.
create function read.contribution_searched_between(account uuid, from_at timestamptz, to_at timestamptz)
returns bigint language sql stable as $$
  select count(*) from read.contribution_searches s
   where s.account_id = account and s.last_searched_at >= from_at and s.last_searched_at < to_at
$$;

-- The account's records and searched merchants before `before_at`: the window's stored figures,
-- moved by what lies between its stored start and `before_at` (added when the start moves forward,
-- taken off when it moves back); with no stored start yet, everything before `before_at`.
create function read.contribution_before(
  account uuid, before_at timestamptz, window_days integer, out records bigint, out searched bigint)
language sql stable as $$
  select coalesce(w.records_before, 0) + sign * read.contribution_added_between(account, lo, hi),
         coalesce(w.searched_before, 0) + sign * read.contribution_searched_between(account, lo, hi)
    from (select 1) as one
    left join read.contribution_window_starts w on w.account_id = account and w.days = window_days
    cross join lateral (select coalesce(w.start_at, '-infinity') as start_at) as s
    cross join lateral (select case when s.start_at > before_at then -1 else 1 end as sign,
                               least(s.start_at, before_at) as lo, greatest(s.start_at, before_at) as hi) as m
$$;

-- Records added and distinct merchants searched in the window of `days` ending at `as_of`, both ends
-- included (migration 0010): every one so far, less those after `as_of`, less those before the start.
create function read.contribution_in_window(
  account uuid, as_of timestamptz, days integer, out added bigint, out searched bigint)
language sql stable as $$
  select coalesce((select t.records from read.contribution_totals t where t.account_id = account), 0)
           - (select coalesce(sum(a.records), 0) from read.contribution_additions a
               where a.account_id = account and a.added_at > as_of)
           - b.records,
         coalesce((select t.merchants from read.contribution_search_totals t where t.account_id = account), 0)
           - (select count(*) from read.contribution_searches s
               where s.account_id = account and s.last_searched_at > as_of)
           - b.searched
    from read.contribution_before(account, as_of - make_interval(days => days), days) as b
$$;

create or replace function read.contribution_percent(account uuid, as_of timestamptz, days integer) returns numeric
language sql stable as $$
  select case when w.searched = 0 then 100::numeric else round(100.0 * w.added / w.searched, 2) end
    from read.contribution_in_window(account, as_of, days) as w
$$;

create or replace function read.recompute_contribution(accounts uuid[], as_of timestamptz) returns void
language plpgsql as $$
begin
  -- Move every window's start first, so that the figures below count from there.
  insert into read.contribution_window_starts as w (account_id, days, start_at, records_before, searched_before)
  select id, d, as_of - make_interval(days => d), b.records, b.searched
    from unnest(accounts) as id, unnest(array[90, 30, 14, 7]) as d,
         read.contribution_before(id, as_of - make_interval(days => d), d) as b
  on conflict (account_id, days) do update
    set start_at = excluded.start_at, records_before = excluded.records_before,
        searched_before = excluded.searched_before;

  insert into read.account_contribution as c (account_id, ninety_day, month, two_week, week, computed_at)
  select id, read.contribution_percent(id, as_of, 90), read.contribution_percent(id, as_of, 30),
         read.contribution_percent(id, as_of, 14), read.contribution_percent(id, as_of, 7), as_of
    from unnest(accounts) as id
  on conflict (account_id) do update
    set ninety_day = excluded.ninety_day, month = excluded.month, two_week = excluded.two_week,
        week = excluded.week, computed_at = excluded.computed_at;
end
$$;
