import type { Queryable } from './db.ts';

/**
 * The development mailbox (`dev_mailbox`, platform migration 0002): what the embedded SMTP server of
 * server/ received when no SMTP_URL is configured. platform owns the table; these are the only
 * statements over it (issue 22): the SMTP server stores, the query side lists.
 */
export interface DevMail {
  id: string;
  from: string | null;
  to: string;
  subject: string;
  text: string;
  receivedAt: Date;
}

export async function storeDevMail(db: Queryable, mail: Omit<DevMail, 'receivedAt'>): Promise<void> {
  await db.query(
    'insert into dev_mailbox (id, mail_from, mail_to, subject, body_text) values ($1, $2, $3, $4, $5)',
    [mail.id, mail.from, mail.to, mail.subject, mail.text],
  );
}

/** The newest messages first, at most `limit`. */
export async function latestDevMail(db: Queryable, limit = 200): Promise<DevMail[]> {
  const { rows } = await db.query<{
    id: string;
    mail_from: string | null;
    mail_to: string;
    subject: string;
    body_text: string;
    received_at: Date;
  }>(
    'select id, mail_from, mail_to, subject, body_text, received_at from dev_mailbox order by received_at desc limit $1',
    [limit],
  );
  return rows.map((r) => ({
    id: r.id,
    from: r.mail_from,
    to: r.mail_to,
    subject: r.subject,
    text: r.body_text,
    receivedAt: r.received_at,
  }));
}
