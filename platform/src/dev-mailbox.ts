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

/**
 * A page of the mailbox, newest first, and how many messages it holds in all; with `search`, only those
 * whose address, subject or text contains it, in any case (a LIKE pattern passed as a parameter, its
 * `%`, `_` and backslash taken literally).
 */
export async function devMailPage(
  db: Queryable,
  opts: { limit: number; offset: number; search?: string | undefined },
): Promise<{ mails: DevMail[]; total: number }> {
  const pattern = opts.search ? `%${opts.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const where = '$1::text is null or mail_to ilike $1 or subject ilike $1 or body_text ilike $1';
  const [page, count] = await Promise.all([
    db.query<{
      id: string;
      mail_from: string | null;
      mail_to: string;
      subject: string;
      body_text: string;
      received_at: Date;
    }>(
      `select id, mail_from, mail_to, subject, body_text, received_at from dev_mailbox
        where ${where} order by received_at desc, id limit $2 offset $3`,
      [pattern, opts.limit, opts.offset],
    ),
    db.query<{ n: number }>(`select count(*)::int as n from dev_mailbox where ${where}`, [pattern]),
  ]);
  return {
    mails: page.rows.map((r) => ({
      id: r.id,
      from: r.mail_from,
      to: r.mail_to,
      subject: r.subject,
      text: r.body_text,
      receivedAt: r.received_at,
    })),
    total: count.rows[0]?.n ?? 0,
  };
}
