-- Read models live in their own schema: everything here can be dropped and rebuilt from the log.
create schema if not exists read;

create table read.accounts (
  id                           uuid primary key,
  name                         text not null,
  website                      text,
  primary_contact_email        text not null,
  plan_level                   text not null,
  membership_status            text not null,
  is_platform                  boolean not null default false,
  mfa_required                 boolean not null default false,
  can_access_api               boolean not null default false,
  merchant_subscription_enabled boolean not null default false,
  merchant_subscription_notification_email text,
  merchant_subscription_notification_webhook text,
  -- Maintained by the contribution projector of a later issue; 100 means "allowed to search".
  ninety_day_contribution      numeric(7, 2) not null default 100,
  created_at                   timestamptz not null,
  archived_at                  timestamptz
);
create index accounts_name_lower on read.accounts (lower(name));

create table read.users (
  id                 uuid primary key,
  account_id         uuid not null,
  email              text not null,
  first_name         text not null,
  last_name          text not null,
  is_admin           boolean not null,
  is_dm_admin        boolean not null,
  session_version    integer not null default 0,
  agreed_to_terms_at timestamptz,
  last_sign_in_at    timestamptz,
  created_at         timestamptz not null,
  archived_at        timestamptz
);
create index users_account on read.users (account_id);
create index users_email on read.users (lower(email));

create table read.app_settings (
  id                          smallint primary key default 1 check (id = 1),
  dashboard_message_enabled   boolean not null,
  dashboard_message_severity  text not null,
  dashboard_message_title     text,
  dashboard_message           text,
  updated_at                  timestamptz not null
);
