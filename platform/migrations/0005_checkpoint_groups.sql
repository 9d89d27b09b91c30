-- Consumers that follow the log together (issue 31): a projector in the projections' live group has no
-- position of its own; its checkpoint reads '@<group>' and its position is the group's. One row moves
-- per batch, whatever the number of projectors in the group.
-- `building`: the consumer's output is being (re)built from the log and is not complete: what it serves
-- must not be served yet.
alter table subscription_checkpoints add column building boolean not null default false;
-- `version`: of the consumer's code that wrote its output: a consumer whose code changed what its output
-- means builds it again (the projections runner compares it with the projector's version).
alter table subscription_checkpoints add column version integer not null default 1;
