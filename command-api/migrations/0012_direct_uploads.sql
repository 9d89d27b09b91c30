-- Direct uploads (accounts spec §7 CSV import): a presigned request reserves an upload; its bytes are
-- PUT once to an unguessable, expiring address and checked against the declared size and MD5; the
-- signed id then names the file once, to queue an import. Tokens are stored hashed.
create table direct_uploads (
  id            uuid primary key,
  account_id    uuid not null,
  user_id       uuid not null,
  token_hash    text not null unique,
  signed_hash   text not null unique,
  filename      text not null,
  byte_size     integer not null,
  checksum      text not null,
  content_type  text not null,
  created_at    timestamptz not null default now(),
  expires_at    timestamptz not null,
  uploaded_at   timestamptz,
  attached_at   timestamptz,
  data          bytea
);

-- The results CSV of a subscription import (row, input, outcome), downloadable by the account's admins.
create table subscription_import_results (
  import_id  uuid primary key,
  account_id uuid not null,
  csv        text not null,
  created_at timestamptz not null default now()
);
