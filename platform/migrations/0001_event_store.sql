-- The system of record (DESIGN §3). position comes from a sequence at insert time; transaction_id
-- is what makes tailing gap-free: subscribers only read rows whose transaction is older than every
-- transaction still running.
create table events (
  position       bigint generated always as identity primary key,
  transaction_id xid8 not null default pg_current_xact_id(),
  stream_id      text not null,
  revision       bigint not null,
  event_id       uuid not null,
  type           text not null,
  data           jsonb not null,
  metadata       jsonb not null default '{}',
  recorded_at    timestamptz not null default now(),
  constraint events_stream_revision_key unique (stream_id, revision),
  constraint events_event_id_key unique (event_id)
);
create index events_tx_position on events (transaction_id, position);

-- Per-subscriber checkpoints (projections, dispatcher): the cursor pair, stored as its token.
create table subscription_checkpoints (
  name       text primary key,
  position   text not null,
  updated_at timestamptz not null default now()
);
