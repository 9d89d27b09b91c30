-- Contribution (DESIGN §4): per account, 100 × (merchants and notes it added in the window) ÷
-- (distinct merchants it searched in the window), for windows of 90, 30, 14 and 7 days; no search in
-- the window → 100. The figures are computed as of an event's time (an add, a search, a new UTC day
-- from the contribution clock, a requested recalculation), so a replay computes exactly what was
-- computed live; nothing scans the log when a figure is read.

-- One row per merchant or note an account added: the numerator of every window.
create table read.contribution_records (
  event_id   uuid primary key,
  account_id uuid not null,
  added_at   timestamptz not null
);
create index contribution_records_by_account on read.contribution_records (account_id, added_at);

-- When each account last searched each merchant: distinct merchants searched in any window that
-- ends now are those whose last search is inside it.
create table read.contribution_searches (
  account_id       uuid not null,
  merchant_id      uuid not null,
  last_searched_at timestamptz not null,
  primary key (account_id, merchant_id)
);
create index contribution_searches_by_time on read.contribution_searches (account_id, last_searched_at);

create table read.account_contribution (
  account_id  uuid primary key,
  ninety_day  numeric(14, 2) not null,
  month       numeric(14, 2) not null,
  two_week    numeric(14, 2) not null,
  week        numeric(14, 2) not null,
  -- The time the figures are as of.
  computed_at timestamptz not null
);

-- A window of `days` ending at `as_of` holds what happened at or after `as_of - days` and not after
-- `as_of`: a record exactly 7 days old is still in the 7-day window.
create function read.contribution_percent(account uuid, as_of timestamptz, days integer) returns numeric
language sql stable as $$
  select case when searched.n = 0 then 100::numeric
              else round(100.0 * added.n / searched.n, 2) end
  from (select count(*) as n from read.contribution_records
         where account_id = account and added_at between as_of - make_interval(days => days) and as_of) added,
       (select count(*) as n from read.contribution_searches
         where account_id = account and last_searched_at between as_of - make_interval(days => days) and as_of) searched
$$;

create function read.recompute_contribution(accounts uuid[], as_of timestamptz) returns void
language sql as $$
  insert into read.account_contribution as c (account_id, ninety_day, month, two_week, week, computed_at)
  select id, read.contribution_percent(id, as_of, 90), read.contribution_percent(id, as_of, 30),
         read.contribution_percent(id, as_of, 14), read.contribution_percent(id, as_of, 7), as_of
    from unnest(accounts) as id
  on conflict (account_id) do update
    set ninety_day = excluded.ninety_day, month = excluded.month, two_week = excluded.two_week,
        week = excluded.week, computed_at = excluded.computed_at
$$;

-- The contribution rule's state, from the account's own events (warning, lock, override); the
-- figures themselves are in read.account_contribution, so the old fixed column goes.
alter table read.accounts
  drop column ninety_day_contribution,
  add column contribution_warning_date        timestamptz,
  add column contribution_warning_expire_date timestamptz,
  add column contribution_locked              boolean not null default false,
  add column contribution_override            boolean not null default false;
