-- Indexes a rebuild drops while it replays the log and creates again at the end (one sort instead
-- of millions of insertions). Kept here until they exist again, so that a rebuild cut short has them
-- recreated by the next rebuild or the next start of the projections.
create table rebuild_deferred_indexes (
  name       text primary key,
  definition text not null
);
