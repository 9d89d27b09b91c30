-- Whom to e-mail about a funder (issue 22: a read model made for command-api's mails, published in
-- projections/src/published-tables.ts): its admins who are not archived, or, while it has none, its
-- primary contact (first name unknown). A view: nothing to project or rebuild.
create view read.account_mail_recipients as
  select u.account_id, u.email, u.first_name, a.name as account_name
    from read.users u
    join read.accounts a on a.id = u.account_id
   where u.is_admin and u.archived_at is null
  union all
  select a.id, a.primary_contact_email, null, a.name
    from read.accounts a
   where not exists (
     select 1 from read.users u where u.account_id = a.id and u.is_admin and u.archived_at is null);
