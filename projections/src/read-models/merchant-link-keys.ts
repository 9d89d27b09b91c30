import type { EventData, LinkKind } from '@mrn/contracts';
import { parseAddress } from 'addresser';
import { parsePhoneNumberFromString } from 'libphonenumber-js';

/** What a merchant is matched on to find other EINs that are possibly the same business (issue 24). */
export interface LinkKey {
  kind: LinkKind;
  key: string;
}

/**
 * A business phone as one key however it was typed ("(212) 555-0134", "212.555.0134", "+1 212 555 0134"
 * and an extension all give +12125550134): libphonenumber-js's E.164 form of a valid number, US by
 * default. A number that is not valid (too short, a placeholder) links nothing.
 */
export function phoneKey(phone: string | null): string | null {
  if (!phone?.trim()) return null;
  const parsed = parsePhoneNumberFromString(phone, 'US');
  return parsed?.isValid() ? parsed.number : null;
}

/** Directions as addresser leaves them ("N.", "North"): one spelling, so both name one street. */
const DIRECTIONS: Record<string, string> = {
  north: 'n',
  south: 's',
  east: 'e',
  west: 'w',
  northeast: 'ne',
  northwest: 'nw',
  southeast: 'se',
  southwest: 'sw',
};

const words = (text: string) =>
  text
    .toLowerCase()
    .replace(/[.,#]/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => DIRECTIONS[w] ?? w);

/**
 * A street address as one key: addresser's parse of "street1, city, state" (suffixes to their USPS
 * abbreviation: "Street" and "St." are "st"), lower case, directions abbreviated. A match needs the same
 * street number (with a digit), street name and type, city and state; the suite or unit is not compared
 * (a business that moves a floor stays the same business). No street, a P.O. box or an address
 * addresser cannot read links nothing.
 */
export function addressKey(street1: string | null, city: string, state: string): string | null {
  if (!street1?.trim() || !city.trim()) return null;
  let parsed: ReturnType<typeof parseAddress>;
  try {
    parsed = parseAddress(`${street1}, ${city}, ${state}`);
  } catch {
    return null;
  }
  const { streetNumber, streetName, streetSuffix, placeName, stateAbbreviation } = parsed;
  if (!streetNumber || !/\d/.test(streetNumber) || !streetName || !placeName || !stateAbbreviation)
    return null;
  const street = words([streetNumber, streetName, streetSuffix ?? ''].join(' ')).join(' ');
  return `${street}|${words(placeName).join(' ')}|${stateAbbreviation.toLowerCase()}`;
}

/** A merchant's link keys from what was reported about it. */
export function linkKeys(
  m: Pick<EventData<'MerchantAdded'>, 'businessPhone' | 'street1' | 'city' | 'state'>,
): LinkKey[] {
  const keys: LinkKey[] = [];
  const phone = phoneKey(m.businessPhone);
  if (phone) keys.push({ kind: 'phone', key: phone });
  const address = addressKey(m.street1, m.city, m.state);
  if (address) keys.push({ kind: 'address', key: address });
  return keys;
}
