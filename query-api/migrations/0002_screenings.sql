-- Portfolio screening (issue 32): each screening a funder asked for (command-api's ScreeningRequested)
-- and its report, screened in the background from the read models (query-api/src/screenings/). A
-- screening cut off by a crash goes on from its last screened chunk: its rows say what is left.
create table screenings (
  id            uuid primary key,
  account_id    uuid not null,
  user_id       uuid not null,
  source        text not null check (source in ('csv', 'subscriptions', 'api')),
  file_name     text,
  total         integer not null,
  rejected      integer not null,
  screened      integer not null default 0,
  found         integer not null default 0,
  flagged       integer not null default 0,
  status        text not null default 'queued' check (status in ('queued', 'running', 'done')),
  created_at    timestamptz not null,
  finished_at   timestamptz,
  -- A runner's hold on it: another runner takes it over once this has passed (a crashed process).
  claimed_until timestamptz
);
create index screenings_account on screenings (account_id, created_at desc);
create index screenings_unfinished on screenings (created_at) where status <> 'done';

-- Every row of the file: an EIN to screen (outcome null until screened), or a rejected row. `worst` is
-- the index of the merchant's worst group in contracts' SIGNAL_GROUPS (null: none reported), so the
-- report reads worst first from an index.
create table screening_rows (
  screening_id uuid not null references screenings (id) on delete cascade,
  row_no       integer not null,
  input        text not null,
  fein         text,
  problem      text,
  outcome      text check (outcome in ('found', 'not_found', 'rejected')),
  merchant_id  uuid,
  merchant     jsonb,
  signals      jsonb,
  worst        smallint,
  funders      integer,
  primary key (screening_id, row_no)
);
create index screening_rows_pending on screening_rows (screening_id, row_no) where outcome is null;
create index screening_rows_report on screening_rows (screening_id, outcome, worst, funders desc, row_no);
-- The platform administrators' inquiry audit lists the screenings that found a merchant.
create index screening_rows_merchant on screening_rows (merchant_id) where merchant_id is not null;
