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

  /** The street part of the key of `street1` in Springfield, IL. */
  const street = (street1: string) => addressKey(street1, 'Springfield', 'IL')?.split('|')[0] ?? null;

  it('spells each street type as USPS abbreviates it', () => {
    for (const [typed, key] of [
      [['Street', 'St', 'St.', 'Str', 'STREET'], '100 main st'],
      [['Avenue', 'Ave', 'Ave.', 'Av'], '100 main ave'],
      [['Boulevard', 'Blvd', 'Blvd.', 'Boul'], '100 main blvd'],
      [['Road', 'Rd', 'Rd.'], '100 main rd'],
      [['Highway', 'Hwy', 'Hiway'], '100 main hwy'],
      [['Parkway', 'Pkwy', 'Pky'], '100 main pkwy'],
      [['Drive', 'Dr', 'Dr.'], '100 main dr'],
      [['Lane', 'Ln'], '100 main ln'],
      [['Court', 'Ct'], '100 main ct'],
      [['Place', 'Pl'], '100 main pl'],
      [['Circle', 'Cir'], '100 main cir'],
      [['Terrace', 'Ter'], '100 main ter'],
    ] as const)
      for (const type of typed) expect(street(`100 Main ${type}`), type).toBe(key);
    // A street type in the name has its abbreviation too: "Mountain View Rd" and "Mtn Vw Rd" are one street.
    expect(street('100 Mountain View Road')).toBe(street('100 Mtn Vw Rd'));
    expect(street('100 Mount Vernon Ave')).toBe(street('100 Mt. Vernon Ave'));
    expect(street('100 Saint Charles Avenue')).toBe(street('100 St Charles Ave'));
  });

  it('leaves the unit out, however it is written', () => {
    for (const typed of [
      '100 Main St Suite 5',
      '100 Main St Ste. 5',
      '100 Main St Ste 200',
      '100 Main St #5',
      '100 Main St # 5',
      '100 Main St Apt 2B',
      '100 Main St Unit 4',
      '100 Main St Fl 3',
      '100 Main St Floor 3',
      '100 Main St 2nd Floor',
      '100 Main St Rm 12',
      '100 Main St Bldg C',
      '100 Main St, Suite 200',
      '100 Main St Rear',
      '100 Main St 2B',
      'Suite 200, 100 Main St',
      '#5 100 Main St',
    ])
      expect(street(typed), typed).toBe('100 main st');
    // A word that can be a unit names a street where it is not after the street's type.
    expect(street('100 W Front St')).toBe('100 w front st');
    expect(street('100 Post Office Rd')).toBe('100 post office rd');
    // A route's number is no unit; a number after another street's type is.
    expect(street('100 County Road 12')).toBe('100 county rd 12');
    expect(street('100 Highway 9')).toBe('100 hwy 9');
    expect(street('100 US Hwy 1 Ste 4')).toBe('100 us hwy 1');
    expect(street('100 Maple Hwy 300')).toBe('100 maple hwy');
  });

  it('keeps directions before and after the street, one spelling each', () => {
    expect(street('100 Main St NW')).toBe('100 main st nw');
    expect(street('100 Main Street Northwest')).toBe('100 main st nw');
    expect(street('100 Main St. N.W., Suite 3')).toBe('100 main st nw');
    expect(street('100 Main St NW')).not.toBe(street('100 Main St SE'));
    expect(street('100 Main St N')).not.toBe(street('100 N Main St'));
    expect(street('100 N.E. 2nd Ave')).toBe('100 ne 2nd ave');
  });

  it('reads ordinal street names as numerals, as USPS writes them', () => {
    expect(street('100 Fifth Avenue')).toBe('100 5th ave');
    expect(street('100 5th Ave')).toBe('100 5th ave');
    expect(street('100 Twenty-First St')).toBe('100 21st st');
    expect(street('100 Twenty First Street')).toBe('100 21st st');
    expect(street('100 Second St')).toBe(street('100 2nd St'));
  });

  it('keeps street numbers as written, a Queens hyphen included', () => {
    expect(street('12-34 Queens Blvd')).toBe('12-34 queens blvd');
    expect(street('12-34 Queens Blvd')).not.toBe(street('1234 Queens Blvd'));
    expect(street('100-A Main St')).toBe(street('100A Main St'));
    expect(street('100 1/2 Main St')).toBe('100 1/2 main st');
  });

  it('keeps a name that is also a street type, and a name without a type', () => {
    expect(street('100 Park Ave')).toBe('100 park ave');
    expect(street('100 Park Avenue')).not.toBe(street('100 Park St'));
    expect(street('100 Broadway')).toBe('100 broadway');
    expect(street('100 Avenue B')).toBe(street('100 Ave. B'));
  });

  it('gives no key for a P.O. box or a street without a number', () => {
    for (const typed of [
      'PO Box 12',
      'P.O. Box 12',
      'Post Office Box 12',
      'Box 12',
      'Main St',
      'One Main St',
      '#5',
    ])
      expect(street(typed), typed).toBeNull();
  });

  it('ignores case, spacing and punctuation', () => {
    for (const typed of ['100 MAIN ST', '100 main st', '  100   Main    St  ', '100 Main St.'])
      expect(street(typed), typed).toBe('100 main st');
    expect(street("100 O'Farrell St")).toBe(street('100 OFarrell St'));
  });

  it('reads the city with directions, Saint, Fort and Mount abbreviated and accents off', () => {
    const key = (city: string, state = 'SC') => addressKey('1 Main St', city, state);
    expect(key('North Charleston')).toBe('1 main st|n charleston|sc');
    expect(key('N. Charleston')).toBe(key('North Charleston'));
    expect(key('N Charleston')).not.toBe(key('Charleston'));
    expect(key('St. Louis', 'MO')).toBe(key('Saint Louis', 'MO'));
    expect(key('Ft Worth', 'TX')).toBe(key('Fort Worth', 'TX'));
    expect(key('Mt. Pleasant')).toBe(key('Mount Pleasant'));
    expect(key('San José', 'CA')).toBe(key('san jose', 'CA'));
    expect(key('Winston-Salem', 'NC')).toBe(key('Winston Salem', 'NC'));
    // No city, or a state of OTHER (no region to tell two cities apart): no key.
    expect(key('  ')).toBeNull();
    expect(key('Paris', 'OTHER')).toBeNull();
    expect(key('Toronto', 'CANADA')).toBe('1 main st|toronto|canada');
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
