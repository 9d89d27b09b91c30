import { cardError, type StripeApiError } from './errors.ts';

/**
 * Stripe's documented test cards. The declining ones fail when they are saved to a customer
 * (Stripe checks a card as it is attached), except 4000000000000341, which saves and then fails
 * every charge: that is the card for renewals that fail.
 */
export interface Decline {
  code: string;
  declineCode: string;
  message: string;
}

export interface TestCard {
  number: string;
  brand: 'visa' | 'mastercard' | 'amex';
  funding: 'credit' | 'debit';
  onAttach?: Decline;
  onCharge?: Decline;
}

const GENERIC: Decline = {
  code: 'card_declined',
  declineCode: 'generic_decline',
  message: 'Your card was declined.',
};
const INSUFFICIENT: Decline = {
  code: 'card_declined',
  declineCode: 'insufficient_funds',
  message: 'Your card has insufficient funds.',
};

const CARDS: readonly TestCard[] = [
  { number: '4242424242424242', brand: 'visa', funding: 'credit' },
  { number: '4000056655665556', brand: 'visa', funding: 'debit' },
  { number: '5555555555554444', brand: 'mastercard', funding: 'credit' },
  { number: '378282246310005', brand: 'amex', funding: 'credit' },
  { number: '4000000000000002', brand: 'visa', funding: 'credit', onAttach: GENERIC },
  { number: '4000000000009995', brand: 'visa', funding: 'credit', onAttach: INSUFFICIENT },
  {
    number: '4000000000009987',
    brand: 'visa',
    funding: 'credit',
    onAttach: { code: 'card_declined', declineCode: 'lost_card', message: 'Your card was declined.' },
  },
  {
    number: '4000000000009979',
    brand: 'visa',
    funding: 'credit',
    onAttach: { code: 'card_declined', declineCode: 'stolen_card', message: 'Your card was declined.' },
  },
  {
    number: '4000000000000069',
    brand: 'visa',
    funding: 'credit',
    onAttach: { code: 'expired_card', declineCode: 'expired_card', message: 'Your card has expired.' },
  },
  {
    number: '4000000000000127',
    brand: 'visa',
    funding: 'credit',
    onAttach: {
      code: 'incorrect_cvc',
      declineCode: 'incorrect_cvc',
      message: "Your card's security code is incorrect.",
    },
  },
  {
    number: '4000000000000119',
    brand: 'visa',
    funding: 'credit',
    onAttach: {
      code: 'processing_error',
      declineCode: 'processing_error',
      message: 'An error occurred while processing your card. Try again in a little bit.',
    },
  },
  { number: '4000000000000341', brand: 'visa', funding: 'credit', onCharge: GENERIC },
];

/** Stripe's ready-made tokens; `pm_card_<name>` are the matching ready-made payment methods. */
const MAGIC: Record<string, string> = {
  visa: '4242424242424242',
  visa_debit: '4000056655665556',
  mastercard: '5555555555554444',
  amex: '378282246310005',
  chargeDeclined: '4000000000000002',
  chargeDeclinedInsufficientFunds: '4000000000009995',
  chargeDeclinedLostCard: '4000000000009987',
  chargeDeclinedStolenCard: '4000000000009979',
  chargeDeclinedExpiredCard: '4000000000000069',
  chargeDeclinedIncorrectCvc: '4000000000000127',
  chargeDeclinedProcessingError: '4000000000000119',
  chargeCustomerFail: '4000000000000341',
};

export function testCard(number: string): TestCard | undefined {
  return CARDS.find((c) => c.number === number);
}

/** The card behind `tok_visa` or `pm_card_visa`, if the id is one of Stripe's ready-made ones. */
export function magicCard(id: string): TestCard | undefined {
  const name = id.startsWith('tok_') ? id.slice(4) : id.startsWith('pm_card_') ? id.slice(8) : undefined;
  const number = name === undefined ? undefined : MAGIC[name];
  return number ? testCard(number) : undefined;
}

export function luhnValid(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export interface TypedCard {
  number: string;
  expMonth: string;
  expYear: string;
  cvc?: string;
}

export interface ValidCard {
  card: TestCard;
  expMonth: number;
  expYear: number;
  cvcProvided: boolean;
}

/**
 * Checks typed card details the way Stripe's tokenizer does in test mode, including its refusal of
 * real card numbers. `paramPrefix` names the fields in errors (`card` → `card[number]`).
 */
export function validateTypedCard(input: TypedCard, paramPrefix: string, now = new Date()): ValidCard {
  const param = (name: string) => `${paramPrefix}[${name}]`;
  const number = input.number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(number) || !luhnValid(number)) {
    throw cardError('incorrect_number', 'Your card number is incorrect.', { param: param('number') });
  }
  const expMonth = /^\d{1,2}$/.test(input.expMonth.trim()) ? Number(input.expMonth.trim()) : Number.NaN;
  if (!(expMonth >= 1 && expMonth <= 12)) {
    throw cardError('invalid_expiry_month', "Your card's expiration month is invalid.", {
      param: param('exp_month'),
    });
  }
  const yearText = input.expYear.trim();
  let expYear = /^\d{2}$|^\d{4}$/.test(yearText) ? Number(yearText) : Number.NaN;
  if (expYear < 100) expYear += 2000;
  const thisYear = now.getUTCFullYear();
  const thisMonth = now.getUTCMonth() + 1;
  if (!(expYear >= thisYear && expYear <= thisYear + 50)) {
    throw cardError('invalid_expiry_year', "Your card's expiration year is invalid.", {
      param: param('exp_year'),
    });
  }
  if (expYear === thisYear && expMonth < thisMonth) {
    throw cardError('invalid_expiry_month', "Your card's expiration month is invalid.", {
      param: param('exp_month'),
    });
  }
  const card = testCard(number);
  if (!card) {
    throw cardError(
      'card_declined',
      'Your card was declined. Your request was in test mode, but used a non test card. For a list of valid test cards, visit: https://stripe.com/docs/testing.',
      { declineCode: 'test_mode_live_card' },
    );
  }
  const cvc = input.cvc?.trim();
  if (cvc !== undefined && cvc !== '') {
    const length = card.brand === 'amex' ? 4 : 3;
    if (!new RegExp(`^\\d{${length}}$`).test(cvc)) {
      throw cardError('invalid_cvc', "Your card's security code is invalid.", { param: param('cvc') });
    }
  }
  return { card, expMonth, expYear, cvcProvided: cvc !== undefined && cvc !== '' };
}

export function declineError(decline: Decline, paymentMethod?: string): StripeApiError {
  return cardError(decline.code, decline.message, {
    declineCode: decline.declineCode,
    ...(paymentMethod ? { paymentMethod } : {}),
  });
}

/** Card objects (tokens, sources) spell brands the old way; payment methods use lower case. */
export function sourceBrand(brand: TestCard['brand']): string {
  return brand === 'visa' ? 'Visa' : brand === 'mastercard' ? 'MasterCard' : 'American Express';
}

export const last4 = (card: TestCard): string => card.number.slice(-4);
