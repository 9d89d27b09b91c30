-- Searches per account per UTC day: the BASIC plan's daily cap (accounts spec §1) and analytics.
create table read.account_daily_searches (
  account_id uuid not null,
  day        date not null,
  searches   integer not null,
  primary key (account_id, day)
);
