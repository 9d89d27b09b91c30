-- API tokens (POST /api/v2/token) are sessions too, so revoking one works as for a sign-in; the kind
-- keeps the two apart: an API token never drives the dashboard and a sign-in never the partner API.
alter table auth_sessions add column kind text not null default 'web' check (kind in ('web', 'api'));
