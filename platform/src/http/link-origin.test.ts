import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { listenOrigin, requestOrigin } from './link-origin.ts';

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

describe('listenOrigin (the address npm start prints)', () => {
  it('is localhost for loopback and for every interface, whatever addresses the machine has', () => {
    for (const host of ['127.0.0.1', '0.0.0.0', '::', '[::]', '::1', 'localhost', ' 0.0.0.0 '])
      expect(listenOrigin(host, 8391)).toBe('http://localhost:8391');
  });

  it('is the address given otherwise, an IPv6 one in brackets', () => {
    expect(listenOrigin('192.0.2.2', 8080)).toBe('http://192.0.2.2:8080');
    expect(listenOrigin('mrn.internal', 80)).toBe('http://mrn.internal:80');
    expect(listenOrigin('fd00::2', 8080)).toBe('http://[fd00::2]:8080');
  });
});
