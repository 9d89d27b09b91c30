-- Server-side sessions behind the JWTs: logout and revocation take effect on the next request.
create table auth_sessions (
  id           uuid primary key,
  user_id      uuid not null,
  account_id   uuid not null,
  created_at   timestamptz not null default now(),
  expires_at   timestamptz not null,
  revoked_at   timestamptz,
  ip           text,
  user_agent   text
);
create index auth_sessions_user on auth_sessions (user_id) where revoked_at is null;

-- Failure counters for sign-in, OTP and password-reset throttling.
create table auth_throttle (
  key               text primary key,
  failures          integer not null,
  window_started_at timestamptz not null,
  window_seconds    integer not null
);
