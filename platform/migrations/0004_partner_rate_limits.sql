-- Partner API rate limits (DESIGN §5): one row per bucket (an API user, an IP), counting the
-- requests of its current fixed window. Shared here, so the limit holds across every process.
--
-- Unlogged: a count is worth nothing after a crash (the window would have ended anyway), and a
-- transaction that writes only unlogged tables commits without waiting for a WAL flush. With a
-- logged table every request of one key would hold the key's row lock through an fsync, which caps
-- one partner at a few hundred requests a second whatever the limit says.
--
-- No index besides the key: the count changes on every request and stays a HOT update; the prune
-- (rows whose window has ended) scans a table holding only the buckets of the last minute or so.
create unlogged table partner_rate_limits (
  key       text primary key,
  hits      integer not null,
  resets_at timestamptz not null
);
