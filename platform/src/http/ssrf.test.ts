import { describe, expect, it } from 'vitest';
import { checkWebhookUrl, isForbiddenAddress } from './ssrf.ts';

describe('isForbiddenAddress', () => {
  it.each([
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '127.0.0.1',
    '127.8.9.10',
    '169.254.169.254',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '100.64.0.1',
    '::',
    '::1',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:10.0.0.1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    // IPv4-compatible (::/96), SIIT, NAT64, 6to4 and Teredo forms of internal hosts (issue 20, item 12).
    '::169.254.169.254',
    '::a9fe:a9fe',
    '::127.0.0.1',
    '::7f00:1',
    '::ffff:0:127.0.0.1',
    '::ffff:0:7f00:1',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b:1::a00:1',
    '2002:7f00:1::',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '2001:db8::1',
    '198.18.0.1',
    '192.0.2.10',
    'not-an-ip',
    '127.1',
    '0x7f.0.0.1',
  ])('refuses %s', (ip) => {
    expect(isForbiddenAddress(ip)).toBe(true);
  });

  it.each(['8.8.8.8', '93.184.216.34', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'allows %s',
    (ip) => {
      expect(isForbiddenAddress(ip)).toBe(false);
    },
  );

  it('the loopback flag allows 127.0.0.0/8 and ::1 only', () => {
    const policy = { allowLoopback: true };
    expect(isForbiddenAddress('127.0.0.1', policy)).toBe(false);
    expect(isForbiddenAddress('127.1.2.3', policy)).toBe(false);
    expect(isForbiddenAddress('::1', policy)).toBe(false);
    expect(isForbiddenAddress('::ffff:127.0.0.1', policy)).toBe(false);
    expect(isForbiddenAddress('10.0.0.1', policy)).toBe(true);
    expect(isForbiddenAddress('169.254.169.254', policy)).toBe(true);
    expect(isForbiddenAddress('0.0.0.0', policy)).toBe(true);
  });
});

describe('checkWebhookUrl', () => {
  it.each([
    'http://10.0.0.1/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]/hook',
    'http://[::169.254.169.254]/',
    'http://[::127.0.0.1]/',
    'http://[::ffff:0:127.0.0.1]/',
    'http://[::ffff:169.254.169.254]/latest/meta-data',
    'http://[0:0:0:0:0:ffff:7f00:1]/',
    'http://0x7f.1/',
    'http://2130706433/',
    'http://127.0.0.1/hook',
    'http://localhost/hook',
    'ftp://example.com/',
    'file:///etc/passwd',
    'http://user:pass@example.com/',
    'not a url',
  ])('refuses %s', async (url) => {
    expect((await checkWebhookUrl(url)).ok).toBe(false);
  });

  it('allows localhost and 127.0.0.1 only with the loopback flag', async () => {
    expect((await checkWebhookUrl('http://localhost:8080/hook', { allowLoopback: true })).ok).toBe(true);
    expect((await checkWebhookUrl('http://127.0.0.1:8080/hook', { allowLoopback: true })).ok).toBe(true);
    expect((await checkWebhookUrl('http://10.0.0.1/hook', { allowLoopback: true })).ok).toBe(false);
    // Loopback allowed is not every form that reaches it: the translation forms stay refused.
    expect((await checkWebhookUrl('http://[::127.0.0.1]/', { allowLoopback: true })).ok).toBe(false);
    expect((await checkWebhookUrl('http://[::ffff:0:127.0.0.1]/', { allowLoopback: true })).ok).toBe(false);
  });

  it('allows a public literal address', async () => {
    expect((await checkWebhookUrl('https://93.184.216.34/hook')).ok).toBe(true);
  });
});
