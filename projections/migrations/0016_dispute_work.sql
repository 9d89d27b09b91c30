-- Dispute work of platform administrators (issue 13): where each dispute stands, who has it, how it
-- ended, and its internal comment thread. Disputes recorded before this start as new, which they are
-- (no work event existed), so the projector's checkpoint stands.
alter table read.disputes
  add column status           text not null default 'new' check (status in ('new', 'in_review', 'resolved')),
  add column assigned_to_id   uuid,
  -- As named when assigned; the query prefers the user's current name.
  add column assigned_to_name text,
  add column resolved_at      timestamptz,
  add column resolution       text,
  add column explanation      text,
  add column resolved_by_id   uuid,
  add column resolution_note_id     uuid,
  add column resolution_merchant_id uuid,
  add column comment_count    integer not null default 0;

-- The queue: one status at a time (or the open ones), oldest first.
create index disputes_status_created on read.disputes (status, created_at, id);

create table read.dispute_comments (
  id          uuid primary key,
  dispute_id  uuid not null,
  author_id   uuid not null,
  author_name text not null,
  text        text not null,
  created_at  timestamptz not null,
  -- The log's order: comments of one moment still read in the order they were written.
  log_position text not null
);
create index dispute_comments_thread on read.dispute_comments (dispute_id, log_position);
