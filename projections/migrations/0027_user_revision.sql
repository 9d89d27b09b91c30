-- The revision of the user's stream the row has applied through (every event of the user sets it). A
-- session token carries the revision its roles were read at (`urv`, signed at sign-in from the stream):
-- the session check (platform/src/http/authenticate.ts) takes the roles from the token while this row is
-- behind it, so a role given just before signing in works at once, not after the projection catches up.
-- Null on rows no event has touched since this column came: as behind as can be.
alter table read.users add column revision bigint;
