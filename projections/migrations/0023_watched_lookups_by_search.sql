-- Issue 31: the webhook dispatcher counts the being-shopped figures from read.merchant_searches, in the
-- order it judged the look-ups of its feed: a search of the feed (read.watched_lookups) counts once the
-- dispatcher's reader has passed its position, so each search row of a merchant is matched with its feed
-- row, if any, by the search's id.
create index watched_lookups_search on read.watched_lookups (search_id);
