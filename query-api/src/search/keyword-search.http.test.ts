import { randomUUID } from 'node:crypto';
import { routes, streams } from '@mrn/contracts';
import { DEMO_PASSWORD, startTestServer, type TestServer } from '@mrn/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keywordKeys, keywordRange, keywordScan, keywordWords } from '../views.ts';
import { SEARCH_STATEMENTS } from './search-handlers.ts';

// Keyword search of two words or more intersects read.merchant_keywords' pairs (issue 31, item 4,
// migration 0024) instead of scanning the longest word's range of read.merchant_words. Its rules
// are the scan's: each word begins a word of the legal name or DBA (under three letters: is one),
// folded; at most 25 (PRO) in the order of the longest word's word, then name and id; a word that
// begins no known word corrected when nothing matches. The answers are pinned here by example and
// against the scan itself, term by term, on names made to be awkward.

let server: TestServer;
let dana = ''; // Summit (PRO): 25 merchants at most
let priya = ''; // Harbor (BASIC): 5
let account = '';
let user = '';
const nameOf = new Map<string, string>();

/** mulberry32: the same names and terms on every run. */
function rng(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = rng(31);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

// Words sharing beginnings, three and four letters long, short ones, hyphens and dots.
const FIRST = [
  'Zircon',
  'Zirconia',
  'Zircuit',
  'Harbor',
  'Harbour',
  'Harbinger',
  'Golden',
  'Goldleaf',
  'Ace',
];
const SECOND = ['Diner', 'Dinette', 'Dine', 'Bakery', 'Baker', 'Bakehouse', 'Motors', 'Auto-Parts', 'Spa'];
const SUFFIX = ['LLC', 'Inc', 'Co', 'Corp', ''];

/** Legal name and DBA of the merchants the search is tried on. */
const NAMES: [string, string | null][] = [
  // Pinned by example below (no other name has a word beginning "xeno").
  ['Xenon Diner LLC', null],
  ['Xenon Dinette Co', null],
  ['Diner Xenon', null],
  ['Xenonia Diner', null],
  ['Xenonium Bakery', 'Diner Express'],
  ['Xenon Dance Studio', null],
  ['Xenon Coastal Inc', null],
  ['Xenon Xenon Diner', null],
  // What a regular expression over the name finds that the full-text parser keeps whole, and back.
  ['Amazon.com Inc', null],
  ['3.5mm Audio Co', null],
  ['Café Müller GmbH', 'Muller Bakery'],
  ['Москва Pizza LLC', null],
  ["Joe's Bar & Grill", null],
  ['7-Eleven Store 12', null],
  ['B&B Bakery', null],
  // More than 16 distinct word beginnings: one key '*' instead of the pairs.
  [
    'Alpha Bravo Charlie Delta Echo Foxtrot Golf Hotel India Juliet Kilo Lima Mike November Oscar Papa Quebec',
    'Diner',
  ],
  ...Array.from({ length: 200 }, (): [string, string | null] => [
    [pick(FIRST), pick(SECOND), pick(SUFFIX)].filter(Boolean).join(' '),
    random() < 0.3 ? `${pick(FIRST)} ${pick(SECOND)}` : null,
  ]),
  // Past CROWDED merchants with one pair: the scan answers.
  ...Array.from({ length: 140 }, (_, i): [string, string | null] => [`Crowded Pair Goods ${i}`, null]),
  // More than a PRO funder is shown.
  ...Array.from({ length: 30 }, (_, i): [string, string | null] => [`Quokka Freight ${i} LLC`, null]),
];

beforeAll(async () => {
  server = await startTestServer({ demo: true });
  dana = await server.login('dana.whitfield@summitcapital.example', DEMO_PASSWORD);
  priya = await server.login('priya.natarajan@harboradvance.example', DEMO_PASSWORD);
  const me = await server.call({ method: 'GET', url: routes.autoLogin.path, token: dana });
  account = me.body.data.user.account_resource_id;
  user = me.body.data.user.resource_id;
  await server.store.appendMany(
    NAMES.map(([legalName, dba], i) => {
      const merchantId = randomUUID();
      nameOf.set(merchantId, `${legalName}${dba ? ` / ${dba}` : ''}`);
      return {
        streamId: streams.merchant(merchantId),
        expectedRevision: 'no_stream' as const,
        events: [
          {
            id: randomUUID(),
            type: 'MerchantAdded' as const,
            data: {
              merchantId,
              fein: String(780_000_000 + i),
              legalName,
              dba,
              street1: null,
              street2: null,
              city: 'Tulsa',
              state: 'OK',
              businessPhone: null,
              businessStartdate: null,
              industry: null,
              accountId: account,
              userId: user,
            },
          },
        ],
      };
    }),
  );
  expect(await server.projectedAll(['merchants'], 20_000)).toBe(true);
}, 60_000);
afterAll(async () => {
  await server?.close();
});

/** The search as a funder sees it: the names shown, and whether more matched. */
async function search(term: string, token = dana): Promise<{ names: string[]; more: boolean }> {
  const res = await server.call({
    method: 'GET',
    url: `${routes.searchMerchants.path}?search=${encodeURIComponent(term)}`,
    token,
  });
  if (res.status === 404) return { names: [], more: false };
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return {
    names: res.body.data.map((m: { resource_id: string }) => nameOf.get(m.resource_id) ?? m.resource_id),
    more: res.body.warning !== null,
  };
}

/** The scan of the longest word's range (the search before the intersection): the first 26 ids. */
async function scanned(words: readonly string[]): Promise<string[]> {
  const { rows } = await server.db.pool.query<{ merchant_id: string }>(
    SEARCH_STATEMENTS.keywordScan,
    keywordScan(words),
  );
  return [...new Set(rows.map((r) => r.merchant_id))].slice(0, 26);
}

/** What the search answered before the intersection: the scan, or the scan of the corrected words. */
async function scannedSearch(term: string): Promise<string[]> {
  const words = keywordWords(term);
  if (words.length === 0) return [];
  const found = await scanned(words);
  if (found.length > 0) return found;
  const { rows } = await server.db.pool.query<{ word: string }>(SEARCH_STATEMENTS.corrections, [
    words,
    words.map((w) => keywordRange(w)[1]),
  ]);
  const corrected = rows.map((r) => r.word);
  return corrected.every((w, i) => w === words[i]) ? [] : scanned(corrected);
}

describe('keyword search of several words', () => {
  it('finds the merchants with every word, in the legal name or the DBA, in the longest word’s order', async () => {
    // "xenon" is the longer: its words (xenon < xenonia < xenonium), then names.
    expect(await search('xenon diner')).toEqual({
      names: [
        'Diner Xenon',
        'Xenon Diner LLC',
        'Xenon Xenon Diner',
        'Xenonia Diner',
        'Xenonium Bakery / Diner Express',
      ],
      more: false,
    });
    expect((await search('Diner XENON')).names).toEqual((await search('xenon diner')).names);
    expect((await search('xenonium express')).names).toEqual(['Xenonium Bakery / Diner Express']);
  });

  it('takes each word as the beginning of a word, the last one typed too', async () => {
    expect((await search('xenon din')).names).toEqual([
      'Diner Xenon',
      'Xenon Diner LLC',
      'Xenon Dinette Co',
      'Xenon Xenon Diner',
      'Xenonia Diner',
      'Xenonium Bakery / Diner Express',
    ]);
    expect((await search('xenon dine')).names).toEqual((await search('xenon din')).names);
    expect((await search('xeno dinet')).names).toEqual(['Xenon Dinette Co']);
    expect((await search('xenoni diner')).names).toEqual([
      'Xenonia Diner',
      'Xenonium Bakery / Diner Express',
    ]);
  });

  it('takes a word under three letters as a whole word only', async () => {
    expect((await search('xenon co')).names).toEqual(['Xenon Dinette Co']);
    expect((await search('xenon coa')).names).toEqual(['Xenon Coastal Inc']);
    expect((await search('b bakery')).names).toEqual(['B&B Bakery']);
  });

  it('finds words as the name has them: folded, split at hyphens, apostrophes, dots', async () => {
    expect((await search('muller cafe')).names).toEqual(['Café Müller GmbH / Muller Bakery']);
    expect((await search('amazon com')).names).toEqual(['Amazon.com Inc']);
    expect((await search('5mm audio')).names).toEqual(['3.5mm Audio Co']);
    expect((await search("joe's grill")).names).toEqual(["Joe's Bar & Grill"]);
    expect((await search('7-eleven store')).names).toEqual(['7-Eleven Store 12']);
    expect((await search('москва pizza')).names).toEqual(['Москва Pizza LLC']);
    expect((await search('oscar diner')).names).toEqual([expect.stringMatching(/^Alpha Bravo/)]);
  });

  it('shows at most the plan’s cap, in name order, and says more matched', async () => {
    const all = Array.from({ length: 30 }, (_, i) => `Quokka Freight ${i} LLC`).sort();
    expect(await search('quokka freight')).toEqual({ names: all.slice(0, 25), more: true });
    expect(await search('freight quokka', priya)).toEqual({ names: all.slice(0, 5), more: true });
    const crowded = Array.from({ length: 140 }, (_, i) => `Crowded Pair Goods ${i}`).sort();
    expect(await search('pair crowded')).toEqual({ names: crowded.slice(0, 25), more: true });
  });

  it('corrects a word that begins no known word when nothing matches', async () => {
    expect((await search('xenom dinette')).names).toEqual(['Xenon Dinette Co']);
    expect((await search('xenon dinnete')).names).toEqual(['Xenon Dinette Co']);
  });

  it('answers as the scan did, term by term, intersecting where the pairs are few', async () => {
    const named = [...nameOf.values()].flatMap((n) => keywordWords(n));
    const cut = (w: string) => w.slice(0, 1 + Math.floor(random() * w.length));
    const terms = [
      ...Array.from({ length: 120 }, () => {
        const words = Array.from({ length: 2 + Math.floor(random() * 2) }, () => pick(named));
        words[words.length - 1] = cut(words[words.length - 1]!);
        return words.join(' ');
      }),
      'harbor bakery',
      'bakery harbor co',
      'golden b',
      'golden ba',
      'gold bak',
      'ace spa',
      'ace sp',
      'auto parts',
      'parts auto harbour',
      'xenon xenon',
      'xenon xeno',
      'zircon zirc',
      'crowded pair goods 13',
    ];
    let intersected = 0;
    let crowded = 0;
    for (const term of terms) {
      const words = keywordWords(term);
      const expected = await scannedSearch(term);
      const keys = keywordKeys(words);
      if (keys.length > 0) {
        const { rows } = await server.db.pool.query<{ ids: string[] | null; found: number }>(
          SEARCH_STATEMENTS.keywordPairs,
          [...keywordScan(words), keys],
        );
        if (rows[0]!.found <= 128) {
          intersected++;
          expect(rows[0]!.ids ?? [], term).toEqual(await scanned(words));
        } else crowded++;
      }
      expect(await search(term), term).toEqual({
        names: expected.slice(0, 25).map((id) => nameOf.get(id) ?? id),
        more: expected.length > 25,
      });
    }
    expect(intersected).toBeGreaterThan(60);
    expect(crowded).toBeGreaterThan(0);
  }, 120_000);
});
