import { createHmac, randomBytes } from 'node:crypto';
import type { Pool } from '@mrn/platform';

/** How long a rotated-out secret keeps signing, so receivers can switch over (DESIGN §5). */
export const PREVIOUS_SECRET_VALID_MS = 24 * 3600_000;

type Queryable = Pick<Pool, 'query'>;

export const newWebhookSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;

/** Standard Webhooks: base64 HMAC-SHA256 of `{id}.{timestamp}.{body}`, keyed by the base64 after `whsec_`. */
export function signPayload(
  secret: string,
  webhookId: string,
  timestampSeconds: number,
  body: string,
): string {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  return createHmac('sha256', key).update(`${webhookId}.${timestampSeconds}.${body}`).digest('base64');
}

/** The `webhook-signature` header: `v1,<sig>` per valid secret, space-separated. */
export function signatureHeader(
  secrets: readonly string[],
  webhookId: string,
  timestampSeconds: number,
  body: string,
): string {
  return secrets.map((s) => `v1,${signPayload(s, webhookId, timestampSeconds, body)}`).join(' ');
}

/** The account's current signing secret, created on first need. */
export async function webhookSecretOf(
  pool: Queryable,
  accountId: string,
  now: Date = new Date(),
): Promise<string> {
  await pool.query(
    `insert into webhook_secrets (account_id, secret, created_at) values ($1, $2, $3)
     on conflict (account_id) do nothing`,
    [accountId, newWebhookSecret(), now],
  );
  const { rows } = await pool.query<{ secret: string }>(
    'select secret from webhook_secrets where account_id = $1',
    [accountId],
  );
  return rows[0]!.secret;
}

/** Every secret that signs at `now`: the current one, and the previous one for 24 h after a rotation. */
export async function signingSecretsOf(pool: Queryable, accountId: string, now: Date): Promise<string[]> {
  const current = await webhookSecretOf(pool, accountId, now);
  const { rows } = await pool.query<{ previous_secret: string | null; previous_valid_until: Date | null }>(
    'select previous_secret, previous_valid_until from webhook_secrets where account_id = $1',
    [accountId],
  );
  const prev = rows[0];
  if (
    prev?.previous_secret &&
    prev.previous_valid_until &&
    prev.previous_valid_until.getTime() > now.getTime()
  ) {
    return [current, prev.previous_secret];
  }
  return [current];
}

/** A new secret; the old one keeps signing (alongside) for 24 hours. Returns the new secret. */
export async function rotateWebhookSecret(
  pool: Queryable,
  accountId: string,
  now: Date = new Date(),
): Promise<string> {
  await webhookSecretOf(pool, accountId, now);
  const next = newWebhookSecret();
  await pool.query(
    `update webhook_secrets
        set previous_secret = secret, previous_valid_until = $3, secret = $2, created_at = $4
      where account_id = $1`,
    [accountId, next, new Date(now.getTime() + PREVIOUS_SECRET_VALID_MS), now],
  );
  return next;
}
