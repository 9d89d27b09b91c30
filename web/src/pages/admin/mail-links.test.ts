import { describe, expect, it } from 'vitest';
import { mailLinkHref, splitLinks } from './mail-links.ts';

describe('splitLinks', () => {
  it('finds links and leaves sentence punctuation outside', () => {
    expect(
      splitLinks('Open http://localhost:8080/password_reset?reset_token=a%2Fb&email=x%40y.example. Thanks'),
    ).toEqual([
      { kind: 'text', text: 'Open ' },
      { kind: 'link', url: 'http://localhost:8080/password_reset?reset_token=a%2Fb&email=x%40y.example' },
      { kind: 'text', text: '. Thanks' },
    ]);
    expect(splitLinks('no links')).toEqual([{ kind: 'text', text: 'no links' }]);
  });
});

describe('mailLinkHref', () => {
  it('opens links to this app or a local server here, others as written', () => {
    expect(
      mailLinkHref('http://localhost:8080/password_reset?reset_token=t&email=e', 'http://localhost:8092'),
    ).toBe('/password_reset?reset_token=t&email=e');
    expect(mailLinkHref('https://mrn.example/login', 'https://mrn.example')).toBe('/login');
    expect(mailLinkHref('https://other.example/x', 'https://mrn.example')).toBe('https://other.example/x');
    expect(mailLinkHref('not a url', 'https://mrn.example')).toBe('not a url');
  });
});
