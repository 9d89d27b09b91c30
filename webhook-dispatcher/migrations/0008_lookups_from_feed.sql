-- Issue 31: the dispatcher reads no search. The look-ups of watched merchants come from projections' feed
-- (read.watched_lookups, judged in its order by the look-ups reader with a checkpoint of its own,
-- `webhook-lookups`), and the being-shopped figures are counted from projections' read.merchant_searches
-- (intake/shopped-alerts.ts). The dispatcher's own record of each funder's latest look-up goes.
drop table webhook_inquiries;
