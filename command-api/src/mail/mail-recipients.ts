import type { Pool } from '@mrn/platform';

export interface MailRecipient {
  email: string;
  firstName: string | null;
  accountName: string;
}

/**
 * Whom to e-mail about a funder: its admins who are not archived, or, while it has none, its primary
 * contact, as the read model made for these mails has them when the mail is made
 * (`read.account_mail_recipients`, published by projections). Nothing is decided from it.
 */
export async function mailRecipientsOf(
  pool: Pick<Pool, 'query'>,
  accountId: string,
): Promise<MailRecipient[]> {
  const { rows } = await pool.query<{ email: string; first_name: string | null; account_name: string }>(
    'select email, first_name, account_name from read.account_mail_recipients where account_id = $1',
    [accountId],
  );
  return rows.map((r) => ({ email: r.email, firstName: r.first_name, accountName: r.account_name }));
}
