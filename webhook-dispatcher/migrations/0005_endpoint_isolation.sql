-- Issue 20: endpoints isolated from each other, attempts logged when they start, disabled endpoints
-- resumed by saving their URL again.

-- An attempt is written when its row is claimed, before any byte is sent, so a dispatcher killed
-- mid-request leaves it in the log. Until its outcome is written these stay null: in flight while the
-- row's lease runs, "interrupted: no answer recorded" once it has passed.
alter table webhook_attempts
  alter column duration_ms drop not null,
  alter column succeeded drop not null;

-- The circuit breaker of each endpoint (account + URL), shared by every dispatcher process. A row holds
-- an endpoint's run of consecutive failures; from the 5th, `open_until` parks it: its rows are not
-- claimed (their next_attempt_at is moved to the end of the pause, so the claim's index scan never
-- walks them) and spend no attempts. Once the pause is over one probe goes (`probing`, with
-- `open_until` moved to the probe's lease so that no other process probes meanwhile); a success removes
-- the row, a failure parks it again for twice as long, up to a cap.
create table webhook_endpoint_circuits (
  account_id           uuid not null,
  url                  text not null,
  consecutive_failures integer not null,
  open_until           timestamptz,
  pause_ms             integer,
  probing              boolean not null default false,
  primary key (account_id, url)
);
create index webhook_endpoint_circuits_open on webhook_endpoint_circuits (open_until) where open_until is not null;

-- An endpoint's open rows: parking and resuming move them, a probe takes its oldest due one.
create index webhook_deliveries_endpoint on webhook_deliveries (account_id, target, next_attempt_at)
  where status in ('pending', 'failed');

-- The dispatcher's checkpoint when an endpoint was disabled: an AccountUpdated saving the URL resumes it
-- only if it comes after (a replay of the log from the start must not resume every disabled endpoint).
alter table webhook_endpoints_disabled add column disabled_position text;
