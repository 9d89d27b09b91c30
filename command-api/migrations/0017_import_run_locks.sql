-- An import run now holds its upload with a session advisory lock, released the moment the run's
-- connection closes (crash or not): the 5-minute lease that made a cut-off import wait is gone.
alter table direct_uploads drop column import_claimed_until;
