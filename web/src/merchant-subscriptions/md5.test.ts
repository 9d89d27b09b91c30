import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { md5, md5Base64 } from './md5.ts';

const text = (s: string) => new TextEncoder().encode(s);
const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

describe('md5', () => {
  it('gives the known base64 digests', () => {
    expect(md5Base64(text(''))).toBe('1B2M2Y8AsgTpgAmY7PhCfg==');
    expect(md5Base64(text('abc'))).toBe('kAFQmDzST7DWlj99KOF/cg==');
  });

  it('gives the RFC 1321 test-suite digests', () => {
    expect(hex(md5(text('message digest')))).toBe('f96b697d7cb7938d525a2f31aaf161d0');
    expect(hex(md5(text('abcdefghijklmnopqrstuvwxyz')))).toBe('c3fcd3d76192e4007dfb496cca67e13b');
    expect(hex(md5(text('1234567890'.repeat(8))))).toBe('57edf4a22be3c955ac49da2e2107b67a');
  });

  it('agrees with node:crypto across block boundaries and on larger input', () => {
    for (const size of [1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000, 300_000]) {
      const bytes = new Uint8Array(size).map((_, i) => (i * 31 + size) & 0xff);
      expect(md5Base64(bytes)).toBe(createHash('md5').update(bytes).digest('base64'));
    }
  });
});
