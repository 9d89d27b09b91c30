-- Events the dispatcher has applied when it reads them from Kafka (KAFKA_BROKERS set). The bus delivers
-- at least once (a relay that crashed publishes again, a consumer that crashed reads again from its last
-- commit) and has no position order across partitions, so there is no checkpoint to skip by: an event is
-- applied only if its id goes in here, in the same transaction as the outbox rows and state it writes.
-- Only events the dispatcher handles are recorded (others change nothing when read twice). Rows are
-- kept: a consumer group reset to an old offset must still find them.
create table webhook_kafka_events (
  event_id   uuid primary key,
  position   text not null,
  applied_at timestamptz not null default now()
);

-- Events the dispatcher cannot read (their data fails the catalogue's schema). Not sent, and not in the
-- way: the dispatcher records them here, logs a warning and carries on with the rest of its batch, where
-- a projector halts (projection_quarantine) because its read model would otherwise be wrong. Once the
-- cause is fixed (an upcaster), an operator can deal with the listed events by hand.
create table webhook_quarantine (
  event_id  uuid primary key,
  position  text not null,
  stream_id text not null,
  type      text not null,
  reason    text not null,
  at        timestamptz not null default now()
);
