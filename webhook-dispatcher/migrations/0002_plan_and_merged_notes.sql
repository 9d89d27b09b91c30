-- Notifications are a PRO feature: once an account is downgraded to BASIC or its membership ends, its
-- watches stay (they come back with PRO) but nothing is sent. The dispatcher keeps the plan from the
-- log like the rest of its state, as of each event.
alter table webhook_accounts
  add column plan_level text,
  add column membership_canceled boolean not null default false;

-- A merchant added with its first note is one notification (Merchant Added, with the note), not two:
-- the note is folded into the merchant's pending rows when it comes from the same request.
alter table webhook_merchants
  add column added_event_id uuid,
  add column added_correlation text;

-- The new columns are derived from the log: read it again from the start. Outbox rows already written
-- are not written twice (webhook_deliveries_once), so the replay only rebuilds the dispatcher's state.
delete from subscription_checkpoints where name = 'webhook-dispatcher';
