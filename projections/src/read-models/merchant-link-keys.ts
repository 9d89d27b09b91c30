import type { EventData, LinkKind } from '@mrn/contracts';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { USPS_STREET_SUFFIXES } from './usps-street-suffixes.ts';

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

/** Directions, spelled out or not, as one word: "North", "N." and "N" are `n`. */
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
const DIRECTION_ABBREVIATIONS = new Set(Object.values(DIRECTIONS));

/** Ordinal words as numerals: "Fifth Avenue" is "5th Ave", as USPS writes numbered streets. */
const ORDINALS: Record<string, string> = {
  first: '1st',
  second: '2nd',
  third: '3rd',
  fourth: '4th',
  fifth: '5th',
  sixth: '6th',
  seventh: '7th',
  eighth: '8th',
  ninth: '9th',
  tenth: '10th',
  eleventh: '11th',
  twelfth: '12th',
  thirteenth: '13th',
  fourteenth: '14th',
  fifteenth: '15th',
  sixteenth: '16th',
  seventeenth: '17th',
  eighteenth: '18th',
  nineteenth: '19th',
  twentieth: '20th',
  thirtieth: '30th',
  fortieth: '40th',
  fiftieth: '50th',
  sixtieth: '60th',
  seventieth: '70th',
  eightieth: '80th',
  ninetieth: '90th',
};
/** The tens of "Twenty-First" / "Twenty First": "2" before "1st". */
const TENS: Record<string, string> = {
  twenty: '2',
  thirty: '3',
  forty: '4',
  fifty: '5',
  sixty: '6',
  seventy: '7',
  eighty: '8',
  ninety: '9',
};
const ONE_DIGIT_ORDINALS = new Set(Object.values(ORDINALS).filter((n) => n.length === 3));

/**
 * Every word of a street line that has one spelling in a key, wherever it stands: a USPS street type
 * as its C1 abbreviation ("Mountain View Rd" and "Mtn Vw Rd", "Mount Vernon Ave" and "Mt Vernon Ave"
 * are one street), a direction, an ordinal, and "Saint" as "St" ("St Charles Ave").
 */
const STREET_WORDS = new Map<string, string>([
  ...Object.entries(USPS_STREET_SUFFIXES).flatMap(([abbreviation, spellings]) =>
    spellings.map((spelling): [string, string] => [spelling, abbreviation]),
  ),
  ...Object.entries(DIRECTIONS),
  ...Object.entries(ORDINALS),
  ['saint', 'st'],
]);
const STREET_TYPES = new Set(Object.keys(USPS_STREET_SUFFIXES));
/**
 * Route types, and the words a route's name has before its type ("County Road 12", "US Hwy 1", "Old
 * State Route 9", "Farm to Market Rd 1960", "N Loop 410"): the number after such a route is its own, no
 * unit ("100 Maple Hwy 300" has one).
 */
const ROUTE_TYPES = new Set(['rd', 'hwy', 'rte', 'fwy', 'expy', 'tpke', 'pike', 'byp', 'loop', 'spur']);
const ROUTE_QUALIFIERS = new Set([
  ...DIRECTION_ABBREVIATIONS,
  ...'county state us old new farm to market rnch township twp parish interstate'.split(' '),
]);
const isRoute = (key: readonly string[], typeAt: number) =>
  ROUTE_TYPES.has(key[typeAt]!) && key.slice(1, typeAt).every((word) => ROUTE_QUALIFIERS.has(word));

/**
 * USPS secondary unit designators (Publication 28, C2) and "#": a street line's unit starts at one of
 * these, and the key leaves it out. A word that may also name a street ("Front", "Rear", "Lot", "Pier",
 * "Office"…) starts a unit only right after the street's type or post-directional ("12 Main St Rear",
 * not "12 W Front St").
 */
const UNIT_WORDS = new Set(
  '# apt apartment ste suite unit bldg building fl flr floor rm room dept department ph penthouse bsmt basement'.split(
    ' ',
  ),
);
const AMBIGUOUS_UNIT_WORDS = new Set(
  'lot spc space trlr trailer ofc office frnt front rear side lowr lower uppr upper lbby lobby pier slip stop hngr hangar'.split(
    ' ',
  ),
);
const FLOOR_WORDS = new Set(['fl', 'flr', 'floor']);

/** Accents off ("San José" is "San Jose"), only when there are any. */
const plain = (text: string) =>
  /[\u0080-\uffff]/.test(text) ? text.normalize('NFD').replace(/\p{M}+/gu, '') : text;

const hasDigit = (word: string) => /\d/.test(word);

/**
 * A street line's words, lower case, without punctuation: apostrophes dropped ("O'Farrell" is
 * "ofarrell"), dotted initials joined ("N.E." is "ne", "P.O." is "po"), "#" a word of its own, hyphens
 * kept only in the street number ("12-34", a Queens number). Of lines split by commas, the first that
 * starts with a number ("Suite 200, 100 Main St").
 */
