import { describe, expect, it } from 'vitest';
import {
  deletedMerchantPath,
  funderPath,
  isReturnableRoute,
  memberPath,
  merchantPath,
  newMerchantPath,
  searchPath,
} from './paths.ts';

describe('isReturnableRoute', () => {
  it('accepts protected screens with their query', () => {
    expect(isReturnableRoute('/analytics')).toBe(true);
    expect(isReturnableRoute('/merchants/abc?highlight=n1')).toBe(true);
  });

  it('rejects public pages, sign-in steps and non-paths', () => {
    expect(isReturnableRoute('/login')).toBe(false);
    expect(isReturnableRoute('/login/')).toBe(false);
    expect(isReturnableRoute('/logout')).toBe(false);
    expect(isReturnableRoute('/terms_of_use')).toBe(false);
    expect(isReturnableRoute('/mfa_verification')).toBe(false);
    expect(isReturnableRoute('https://example.com/x')).toBe(false);
    expect(isReturnableRoute('//example.com/x')).toBe(false);
    expect(isReturnableRoute('')).toBe(false);
  });
});

describe('searchPath', () => {
  it('encodes the term', () => {
    expect(searchPath('12-3456789')).toBe('/search?search=12-3456789');
    expect(searchPath('Acme & Sons')).toBe('/search?search=Acme%20%26%20Sons');
  });
});

describe('merchant paths', () => {
  it('builds merchant, highlight, deleted and add paths', () => {
    expect(merchantPath('m1')).toBe('/merchants/m1');
    expect(merchantPath('m1', 'n1')).toBe('/merchants/m1?highlight=n1');
    expect(deletedMerchantPath('m1')).toBe('/deleted-merchants/m1');
    expect(newMerchantPath()).toBe('/merchants/new');
    expect(newMerchantPath('45-1234567')).toBe('/merchants/new?fein=45-1234567');
    expect(newMerchantPath('451234567')).toBe('/merchants/new?fein=45-1234567');
    expect(newMerchantPath('Acme & Sons')).toBe('/merchants/new?legal_name=Acme%20%26%20Sons');
    expect(newMerchantPath('  ')).toBe('/merchants/new');
  });
});

describe('funder and member paths', () => {
  it('builds funder pages with an optional tab', () => {
    expect(funderPath('f1')).toBe('/funders/f1');
    expect(funderPath('f1', 'members')).toBe('/funders/f1?tab=members');
  });

  it('puts members under the funder or under the own account', () => {
    expect(memberPath({ funderId: 'f1', id: null })).toBe('/funders/f1/members/new');
    expect(memberPath({ funderId: 'f1', id: 'u1' })).toBe('/funders/f1/members/u1');
    expect(memberPath({ funderId: null, id: null })).toBe('/account/members/new');
    expect(memberPath({ funderId: null, id: 'u 1' })).toBe('/account/members/u%201');
  });
});
