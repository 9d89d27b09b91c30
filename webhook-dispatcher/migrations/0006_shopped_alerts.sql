-- "Being shopped" alerts (issue 24): the dispatcher's own record of when each funder last looked each
-- merchant up (the searches contracts/src/domain/inquiries.ts counts), kept in log order in its intake
-- transaction, so that exactly one search is the one that takes a watched merchant to an account's
-- threshold. Searches recorded before this migration are not in it: the first week after it counts
-- from here.
create table webhook_inquiries (
  merchant_id      uuid not null,
  account_id       uuid not null,
  last_searched_at timestamptz not null,
  primary key (merchant_id, account_id) include (last_searched_at)
);

-- The funder's settings, from AccountUpdated: its threshold (null: off) and the types its webhook
-- endpoint receives (null: every type; e-mail always gets every type).
alter table webhook_accounts
  add column shopped_threshold  integer default 3,
  add column webhook_event_types text[];
