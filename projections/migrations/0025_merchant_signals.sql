-- Risk signals (issue 32, contracts/src/domain/signals.ts): what funders reported on each merchant,
-- kept by the merchant_signals projector (projections/src/read-models/merchant-signals.ts). With no
-- checkpoint yet it builds from the log's first event when it first runs, beside the live read models.

-- Every note as the signals count it: its group (or 'satisfied' for a Default Satisfied, null for a note
-- that counts nowhere, a Merchant Dispute), its funder and when it was added.
create table read.signal_notes (
  note_id     uuid primary key,
  merchant_id uuid not null,
  kind        text,
  account_id  uuid not null,
  reported_at timestamptz not null,
  archived    boolean not null default false
);
create index signal_notes_merchant on read.signal_notes (merchant_id);

-- One row per merchant with a live note that counts: the distinct funders, and each kind's report times
-- (epoch milliseconds, oldest first). The windows (90 days, 12 months) depend on when they are read, so
-- the reader counts them from the times: a search reads one row by its key, whatever the windows.
create table read.merchant_signals (
  merchant_id uuid primary key,
  funders     integer not null,
  reports     jsonb not null
);

-- Disputes a business owner filed, by the EIN they named: open until resolved.
create table read.signal_disputes (
  dispute_id uuid primary key,
  fein       text not null,
  resolved   boolean not null default false
);
create index signal_disputes_fein on read.signal_disputes (fein);
