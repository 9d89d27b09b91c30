-- Account analytics (accounts spec §2, §3 "widget results"), kept incrementally per account and UTC
-- day: answering a chart reads at most `days` rows per account, never the log or the notes table.
create table read.analytics_daily (
  account_id      uuid not null,
  day             date not null,
  web_searches    integer not null default 0,
  api_searches    integer not null default 0,
  hits            integer not null default 0,
  merchants_added integer not null default 0,
  notes_added     integer not null default 0,
  primary key (account_id, day)
);
create index analytics_daily_day on read.analytics_daily (day);

-- Hits per category of the merchant found (its latest note's category when it was searched).
create table read.analytics_daily_hits (
  account_id uuid not null,
  day        date not null,
  category   text not null,
  hits       integer not null,
  primary key (account_id, day, category)
);
create index analytics_daily_hits_day on read.analytics_daily_hits (day);
