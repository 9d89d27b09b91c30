-- Merchant subscriptions (accounts spec §3): the EINs each account watches, and its CSV imports.
create table read.merchant_subscriptions (
  account_id uuid not null,
  fein       text not null,
  created_at timestamptz not null,
  primary key (account_id, fein)
);
-- has_merchant_subscription on a merchant: is this EIN watched by the caller's account.
create index merchant_subscriptions_by_fein on read.merchant_subscriptions (fein);
create index merchant_subscriptions_by_time on read.merchant_subscriptions (account_id, created_at desc, fein);

create table read.merchant_subscription_imports (
  id          uuid primary key,
  account_id  uuid not null,
  file_name   text not null,
  file_size   bigint not null,
  status      text not null,
  processed   integer not null default 0,
  imported    integer not null default 0,
  skipped     integer not null default 0,
  errors      integer not null default 0,
  created_at  timestamptz not null,
  finished_at timestamptz
);
create index merchant_subscription_imports_by_account on read.merchant_subscription_imports (account_id, created_at desc);
