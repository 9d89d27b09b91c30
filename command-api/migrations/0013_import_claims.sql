-- A running import holds its upload for a while (a lease): an import cut off by a crash or a restart
-- is taken up again once the lease has passed, by whichever process looks first, and only by one.
alter table direct_uploads add column import_claimed_until timestamptz;
create index direct_uploads_unfinished on direct_uploads (attached_at)
  where attached_at is not null and data is not null;
