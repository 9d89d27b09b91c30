import { describe, expect, it } from 'vitest';
import { addressKey, linkKeys, phoneKey } from './merchant-link-keys.ts';

describe('link keys', () => {
  it('gives one phone key however a US number is typed, and none for what is not a number', () => {
    for (const typed of [
      '(212) 555-0134',
      '212.555.0134',
      '+1 212 555 0134',
      '2125550134 x12',
      '1-212-555-0134',
    ])
      expect(phoneKey(typed), typed).toBe('+12125550134');
    for (const typed of ['555-0134', 'n/a', '', '   ', null])
      expect(phoneKey(typed), String(typed)).toBeNull();
  });

  it('gives one address key for the same street, city and state, suite aside', () => {
    const key = '100 n main st|springfield|il';
    expect(addressKey('100 North Main Street', 'Springfield', 'IL')).toBe(key);
    expect(addressKey('100 N. Main St.', 'springfield', 'IL')).toBe(key);
    expect(addressKey('100 N Main St Suite 5', 'SPRINGFIELD', 'IL')).toBe(key);
    // Another number, city or state is another address.
    expect(addressKey('102 N Main St', 'Springfield', 'IL')).not.toBe(key);
    expect(addressKey('100 N Main St', 'Springfield', 'MO')).not.toBe(key);
    expect(addressKey('100 N Main St', 'Chatham', 'IL')).not.toBe(key);
  });

  it('needs a street number and a street: no key for a P.O. box, a bare street or no street', () => {
    expect(addressKey('PO Box 12', 'Austin', 'TX')).toBeNull();
    expect(addressKey('Main St', 'Austin', 'TX')).toBeNull();
    expect(addressKey(null, 'Austin', 'TX')).toBeNull();
    expect(addressKey('  ', 'Austin', 'TX')).toBeNull();
  });

  it("lists a merchant's keys", () => {
    expect(
      linkKeys({ businessPhone: '212 555 0134', street1: '1 Main St', city: 'Tampa', state: 'FL' }),
    ).toEqual([
      { kind: 'phone', key: '+12125550134' },
      { kind: 'address', key: '1 main st|tampa|fl' },
    ]);
    expect(linkKeys({ businessPhone: null, street1: null, city: 'Tampa', state: 'FL' })).toEqual([]);
  });
});
