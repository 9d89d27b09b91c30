-- The platform administrators' merchants list sorted by name (issue 32): live merchants in name order,
-- read forwards or backwards a page at a time, as merchants_created gives the newest first.
create index merchants_name_live on read.merchants (lower(legal_name), id) where archived_at is null;
