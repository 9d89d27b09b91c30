-- One outbox for every e-mail the command side sends from the log (dispute receipts and outcomes,
-- contribution warnings and reminders): the dispute outbox, generalised. A row is one message to one
-- address; `mail_key` makes it one message ever (`dispute-received:{disputeId}`,
-- `contribution-warning:{accountId}:{issuedAt}:{address}`), whatever happens to the log reader.
alter table dispute_mail_outbox rename to mail_outbox;
alter table mail_outbox drop constraint dispute_mail_outbox_pkey;
alter table mail_outbox drop constraint dispute_mail_outbox_kind_check;
alter table mail_outbox drop constraint dispute_mail_outbox_dispute_id_kind_key;
alter table mail_outbox add column id bigint generated always as identity primary key;
alter table mail_outbox add column mail_key text;
update mail_outbox set kind = 'dispute-' || kind, mail_key = 'dispute-' || kind || ':' || dispute_id;
alter table mail_outbox alter column mail_key set not null;
alter table mail_outbox add constraint mail_outbox_mail_key_key unique (mail_key);
alter table mail_outbox drop column dispute_id;
create index mail_outbox_event on mail_outbox (event_id);
alter index dispute_mail_due rename to mail_outbox_due;

-- The reactor keeps its place in the log under its new name: nothing is read (or mailed) twice.
update subscription_checkpoints set name = 'mail-outbox' where name = 'dispute-mail';
