/**
 * What the Developer Guide says about webhooks. The snippet is run by a test against the Standard
 * Webhooks reference signer, so what partners copy is known to work.
 */
export const WEBHOOK_HEADERS = [
  {
    name: 'webhook-id',
    meaning: 'The message id: the same on every retry and redelivery. De-duplicate by it.',
  },
  { name: 'webhook-timestamp', meaning: 'When this attempt was signed, in seconds since 1970 (UTC).' },
  {
    name: 'webhook-signature',
    meaning:
      'One or more space-separated v1,<base64 HMAC-SHA256> values; two while a rotated-out secret still signs.',
  },
] as const;

export const WEBHOOK_PAYLOAD_EXAMPLE = {
  type: 'merchant.note_added',
  timestamp: '2026-11-24T15:04:05.000Z',
  data: {
    merchant_ein: '123456789',
    merchant_name: 'Acme Coffee LLC',
    action: 'Note Added',
    note_category: 'Slow Pay',
    note: 'Paid 40 days late.',
    merchant_url: 'https://merchantrisk.example/merchants/…',
    action_performed_by: 'Harbor Business Advance',
  },
};

/** Waits before attempts 2…8 (the dispatcher's RETRY_DELAYS_MS), as people read them. */
export const RETRY_SCHEDULE_TEXT =
  'immediately, then after 5 seconds, 5 minutes, 30 minutes, 2 hours, 5 hours, 10 hours and 10 hours';

export const VERIFY_SNIPPET = `import { createHmac, timingSafeEqual } from 'node:crypto';

// secret: the whsec_… value under Merchant Subscriptions → Webhook Logs → Signing secret.
// rawBody: the request body exactly as received (before any JSON parsing).
export function verifyWebhook(secret, headers, rawBody) {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  if (!id || !timestamp || !headers['webhook-signature']) throw new Error('not a signed webhook');
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) throw new Error('stale webhook');
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(\`\${id}.\${timestamp}.\${rawBody}\`).digest();
  const valid = headers['webhook-signature'].split(' ').some((entry) => {
    const [version, signature = ''] = entry.split(',');
    const given = Buffer.from(signature, 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!valid) throw new Error('bad signature');
  return JSON.parse(rawBody);
}
`;

export const VERIFY_WITH_LIBRARY_SNIPPET = `import { Webhook } from 'standardwebhooks';

const webhook = new Webhook(process.env.MRN_WEBHOOK_SECRET); // whsec_…
// Throws when the signature or the timestamp is wrong; answers the parsed payload otherwise.
const payload = webhook.verify(rawBody, {
  'webhook-id': req.headers['webhook-id'],
  'webhook-timestamp': req.headers['webhook-timestamp'],
  'webhook-signature': req.headers['webhook-signature'],
});
`;
