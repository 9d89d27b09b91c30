-- The development mailbox: what the embedded SMTP server received (DESIGN §4), readable by
-- platform administrators when no real SMTP_URL is configured.
create table dev_mailbox (
  id          uuid primary key,
  mail_from   text,
  mail_to     text not null,
  subject     text not null,
  body_text   text not null,
  received_at timestamptz not null default now()
);
create index dev_mailbox_received on dev_mailbox (received_at desc);
