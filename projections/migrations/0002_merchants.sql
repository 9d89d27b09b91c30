create extension if not exists pg_trgm;

create table read.merchants (
  id                 uuid primary key,
  fein               char(9) not null,
  legal_name         text not null,
  dba                text,
  street1            text,
  street2            text,
  city               text not null,
  state              text not null,
  business_phone     text,
  business_startdate date,
  industry           text,
  account_id         uuid not null,
  user_id            uuid not null,
  created_at         timestamptz not null,
  updated_at         timestamptz,
  last_note_category text,
  last_note_at       timestamptz,
  archived_at        timestamptz,
  archive_reason     text,
  -- legal name and DBA folded to lower case: what keyword search matches against.
  search_text        text generated always as (lower(legal_name || ' ' || coalesce(dba, ''))) stored
);
-- EIN look-up: one live merchant per EIN, an index-only hit.
create unique index merchants_fein_live on read.merchants (fein) where archived_at is null;
create index merchants_fein_all on read.merchants (fein);
-- Keyword search: trigram similarity on name + DBA for live merchants.
create index merchants_search_trgm on read.merchants using gin (search_text gin_trgm_ops) where archived_at is null;
create index merchants_created on read.merchants (created_at desc, id) where archived_at is null;
create index merchants_archived on read.merchants (archived_at desc, id) where archived_at is not null;

create table read.notes (
  id                        uuid primary key,
  merchant_id               uuid not null,
  category                  text not null,
  note                      text not null,
  submission_source         text,
  broker_name               text,
  account_id                uuid not null,
  user_id                   uuid not null,
  proxied_creator           uuid,
  created_at                timestamptz not null,
  updated_at                timestamptz,
  archived_at               timestamptz,
  deletion_requested_at     timestamptz,
  deletion_reason           text,
  deletion_requested_by     uuid,
  deletion_requested_account uuid
);
create index notes_merchant on read.notes (merchant_id, created_at desc);
create index notes_recent on read.notes (created_at desc, id) where archived_at is null;
create index notes_recent_category on read.notes (category, created_at desc, id) where archived_at is null;
create index notes_reported on read.notes (deletion_requested_at desc, id) where deletion_requested_at is not null and archived_at is null;

-- One row per merchant found by a search: the source of search history and search counts.
create table read.merchant_searches (
  merchant_id uuid not null,
  account_id  uuid not null,
  searched_at timestamptz not null,
  event_id    uuid not null,
  primary key (merchant_id, searched_at, event_id)
);
