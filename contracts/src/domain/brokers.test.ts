import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getBroker } from '../routes/brokers.ts';
import { BROKER_KEY_MAX, BROKER_NAME_MAX, brokerKey, tidyBrokerName } from './brokers.ts';

// Broker keys (issue 30): one key however a broker's name was typed, punctuation inside a word folded
// (I.S.O. is ISO), every script's letters kept; a key is its own key, and the record route takes back
// every key a note's broker name can give.

/** Names with the characters the rules are about, often: folds, separators, marks, expansions, cases. */
const tricky = fc.string({
  unit: fc.constantFrom(
    ...['A', 'b', 'I', 'S', 'o', '1', ' ', '  ', '.', "'", '’', '‘', '&', '-', ',', '\t', 'ー', 'ブ', '・'],
    ...['é', 'e\u0301', 'İ', 'Σ', 'ß', 'ﷺ', '㌖', 'Ⅻ', 'ǅ', 'ᴬ', 'ʼ', '．', '＇', '\u00a0', '\u3000', '😀'],
  ),
  maxLength: 120,
});

describe('brokerKey', () => {
  it('folds dots and apostrophes inside a word: I.S.O., I.S.O and ISO are one broker', () => {
    const key = brokerKey('Gulf Coast ISO');
    expect(key).toBe('gulf coast iso');
    expect(brokerKey('gulf coast I.S.O.')).toBe(key);
    expect(brokerKey('Gulf  Coast I.S.O')).toBe(key);
    expect(brokerKey('GULF COAST I’S’O')).toBe(key);
    expect(brokerKey("O'Brien Capital")).toBe(brokerKey('OBrien Capital'));
    expect(brokerKey('O’Brien Capital')).toBe('obrien capital');
  });

  it('keeps a separator between words: St. Louis is St Louis, A&B and A-B are "a b"', () => {
    expect(brokerKey('St. Louis Funding')).toBe('st louis funding');
    expect(brokerKey('St Louis Funding')).toBe('st louis funding');
    expect(brokerKey('A&B Capital')).toBe('a b capital');
    expect(brokerKey('A & B Capital')).toBe('a b capital');
    expect(brokerKey('A-B Capital')).toBe('a b capital');
    expect(brokerKey('Main Street Brokers, LLC.')).toBe('main street brokers llc');
    expect(brokerKey(' .. ')).toBe('');
  });

  it('keeps every letter of every script, the prolonged sound mark (ー, a modifier letter) too', () => {
    // Voiced marks go as every mark does (ブ keys as フ); the middle dot separates words.
    expect(brokerKey('株式会社ブローカー・サービス')).toBe('株式会社フローカー サーヒス');
    expect(brokerKey('Crédit Agricole')).toBe('credit agricole');
  });

  it('is its own key, for any text', () => {
    for (const names of [fc.string({ unit: 'binary', maxLength: 120 }), tricky])
      fc.assert(
        fc.property(names, (name) => brokerKey(brokerKey(name)) === brokerKey(name)),
        { numRuns: 2000 },
      );
  });

  it(`is at most ${BROKER_KEY_MAX} characters for a name of ${BROKER_NAME_MAX}`, () => {
    // U+FDFA has the longest compatibility decomposition (18 characters).
    expect(brokerKey('ﷺ'.repeat(BROKER_NAME_MAX)).length).toBeLessThanOrEqual(BROKER_KEY_MAX);
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: 'binary', maxLength: BROKER_NAME_MAX }), tricky),
        (name) => name.length > BROKER_NAME_MAX || brokerKey(name).length <= BROKER_KEY_MAX,
      ),
      { numRuns: 2000 },
    );
  });
});

describe('tidyBrokerName', () => {
  it('collapses and trims white space, in one normal form', () => {
    expect(tidyBrokerName('  Gulf  Coast\tISO ')).toBe('Gulf Coast ISO');
    expect(tidyBrokerName('Gulf\u00a0Coast\u3000ISO')).toBe('Gulf Coast ISO');
    expect(tidyBrokerName('Cre\u0301dit')).toBe('Crédit');
  });
});

describe('the record route', () => {
  const params = getBroker.params!;

  it('takes back the key of every name a note may carry', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: BROKER_NAME_MAX }), tricky), (name) => {
        const key = brokerKey(name);
        return key === '' || name.length > BROKER_NAME_MAX || params.safeParse({ key }).success;
      }),
      { numRuns: 2000 },
    );
    for (const name of ['株式会社ブローカー・サービス', 'ﷺ'.repeat(BROKER_NAME_MAX)])
      expect(params.safeParse({ key: brokerKey(name) }).success).toBe(true);
  });

  it('refuses what is not a key', () => {
    for (const key of ['', 'Has Capitals', 'two  spaces', ' edge', 'i.s.o', 'x'.repeat(BROKER_KEY_MAX + 1)])
      expect(params.safeParse({ key }).success, key).toBe(false);
  });
});
