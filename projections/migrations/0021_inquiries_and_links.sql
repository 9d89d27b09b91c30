-- Inquiry velocity (issue 24): when each funder last looked each merchant up (a search that
-- identified it, by a funder: contracts/src/domain/inquiries.ts). A projector of its own
-- (projections/src/read-models/merchant-inquiries.ts): with no checkpoint yet, it replays the searches
-- already in the log when it first runs. One row per merchant and funder, so
-- "distinct other funders in the last n days" is a count of the rows newer than n days, read from the
-- primary key alone. `greatest` makes the upsert order-free: any batching of the log gives these rows.
create table read.merchant_inquiries (
  merchant_id      uuid not null,
  account_id       uuid not null,
  last_searched_at timestamptz not null,
  primary key (merchant_id, account_id) include (last_searched_at)
);

-- The figures as the viewer sees them at `as_of` (now, for every read; tests pass a fixed clock): other
-- funders only, windows (as_of - n days, as_of]. SQL, so a lateral call is inlined into the statement.
create function read.inquiry_velocity(merchant uuid, viewer uuid, as_of timestamptz)
returns table (last_7_days int, last_30_days int, last_90_days int)
language sql stable as $$
  select count(*) filter (where i.last_searched_at > as_of - interval '7 days')::int,
         count(*) filter (where i.last_searched_at > as_of - interval '30 days')::int,
         count(*)::int
    from read.merchant_inquiries i
   where i.merchant_id = merchant
     and i.account_id <> viewer
     and i.last_searched_at > as_of - interval '90 days'
$$;

-- Linked merchants (issue 24): each live merchant's normalised business phone and street address
-- (projections/src/read-models/merchant-link-keys.ts). Two merchants sharing a (kind, key) are
-- possibly the same business. An archived merchant has no keys: it drops out of every list.
create table read.merchant_link_keys (
  kind        text not null check (kind in ('phone', 'address')),
  key         text not null,
  merchant_id uuid not null,
  primary key (kind, key, merchant_id)
);
create index merchant_link_keys_merchant on read.merchant_link_keys (merchant_id);

-- "Being shopped" alerts and the webhook endpoint's event types (issue 24), as the funder set them:
-- a threshold of distinct other funders in 7 days (null: off; 3 until changed) and the types its
-- endpoint receives (null: every type).
alter table read.accounts
  add column shopped_alert_threshold integer default 3,
  add column webhook_event_types     text[];

-- Broker records (issue 24): every live note that names a broker as its submission source, by the
-- broker's normalised name (contracts/src/domain/brokers.ts). An archived note or merchant leaves it.
create table read.broker_notes (
  note_id     uuid primary key,
  broker_key  text not null,
  broker_name text not null,
  merchant_id uuid not null,
  reported_at timestamptz not null
);
create index broker_notes_key on read.broker_notes (broker_key, merchant_id);
create index broker_notes_merchant on read.broker_notes (merchant_id);

-- The audit of inquiry velocity (issue 24): whether each search that found a merchant counted as a
-- look-up of it. Null on searches projected before this column (`npm run rebuild -- merchant_searches`
-- fills them from the log).
alter table read.merchant_searches add column looked_up boolean;
