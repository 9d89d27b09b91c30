-- One billing state for every screen (issue 21 items 2, 13; contracts/src/domain/billing-state.ts):
-- whether the membership is paid through the card payment provider (only those count as revenue; a
-- membership opened active without billing, like the platform's own account, is not), why and when the
-- last membership or trial ended, and when a platform administrator last granted and revoked the
-- funder's API access (accounts spec §3 api_granted, api_revoked).
alter table read.accounts
  add column billed                  boolean not null default false,
  add column membership_ended_reason text,
  add column membership_ended_at     timestamptz,
  add column api_granted_at          timestamptz,
  add column api_revoked_at          timestamptz;

-- Accounts already projected get what their events say (the projector sets the same from here on; an
-- event it has yet to apply sets the same value again). Skipped when the events are not in this
-- database (EVENT_STORE=kurrentdb): `npm run rebuild -- accounts` fills them there.
do $$
begin
  if to_regclass('events') is null then
    return;
  end if;
  with last_change as (
    select distinct on (data ->> 'accountId') (data ->> 'accountId')::uuid as account_id, type, data, recorded_at
      from events
     where type in ('AccountMembershipStarted', 'AccountMembershipReinstated', 'AccountMembershipCanceled',
                    'AccountTrialCanceled')
     order by data ->> 'accountId', transaction_id desc, position desc)
  update read.accounts a
     set billed = l.type in ('AccountMembershipStarted', 'AccountMembershipReinstated'),
         membership_ended_reason = case
           when l.type = 'AccountTrialCanceled' then 'trial_canceled'
           when l.type <> 'AccountMembershipCanceled' then null
           when l.data ->> 'reason' = 'requested' then 'requested'
           when l.data ->> 'reason' = 'unpaid' then 'unpaid'
           when (l.data ->> 'afterFailedPayment')::boolean then 'provider_payment_failed'
           else 'provider' end,
         membership_ended_at = case
           when l.type in ('AccountMembershipCanceled', 'AccountTrialCanceled')
             then coalesce((l.data ->> 'providerEndedAt')::timestamptz, l.recorded_at) end
    from last_change l
   where a.id = l.account_id;
  update read.accounts a
     set api_granted_at = g.granted, api_revoked_at = g.revoked
    from (select (data ->> 'accountId')::uuid as account_id,
                 max(recorded_at) filter (where type = 'AccountApiAccessGranted') as granted,
                 max(recorded_at) filter (where type = 'AccountApiAccessRevoked') as revoked
            from events where type in ('AccountApiAccessGranted', 'AccountApiAccessRevoked')
           group by 1) g
   where a.id = g.account_id;
end
$$;
