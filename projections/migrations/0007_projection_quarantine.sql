-- Events a projector could not apply after bounded retries. The projector halts at the first one (see
-- runner.ts for why) while every other projector carries on; /health answers 503 naming it. An operator
-- fixes the cause and runs `npm run projections -- retry <name>` (sets resolved_at: the running server
-- retries) or `npm run rebuild -- <name>` (deletes the rows and replays).
create table projection_quarantine (
  projector       text not null,
  event_id        uuid not null,
  position        text not null,
  stream_id       text not null,
  type            text not null,
  error           text not null,
  attempts        integer not null,
  first_failed_at timestamptz not null default now(),
  last_failed_at  timestamptz not null default now(),
  resolved_at     timestamptz,
  primary key (projector, event_id)
);
