-- Idempotency-Key: the request a key was first used with, by caller. The same key with the same
-- request is a retry (its record ids are derived from the key, so nothing is recorded twice); with a
-- different request it is refused with 422, never answered with the first request's result.
create table idempotency_keys (
  scope        text primary key,
  request_hash text not null,
  created_at   timestamptz not null default now()
);
