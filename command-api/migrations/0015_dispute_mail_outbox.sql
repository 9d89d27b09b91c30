-- E-mails to a dispute's business owner (received, resolved): an outbox the dispute-mail reactor fills
-- in the same transaction as it moves its checkpoint (each event enqueued once), then sends, retrying
-- with a lease, so a crash neither loses nor, short of one between send and mark, repeats a message.
create table dispute_mail_outbox (
  event_id        uuid primary key,
  dispute_id      uuid not null,
  kind            text not null check (kind in ('received', 'resolved')),
  -- The event's place in the log: mails due together go out in the order things happened.
  log_position    text not null,
  mail_to         text not null,
  subject         text not null,
  body_text       text not null,
  created_at      timestamptz not null default now(),
  attempts        integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  claimed_until   timestamptz,
  sent_at         timestamptz,
  failed_at       timestamptz,
  last_error      text,
  -- One e-mail of each kind per dispute, whatever happens to the log reader.
  unique (dispute_id, kind)
);
create index dispute_mail_due on dispute_mail_outbox (next_attempt_at) where sent_at is null and failed_at is null;

-- Disputes received before these e-mails existed are not mailed now, long after the fact.
insert into dispute_mail_outbox (event_id, dispute_id, kind, log_position, mail_to, subject, body_text, sent_at,
  last_error)
select event_id, (data->>'disputeId')::uuid, 'received', '', data->>'email', '', '', now(),
       'not sent: received before dispute e-mails existed'
  from events where type = 'DisputeSubmitted'
on conflict do nothing;
