-- "Watch merchants we search" (issue 11): a watch a search made lasts until `watch_until`; null is a
-- watch a person made, for good. The daily pass removes ended watches; until it has, nothing is sent
-- for an event after the end. No watch had an end before this column, so null is right for every row.
alter table webhook_watches add column watch_until timestamptz;
