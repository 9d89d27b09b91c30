-- Searches by EIN, whether or not a merchant was found: the not-found dialog shows PRO users how
-- often others looked for an EIN nobody has reported yet.
create table read.ein_searches (
  fein        char(9) not null,
  account_id  uuid not null,
  searched_at timestamptz not null,
  event_id    uuid not null,
  primary key (fein, searched_at, event_id)
);
