-- The webhook dispatcher's own tables (DESIGN §1, §5). Its small copies of accounts, merchants and
-- watched EINs are kept from the log in the same transaction as its checkpoint, so what it matches an
-- event against is exactly the state as of that event (no read model that may lag behind it).
create table webhook_accounts (
  account_id    uuid primary key,
  name          text not null,
  enabled       boolean not null default false,
  email         text,
  webhook_url   text,
  archived      boolean not null default false
);

create table webhook_watches (
  account_id uuid not null,
  fein       text not null,
  primary key (fein, account_id)
);

create table webhook_merchants (
  merchant_id uuid primary key,
  fein        text not null,
  name        text not null
);

-- The outbox: one row per (event, watching account, channel), written with the checkpoint.
create table webhook_deliveries (
  id              uuid primary key default gen_random_uuid(),
  -- `webhook-id` of Standard Webhooks: the same on every retry, so receivers can de-duplicate.
  webhook_id      text not null unique,
  account_id      uuid not null,
  event_id        uuid,
  kind            text not null check (kind in ('webhook', 'email')),
  target          text not null,
  payload         jsonb not null,
  status          text not null default 'pending' check (status in ('pending', 'succeeded', 'failed', 'dead')),
  attempts        integer not null default 0,
  next_attempt_at timestamptz,
  -- A worker's lease on a claimed row; a crashed worker's rows are taken again once it has passed.
  claimed_until   timestamptz,
  last_error      text,
  created_at      timestamptz not null,
  finished_at     timestamptz
);
create unique index webhook_deliveries_once on webhook_deliveries (event_id, account_id, kind) where event_id is not null;
create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where status in ('pending', 'failed');
create index webhook_deliveries_account on webhook_deliveries (account_id, created_at desc);

create table webhook_attempts (
  delivery_id   uuid not null references webhook_deliveries (id) on delete cascade,
  attempt       integer not null,
  at            timestamptz not null,
  http_status   integer,
  duration_ms   integer not null,
  response_body text,
  error         text,
  succeeded     boolean not null,
  primary key (delivery_id, attempt)
);

-- Per-account signing secrets (`whsec_…`); the previous one keeps signing until previous_valid_until.
create table webhook_secrets (
  account_id           uuid primary key,
  secret               text not null,
  previous_secret      text,
  previous_valid_until timestamptz,
  created_at           timestamptz not null
);

-- An endpoint's run of failures: since when it has failed with no success in between.
create table webhook_endpoint_health (
  account_id    uuid not null,
  url           text not null,
  failing_since timestamptz not null,
  primary key (account_id, url)
);

-- Endpoints disabled after failing for 5 days; saving another URL enables delivery again.
create table webhook_endpoints_disabled (
  account_id  uuid not null,
  url         text not null,
  disabled_at timestamptz not null,
  primary key (account_id, url)
);
