import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERIFY_SNIPPET, WEBHOOK_PAYLOAD_EXAMPLE } from './webhook-verification.ts';

type Verify = (secret: string, headers: Record<string, string>, rawBody: string) => unknown;

let dir: string;
let verifyWebhook: Verify;
const secret = `whsec_${Buffer.from('a partner secret of 24 bytes').toString('base64')}`;
const body = JSON.stringify(WEBHOOK_PAYLOAD_EXAMPLE);

/** Signed by the Standard Webhooks reference library, not by our own signer. */
function signed(id = 'msg_2b0a9c', at = new Date(), signWith = secret) {
  const signature = new Webhook(signWith).sign(id, at, body);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signature,
  };
}

beforeAll(async () => {
  // The snippet exactly as the guide shows it, loaded as a module.
  dir = await mkdtemp(join(tmpdir(), 'mrn-snippet-'));
  const file = join(dir, 'verify.mjs');
  await writeFile(file, VERIFY_SNIPPET);
  ({ verifyWebhook } = (await import(pathToFileURL(file).href)) as { verifyWebhook: Verify });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the Developer Guide verification snippet', () => {
  it('accepts a webhook signed by the reference library and answers its payload', () => {
    expect(verifyWebhook(secret, signed(), body)).toEqual(WEBHOOK_PAYLOAD_EXAMPLE);
  });

  it('accepts either of two signatures (during a rotation)', () => {
    const other = `whsec_${Buffer.from('the previous secret!').toString('base64')}`;
    const headers = signed(undefined, undefined, other);
    const both = {
      ...headers,
      'webhook-signature': `${signed()['webhook-signature']} ${headers['webhook-signature']}`,
    };
    expect(verifyWebhook(secret, both, body)).toBeTruthy();
    expect(verifyWebhook(other, both, body)).toBeTruthy();
  });

  it('refuses a changed body, another secret, a stale timestamp and missing headers', () => {
    expect(() => verifyWebhook(secret, signed(), body.replace('40', '4'))).toThrow('bad signature');
    const stranger = `whsec_${Buffer.from('somebody else entirely').toString('base64')}`;
    expect(() => verifyWebhook(stranger, signed(), body)).toThrow('bad signature');
    expect(() => verifyWebhook(secret, signed(undefined, new Date(Date.now() - 301_000)), body)).toThrow(
      'stale webhook',
    );
    expect(() => verifyWebhook(secret, {}, body)).toThrow('not a signed webhook');
  });
});
