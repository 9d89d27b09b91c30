alter table read.accounts
  add column trial_started_at timestamptz,
  add column merchants_added integer not null default 0,
  add column notes_added integer not null default 0,
  add column last_merchant_added_at timestamptz;

alter table read.users
  add column mfa_required boolean not null default false,
  add column mfa_enabled boolean not null default false,
  add column otp_ip text,
  add column otp_device text,
  add column remembered_until timestamptz,
  add column api_granted boolean not null default false,
  add column api_token text;
create unique index users_api_token on read.users (api_token) where api_token is not null;

create table read.disputes (
  id          uuid primary key,
  first_name  text not null,
  last_name   text not null,
  email       text not null,
  fein        char(9) not null,
  legal_name  text not null,
  dba         text,
  city        text not null,
  state       text not null,
  reason      text not null,
  created_at  timestamptz not null
);
create index disputes_created on read.disputes (created_at desc, id);
