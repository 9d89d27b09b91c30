-- The notes of each merchant as the merchants projector needs them to keep "Latest Note" right when a
-- note is edited or archived: its own table, so it never reads another projector's (possibly lagging)
-- read model. Filled from read.notes once here; a rebuild of `merchants` fills it from the log.
create table read.merchant_note_index (
  note_id     uuid primary key,
  merchant_id uuid not null,
  category    text not null,
  at          timestamptz not null,
  archived    boolean not null default false
);
create index merchant_note_index_latest on read.merchant_note_index (merchant_id, at desc) where not archived;

insert into read.merchant_note_index (note_id, merchant_id, category, at, archived)
select id, merchant_id, category, created_at, archived_at is not null from read.notes;
