-- The paid membership as billing events leave it (DESIGN §4): its renewal date and a failed renewal
-- Stripe is still retrying (the bar and e-mail for the account's admins).
alter table read.accounts
  add column current_period_end   timestamptz,
  add column payment_failed       boolean not null default false,
  add column next_payment_attempt timestamptz;
