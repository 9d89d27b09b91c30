-- "Watch merchants we search" (issue 11): the account setting, and on each watched EIN how it came to be
-- watched and, for a watch a search made, until when it lasts (null: watched for good).
alter table read.accounts
  add column watch_searched_merchants boolean not null default false,
  add column watch_searched_months    integer not null default 12;

alter table read.merchant_subscriptions
  add column source      text not null default 'web',
  add column watch_until timestamptz;
-- The daily expiry pass looks for watches that have ended.
create index merchant_subscriptions_by_watch_until on read.merchant_subscriptions (watch_until)
  where watch_until is not null;

-- `source` of the rows already there is in the log, not in the table: rebuild both read models from the
-- start, as a rebuild would, so that incremental and replayed rows stay the same.
truncate read.merchant_subscriptions, read.merchant_subscription_imports;
delete from subscription_checkpoints where name = 'merchant_subscriptions';
