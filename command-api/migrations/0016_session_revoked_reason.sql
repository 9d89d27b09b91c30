-- Why a session was ended, when the caller should be told more than "expired": an API token whose
-- grant was revoked says so (API access has been revoked), as it did when the check read the grant.
alter table auth_sessions add column revoked_reason text;
