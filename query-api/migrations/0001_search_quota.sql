-- The BASIC daily search cap, taken atomically: one row per account and UTC day, incremented by the
-- statement that admits a search. The projected count (read.account_daily_searches) lags behind the
-- searches in flight, so checking it alone let searches sent at once overshoot the cap; each admission
-- starts from the larger of this count and the projected one, so the two never disagree downwards.
create table search_quota (
  account_id uuid not null,
  day        date not null,
  used       integer not null,
  primary key (account_id, day)
);
