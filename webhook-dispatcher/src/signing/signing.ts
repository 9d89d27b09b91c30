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
  return (await signingSecretsOfMany(pool, [accountId], now)).get(accountId)!;
}

/**
 * Every secret that signs at `now` for each account given (current, plus previous for 24 h after a
 * rotation), created where missing: two statements for a whole batch of deliveries.
 */
export async function signingSecretsOfMany(
  pool: Queryable,
  accountIds: string[],
  now: Date,
): Promise<Map<string, string[]>> {
  const ids = [...new Set(accountIds)];
  const out = new Map<string, string[]>();
  if (ids.length === 0) return out;
  await pool.query(
    `insert into webhook_secrets (account_id, secret, created_at)
     select id, secret, $3 from unnest($1::uuid[], $2::text[]) as n(id, secret)
     on conflict (account_id) do nothing`,
    [ids, ids.map(() => newWebhookSecret()), now],
  );
  const { rows } = await pool.query<{
    account_id: string;
    secret: string;
    previous_secret: string | null;
    previous_valid_until: Date | null;
  }>(
    'select account_id, secret, previous_secret, previous_valid_until from webhook_secrets where account_id = any($1::uuid[])',
    [ids],
  );
  for (const r of rows) {
    const previous =
      r.previous_secret && r.previous_valid_until && r.previous_valid_until.getTime() > now.getTime()
        ? [r.previous_secret]
        : [];
    out.set(r.account_id, [r.secret, ...previous]);
  }
  return out;
}

export interface Rotation {
  secret: string;
  previousValidUntil: Date;
}

/**
 * A new secret; the old one keeps signing (alongside) for 24 hours. Refused (null) while a previous
 * secret still signs: a second rotation would cut the first one's overlap short and break receivers
 * that have not switched yet. The check and the swap are one statement, so two rotations at once
 * give one.
 */
export async function rotateWebhookSecret(
  pool: Queryable,
  accountId: string,
  now: Date = new Date(),
): Promise<Rotation | null> {
  await webhookSecretOf(pool, accountId, now);
  const next = newWebhookSecret();
  const until = new Date(now.getTime() + PREVIOUS_SECRET_VALID_MS);
  const { rows } = await pool.query<{ secret: string }>(
    `update webhook_secrets
        set previous_secret = secret, previous_valid_until = $3, secret = $2, created_at = $4
      where account_id = $1 and (previous_valid_until is null or previous_valid_until <= $4)
      returning secret`,
    [accountId, next, until, now],
  );
  return rows[0] ? { secret: rows[0].secret, previousValidUntil: until } : null;
}

/** Until when the previous secret still signs, if it does at `now`. */
export async function previousSecretValidUntil(
  pool: Queryable,
  accountId: string,
  now: Date,
): Promise<Date | null> {
  const { rows } = await pool.query<{ previous_valid_until: Date | null }>(
    'select previous_valid_until from webhook_secrets where account_id = $1',
    [accountId],
  );
  const until = rows[0]?.previous_valid_until ?? null;
  return until && until.getTime() > now.getTime() ? until : null;
}

/**
 * Secrets for funders the dispatcher knows that have none yet (a funder opened before the dispatcher
 * made them on sight): an admin reading the account sees one before the first webhook is sent.
 */
export async function createMissingSecrets(pool: Queryable, now: Date): Promise<number> {
  const { rows } = await pool.query<{ account_id: string }>(
    `select a.account_id from webhook_accounts a
      where not exists (select 1 from webhook_secrets s where s.account_id = a.account_id)`,
  );
  if (rows.length === 0) return 0;
  await signingSecretsOfMany(
    pool,
    rows.map((r) => r.account_id),
    now,
  );
  return rows.length;
}
