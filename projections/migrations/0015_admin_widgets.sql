-- The platform admins' dashboard widgets (accounts spec §2 "Widgets", §9), kept incrementally by the
-- admin_widgets projector: a widget reads a handful of counter rows or one index range, never the log
-- or the whole merchants or notes table.

-- One row per merchant: whose it is, whether it is live, its latest live note (any category, Merchant
-- Dispute included: only platform admins read these widgets), and its live notes by id as
-- [account id, category, added at]: what an archive needs (the note's account for its counter, the
-- merchant's other notes for its new latest one). Kept on the merchant's row rather than a row per note:
-- a replay then writes one row and one index entry per merchant, not four.
create table read.widget_merchants (
  merchant_id     uuid primary key,
  account_id      uuid not null,
  archived        boolean not null default false,
  latest_category text,
  latest_at       timestamptz,
  latest_note_id  uuid,
  notes           jsonb not null default '{}'
);
-- Recently Reported merchants, All and by category: `order by latest_at desc limit 20 offset …`.
create index widget_merchants_recent on read.widget_merchants (latest_at desc, merchant_id desc)
  where not archived and latest_at is not null;
create index widget_merchants_recent_category
  on read.widget_merchants (latest_category, latest_at desc, merchant_id desc)
  where not archived and latest_at is not null;

-- Live merchants and notes per account: the totals are sums over these rows (accounts are few).
create table read.widget_account_counts (
  account_id uuid primary key,
  merchants  integer not null default 0,
  notes      integer not null default 0
);

-- Live merchants per category of their latest live note: the Recently Reported pager's total.
create table read.widget_category_counts (
  category  text primary key,
  merchants integer not null default 0
);

-- Top and Bottom Contributors read the accounts read model's own figures (the Funders list's Merchants
-- Added and Notes Added): most first for Top, fewest first for Bottom, ties by name either way, so each
-- direction has its index and a page is one index range.
create index accounts_top_contributors on read.accounts
  ((merchants_added + notes_added) desc, lower(name), id)
  where archived_at is null and not is_platform;
create index accounts_bottom_contributors on read.accounts
  ((merchants_added + notes_added), lower(name), id)
  where archived_at is null and not is_platform;
