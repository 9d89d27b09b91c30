-- Issue 30, item 7: a being-shopped alert is judged whenever the figure or the watcher's threshold
-- changes (a search, a threshold saved, a watch started), once per crossing (intake/shopped-alerts.ts).

-- A watcher alerted for a merchant in the current episode: the row goes when the figure is found below
-- the watcher's threshold (the episode is over), so the next crossing alerts again.
create table webhook_shopped_alerts (
  account_id  uuid not null,
  merchant_id uuid not null,
  alerted_at  timestamptz not null,
  primary key (account_id, merchant_id)
);

-- The log position of the latest threshold change or watch start judged for the account: one at or
-- before it is the log read again (a checkpoint moved back), not judged twice. For the accounts that
-- exist now, what came before this migration is history the old rule judged (only at searches):
-- `shopped_judged_from` keeps a log read again from the start from judging it.
alter table webhook_accounts
  add column shopped_position text,
  add column shopped_judged_from timestamptz;
update webhook_accounts set shopped_judged_from = now();

-- A threshold change judges every merchant the account watches; a watch started, the merchants of its EINs.
create index webhook_watches_account on webhook_watches (account_id);
create index webhook_merchants_fein on webhook_merchants (fein);

-- The episodes running now were alerted by the old rule when they crossed (or missed, for a threshold
-- lowered or a watch started above it: those are not told now, the next crossing is): without these
-- rows every watcher above its threshold would be alerted again at the next search.
insert into webhook_shopped_alerts (account_id, merchant_id, alerted_at)
select w.account_id, m.merchant_id, now()
  from webhook_watches w
  join webhook_accounts a on a.account_id = w.account_id
  join webhook_merchants m on m.fein = w.fein
 where a.shopped_threshold is not null
   and (w.watch_until is null or w.watch_until > now())
   and (select count(*) from webhook_inquiries i
         where i.merchant_id = m.merchant_id and i.account_id <> w.account_id
           and i.last_searched_at > now() - interval '7 days') >= a.shopped_threshold
on conflict do nothing;
