/**
 * The card panel's typing aids and checks. They only catch mistakes early: the card payment provider
 * checks the card itself when it makes the token, and its message is what the panel then shows.
 */

export interface CardValues {
  number: string;
  expiry: string;
  cvc: string;
  email: string;
}

export type CardErrors = Partial<Record<keyof CardValues, string>>;

export const digitsOf = (text: string): string => text.replace(/\D/g, '');

const isAmex = (digits: string) => /^3[47]/.test(digits);

/** Card number as typed, grouped as on the card: 4-4-4-4(-3), American Express 4-6-5. */
export function formatCardNumberInput(raw: string): string {
  const digits = digitsOf(raw);
  if (isAmex(digits)) {
    const d = digits.slice(0, 15);
    return [d.slice(0, 4), d.slice(4, 10), d.slice(10)].filter(Boolean).join(' ');
  }
  return (
    digits
      .slice(0, 19)
      .match(/.{1,4}/g)
      ?.join(' ') ?? ''
  );
}

/** Expiry as typed, MM/YY: "4" → "04", "042" → "04/2", a pasted "04/2029" → "04/29". */
export function formatExpiryInput(raw: string): string {
  const full = /^\s*(\d{1,2})\s*\/\s*(\d{4})\s*$/.exec(raw);
  if (full?.[1] && full[2]) return `${full[1].padStart(2, '0')}/${full[2].slice(2)}`;
  let digits = digitsOf(raw);
  if (/^[2-9]$/.test(digits)) digits = `0${digits}`;
  digits = digits.slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
}

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export type Expiry = { month: number; year: number };

/** MM/YY (or MM/YYYY) to a month and a four-digit year, or the reason it is not a usable expiry. */
export function parseExpiry(text: string, now = new Date()): Expiry | { error: string } {
  const match = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(text);
  if (!match?.[1] || !match[2]) return { error: 'Enter the expiry date as MM/YY' };
  const month = Number(match[1]);
  const year = match[2].length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
  if (month < 1 || month > 12) return { error: 'The expiry month must be 01 to 12' };
  const thisYear = now.getFullYear();
  if (year < thisYear || (year === thisYear && month < now.getMonth() + 1))
    return { error: 'This card has expired' };
  if (year > thisYear + 50) return { error: 'The expiry year is too far ahead' };
  return { month, year };
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The panel's client checks; an empty object when the card may be sent. */
export function validateCard(values: CardValues, now = new Date()): CardErrors {
  const errors: CardErrors = {};
  const digits = digitsOf(values.number);
  if (!digits) errors.number = 'Card number is required';
  else if (digits.length < 12 || digits.length > 19 || !luhnValid(digits))
    errors.number = 'Your card number is incorrect.';

  if (!values.expiry.trim()) errors.expiry = 'Expiry date is required';
  else {
    const expiry = parseExpiry(values.expiry, now);
    if ('error' in expiry) errors.expiry = expiry.error;
  }

  const cvc = values.cvc.trim();
  const cvcLength = isAmex(digits) ? 4 : 3;
  if (!cvc) errors.cvc = 'CVC is required';
  else if (!new RegExp(`^\\d{${cvcLength}}$`).test(cvc)) errors.cvc = `CVC must be ${cvcLength} digits`;

  const email = values.email.trim();
  if (!email) errors.email = 'Email is required';
  else if (email.length > 64 || !EMAIL.test(email)) errors.email = 'Email is not a valid email address';
  return errors;
}

const BRANDS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  'american express': 'American Express',
  discover: 'Discover',
  diners: 'Diners Club',
  jcb: 'JCB',
  unionpay: 'UnionPay',
};

/** A card brand as people write it, from either of the provider's spellings ("visa", "Visa"). */
export function cardBrandLabel(brand: string): string {
  return BRANDS[brand.trim().toLowerCase()] ?? brand;
}

/** 4 and 2027 → "04/2027". */
export const formatCardExpiry = (month: number, year: number): string =>
  `${String(month).padStart(2, '0')}/${year}`;
