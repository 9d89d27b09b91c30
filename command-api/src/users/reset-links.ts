import { INVITATION_LINK_PARAM, streams } from '@mrn/contracts';
import type { EventMetadata } from '@mrn/platform';
import { executeCommand } from '../command-handler.ts';
import type { CommandDeps } from '../context.ts';
import { hashSecret, newSecret } from '../credentials/tokens.ts';
import { userDecider } from './user.ts';

// A link that sets a user's password: a reset asked for at sign-in, or a new member's invitation. The
// user aggregate records the token's hash (RequestPasswordReset); the link carries the token.

export const RESET_TTL_MS = 60 * 60 * 1000;
const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export async function issueResetLink(
  deps: CommandDeps,
  userId: string,
  email: string,
  ttlMs: number,
  metadata: EventMetadata,
  purpose: 'reset' | 'invitation' = 'reset',
) {
  const token = newSecret();
  const result = await executeCommand(
    deps,
    userDecider,
    streams.user(userId),
    {
      type: 'RequestPasswordReset',
      tokenHash: hashSecret(token),
      expiresAt: new Date(deps.clock.now().getTime() + ttlMs).toISOString(),
    },
    { now: deps.clock.now() },
    metadata,
  );
  // E-mailed, and often asked for by someone who is not signed in: PUBLIC_URL or the server's own
  // address, never the request's Host (a forged one would carry the token to its server;
  // platform/src/http/link-origin.ts).
  const link = `${deps.publicUrl}/password_reset?reset_token=${encodeURIComponent(token)}&email=${encodeURIComponent(email)}${purpose === 'invitation' ? `&${INVITATION_LINK_PARAM}=1` : ''}`;
  return { link, position: result.position };
}

/** A new member sets their password through a link valid for 7 days. */
export async function sendInvitation(
  deps: CommandDeps,
  userId: string,
  email: string,
  accountName: string,
  metadata: EventMetadata,
) {
  const { link, position } = await issueResetLink(
    deps,
    userId,
    email,
    INVITATION_TTL_MS,
    metadata,
    'invitation',
  );
  await deps.mailer.send({
    to: email,
    subject: `You have been added to ${deps.config.PRODUCT_NAME}`,
    text: `You have been added as a member of ${accountName} on ${deps.config.PRODUCT_NAME}.\n\nSet your password here (valid for 7 days):\n${link}\n`,
  });
  return position;
}