function streetWords(street1: string): string[] | null {
  for (const part of plain(street1.toLowerCase()).split(',')) {
    const words = part
      .replace(/['’`]/g, '')
      .replace(/\b([a-z])\.(?=[a-z]\b)/g, '$1')
      .replace(/#/g, ' # ')
      .split(/[^\p{L}\p{N}#/-]+/u)
      .filter(Boolean);
    if (words.length === 0) continue;
    let first = 0;
    // A unit written before the street: "Suite 5 100 Main St", "#5 100 Main St".
    if (UNIT_WORDS.has(words[0]!) && words.length > 2) first = 2;
    const number = words[first]!.replace(/^-+|-+$/g, '');
    if (!hasDigit(number) || UNIT_WORDS.has(words[first + 1] ?? '#')) continue;
    const out = [number.replace(/(\d)-(?=\p{L})/gu, '$1')];
    for (let i = first + 1; i < words.length; i++) {
      const word = words[i]!;
      if (!word.includes('-')) out.push(word);
      else for (const piece of word.split('-')) if (piece) out.push(piece);
    }
    return out;
  }
  return null;
}

/**
 * Whether the first `length` words of a key end with the street's type (at `typeAt`), or with its type
 * and a post-directional ("Main St", "Main St NW").
 */
const endsWithType = (key: readonly string[], length: number, typeAt: number) =>
  typeAt > 0 &&
  (typeAt === length - 1 || (typeAt === length - 2 && DIRECTION_ABBREVIATIONS.has(key[length - 1]!)));

/**
 * A street line as one key: its number, then its words with one spelling each (see STREET_WORDS), up
 * to the unit, which is left out. Null without a number with a digit or without a street after it (a
 * P.O. box, "Main St").
 */
export function streetKey(street1: string): string | null {
  const words = streetWords(street1);
  if (!words || words.length < 2) return null;
  const key: string[] = [words[0]!];
  // Where in `key` the last street type after the street's first word is ("100 Park Ave": "ave"), or -1.
  let typeAt = -1;
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    if (key.length > 1 && UNIT_WORDS.has(word)) {
      // "2nd Floor": the floor's number goes with it.
      if (FLOOR_WORDS.has(word) && key.length > 2 && /^\d+(st|nd|rd|th)$/.test(key[key.length - 1]!))
        key.pop();
      break;
    }
    if (AMBIGUOUS_UNIT_WORDS.has(word) && endsWithType(key, key.length, typeAt)) break;
    let spelled = STREET_WORDS.get(word) ?? word;
    const next = ORDINALS[words[i + 1] ?? ''];
    if (TENS[word] && next && ONE_DIGIT_ORDINALS.has(next)) {
      spelled = TENS[word] + next;
      i++;
    }
    if (key.length > 1 && STREET_TYPES.has(spelled)) typeAt = key.length;
    key.push(spelled);
  }
  // A bare unit number after the street's type or post-directional: "100 Main St 2B", "100 Main St E 5"
  // (not a route's number: "100 County Road 12"; "100 Highway 9" has no type after its first word).
  const last = key.length - 1;
  if (hasDigit(key[last]!) && endsWithType(key, last, typeAt) && !isRoute(key, typeAt)) key.pop();
  return key.join(' ');
}

/** City words that have one spelling in a key: directions, "Saint", "Fort", "Mount". */
const CITY_WORDS: Record<string, string> = {
  ...DIRECTIONS,
  saint: 'st',
  sainte: 'ste',
  fort: 'ft',
  mount: 'mt',
};

/**
 * A city as one key: lower case, accents and punctuation off, directions and "Saint", "Fort" and
 * "Mount" abbreviated ("North Charleston" and "N. Charleston", "St. Louis" and "Saint Louis" are one).
 */
export function cityKey(city: string): string | null {
  const words = plain(city.toLowerCase())
    .replace(/['’`]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  return words.length ? words.map((w) => CITY_WORDS[w] ?? w).join(' ') : null;
}

/**
 * A street address as one key: "number street|city|state" (`100 n main st|springfield|il`). The
 * street line is read here (streetKey: the same number, street words with their USPS spellings, the
 * unit or suite left out, so a business that moves a floor stays the same business); city and state
 * are the merchant's own fields, the state its 2-letter code. No street number, a P.O. box, no city or a
 * state of OTHER links nothing.
 */
export function addressKey(street1: string | null, city: string, state: string): string | null {
  if (!street1) return null;
  const region = state.trim().toLowerCase();
  if (!region || region === 'other') return null;
  const street = streetKey(street1);
  if (!street) return null;
  const place = cityKey(city);
  return place ? `${street}|${place}|${region}` : null;
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
