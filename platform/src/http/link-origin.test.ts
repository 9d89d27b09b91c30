import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { requestOrigin } from './link-origin.ts';

const req = (host: string | undefined, protocol: 'http' | 'https' = 'http') =>
  ({ headers: host === undefined ? {} : { host }, protocol }) as unknown as FastifyRequest;

describe('requestOrigin (links answered to the requester)', () => {
  it('is PUBLIC_URL when set, whatever the Host', () => {
    expect(requestOrigin(req('evil.example'), 'https://risk.funders.test/')).toBe(
      'https://risk.funders.test',
    );
  });

  it("is the request's own origin otherwise", () => {
    expect(requestOrigin(req('127.0.0.1:8080'), undefined)).toBe('http://127.0.0.1:8080');
    expect(requestOrigin(req('Risk.Example:443', 'https'), undefined)).toBe('https://risk.example');
    expect(requestOrigin(req('[::1]:8080'), undefined)).toBe('http://[::1]:8080');
  });

  it('is null for a missing or malformed Host (a path, credentials, spaces, another scheme)', () => {
    for (const host of [
      undefined,
      '',
      'evil.example/path',
      'user@evil.example',
      'a b',
      'javascript:x',
      'x:99999999',
    ])
      expect(requestOrigin(req(host), undefined)).toBeNull();
  });
});
