import { randomUUID } from 'node:crypto';
import { type Logger, type Pool, storeDevMail } from '@mrn/platform';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface DevMailbox {
  smtpUrl: string;
  close(): Promise<void>;
}

/**
 * A real SMTP server on loopback that keeps every message in the `dev_mailbox` table, so that
 * without SMTP_URL the product still sends its e-mails (password resets, invitations) somewhere a
 * platform administrator — or a test — can read them.
 */
export async function startDevMailbox(pool: Pool, logger: Logger, port = 0): Promise<DevMailbox> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then(async (mail) => {
          const to = session.envelope.rcptTo.map((r) => r.address).join(', ');
          await storeDevMail(pool, {
            id: randomUUID(),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
            to,
            subject: mail.subject ?? '',
            text: mail.text ?? '',
          });
          callback();
        })
        .catch((error: Error) => {
          logger.error({ err: error }, 'dev mailbox could not store a message');
          callback(error);
        });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  return {
    smtpUrl: `smtp://127.0.0.1:${actualPort}?ignoreTLS=true`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
