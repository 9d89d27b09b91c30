import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  cardBrandLabel,
  formatCardExpiry,
  formatCardNumberInput,
  formatExpiryInput,
  luhnValid,
  parseExpiry,
  validateCard,
} from './card.ts';
import { CardTokenError, PROVIDER_UNREACHABLE, requestTestCardToken } from './card-token.ts';

const NOW = new Date(2026, 4, 15); // 15 May 2026, local time

describe('card number input', () => {
  it('groups digits by four and drops anything else', () => {
    expect(formatCardNumberInput('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumberInput('4242-4242 42')).toBe('4242 4242 42');
    expect(formatCardNumberInput('abc')).toBe('');
    expect(formatCardNumberInput('1'.repeat(25))).toBe('1111 1111 1111 1111 111');
  });

  it('groups American Express numbers 4-6-5', () => {
    expect(formatCardNumberInput('378282246310005')).toBe('3782 822463 10005');
  });

  it('checks the Luhn digit', () => {
    expect(luhnValid('4242424242424242')).toBe(true);
    expect(luhnValid('4000000000000002')).toBe(true);
    expect(luhnValid('4242424242424241')).toBe(false);
  });
});

describe('card expiry', () => {
  it('formats MM/YY while typing', () => {
    expect(formatExpiryInput('4')).toBe('04');
    expect(formatExpiryInput('1')).toBe('1');
    expect(formatExpiryInput('12')).toBe('12');
    expect(formatExpiryInput('123')).toBe('12/3');
    expect(formatExpiryInput('12/34')).toBe('12/34');
    expect(formatExpiryInput('12/345')).toBe('12/34');
    expect(formatExpiryInput('04/2029')).toBe('04/29');
  });

  it('parses MM/YY and MM/YYYY into a month and four-digit year', () => {
    expect(parseExpiry('04/29', NOW)).toEqual({ month: 4, year: 2029 });
    expect(parseExpiry(' 4 / 2029 ', NOW)).toEqual({ month: 4, year: 2029 });
    expect(parseExpiry('05/26', NOW)).toEqual({ month: 5, year: 2026 });
  });

  it('refuses malformed, impossible and past dates', () => {
    expect(parseExpiry('0429', NOW)).toEqual({ error: 'Enter the expiry date as MM/YY' });
    expect(parseExpiry('13/29', NOW)).toEqual({ error: 'The expiry month must be 01 to 12' });
    expect(parseExpiry('00/29', NOW)).toEqual({ error: 'The expiry month must be 01 to 12' });
    expect(parseExpiry('04/26', NOW)).toEqual({ error: 'This card has expired' });
    expect(parseExpiry('12/25', NOW)).toEqual({ error: 'This card has expired' });
    expect(parseExpiry('01/2099', NOW)).toEqual({ error: 'The expiry year is too far ahead' });
  });

  it('shows a card on file as MM/YYYY', () => {
    expect(formatCardExpiry(4, 2027)).toBe('04/2027');
  });
});

describe('the card form check', () => {
  const good = { number: '4242 4242 4242 4242', expiry: '12/30', cvc: '123', email: 'ap@funder.example' };

  it('accepts a complete card', () => {
    expect(validateCard(good, NOW)).toEqual({});
  });

  it('names every missing field', () => {
    expect(validateCard({ number: '', expiry: '', cvc: '', email: '' }, NOW)).toEqual({
      number: 'Card number is required',
      expiry: 'Expiry date is required',
      cvc: 'CVC is required',
      email: 'Email is required',
    });
  });

  it('refuses a wrong number, CVC and e-mail', () => {
    expect(validateCard({ ...good, number: '4242 4242 4242 4241' }, NOW).number).toBe(
      'Your card number is incorrect.',
    );
    expect(validateCard({ ...good, cvc: '12' }, NOW).cvc).toBe('CVC must be 3 digits');
    expect(validateCard({ ...good, number: '3782 822463 10005', cvc: '123' }, NOW).cvc).toBe(
      'CVC must be 4 digits',
    );
    expect(validateCard({ ...good, email: 'ap@funder' }, NOW).email).toBe(
      'Email is not a valid email address',
    );
  });

  it('spells brands as people write them', () => {
    expect(cardBrandLabel('visa')).toBe('Visa');
    expect(cardBrandLabel('Visa')).toBe('Visa');
    expect(cardBrandLabel('amex')).toBe('American Express');
    expect(cardBrandLabel('MasterCard')).toBe('Mastercard');
    expect(cardBrandLabel('something')).toBe('something');
  });
});

describe('the test-mode card token', () => {
  afterEach(() => vi.unstubAllGlobals());

  const card = { number: '4242 4242 4242 4242', expiry: { month: 4, year: 2029 }, cvc: '123' };

  it("posts the card form-encoded with the publishable key, as Stripe.js does, and reads Stripe's token", async () => {
    const fetchMock = vi.fn(async () => Response.json({ id: 'tok_abc123', object: 'token' }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(requestTestCardToken('http://stripe.test/v1/tokens', 'pk_test_1', card)).resolves.toBe(
      'tok_abc123',
    );
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('http://stripe.test/v1/tokens');
    expect(init.method).toBe('POST');
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer pk_test_1');
    expect(Object.fromEntries(new URLSearchParams(String(init.body)))).toEqual({
      'card[number]': '4242424242424242',
      'card[exp_month]': '4',
      'card[exp_year]': '2029',
      'card[cvc]': '123',
    });
  });

  it("gives Stripe's message and the field it names", async () => {
    vi.stubGlobal('fetch', async () =>
      Response.json(
        { error: { type: 'card_error', message: 'Your card number is incorrect.', param: 'card[number]' } },
        { status: 402 },
      ),
    );
    const error = await requestTestCardToken('/t', 'pk', card).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CardTokenError);
    expect((error as CardTokenError).message).toBe('Your card number is incorrect.');
    expect((error as CardTokenError).field).toBe('number');
  });

  it('says the provider could not be reached when the request fails or answers nonsense', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(requestTestCardToken('/t', 'pk', card)).rejects.toThrow(PROVIDER_UNREACHABLE);
    vi.stubGlobal('fetch', async () => new Response('<html>', { status: 502 }));
    await expect(requestTestCardToken('/t', 'pk', card)).rejects.toThrow(PROVIDER_UNREACHABLE);
  });
});
