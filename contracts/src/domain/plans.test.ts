import { describe, expect, it } from 'vitest';
import { PLANS, PRO_FEATURES, proFeatureSentence } from './plans.ts';

// What PRO gives, one list (issue 32 item 5, finding 1): /pro, the plan tables, the PRO banner and the
// upgrade pages all read it, so each signal PRO has is named wherever PRO is sold.

const byKey = Object.fromEntries(PRO_FEATURES.map((f) => [f.key, f]));

describe('PRO_FEATURES', () => {
  it('names the PRO signals: inquiry velocity, being-shopped and risk-signal alerts, broker records', () => {
    expect(byKey.inquiry_velocity?.description).toMatch(/7, 30 and 90 days/);
    expect(byKey.shopped_alerts?.description).toContain('merchant.shopped');
    expect(byKey.risk_signal_alerts?.description).toContain('merchant.signals_changed');
    expect(byKey.broker_records?.name).toBe('Broker records');
    for (const key of ['inquiry_velocity', 'shopped_alerts', 'risk_signal_alerts', 'broker_records'])
      expect([key, byKey[key]?.basic, byKey[key]?.pro]).toEqual([key, false, true]);
  });

  it('says linked merchants are in every plan, not sold as PRO', () => {
    expect(byKey.linked_merchants?.name).toMatch(/possibly the same business/);
    expect([byKey.linked_merchants?.basic, byKey.linked_merchants?.pro]).toEqual([true, true]);
    expect(proFeatureSentence()).not.toContain('linked merchants');
  });

  it('offers portfolio screening as a PRO feature: up to 10,000 EINs and a report', () => {
    const screening = byKey.portfolio_screening;
    expect(screening).toMatchObject({ basic: false, pro: true });
    expect(screening?.description).toMatch(/up to 10,000 EINs.*report/i);
    expect(PRO_FEATURES.filter((f) => f.coming).map((f) => f.key)).toEqual([]);
  });

  it('takes its limits from PLANS', () => {
    expect([byKey.searches?.basic, byKey.searches?.pro]).toEqual(['Up to 3,000', 'Unlimited']);
    expect(byKey.keyword_matches?.pro).toBe(`Up to ${PLANS.PRO.keywordMatchLimit}`);
  });

  it('has one key and one name per feature', () => {
    expect(new Set(PRO_FEATURES.map((f) => f.key)).size).toBe(PRO_FEATURES.length);
    expect(new Set(PRO_FEATURES.map((f) => f.name)).size).toBe(PRO_FEATURES.length);
  });

  it('sums PRO up in one sentence naming every feature BASIC lacks', () => {
    const sentence = proFeatureSentence();
    expect(sentence).toMatch(/^Everything in BASIC, plus unlimited searches, /);
    expect(sentence).toMatch(/ and portfolio screening\.$/);
    for (const phrase of ['inquiry velocity', 'being-shopped alerts', 'risk-signal alerts', 'broker records'])
      expect(sentence).toContain(phrase);
  });
});
