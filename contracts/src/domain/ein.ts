/** EIN/BN rules of DESIGN §4: stored as 9 digits, shown as 12-3456789. */
export const normaliseEin = (input: string): string => input.replace(/[\s-]/g, '');
export const isEinDigits = (value: string): boolean => /^\d{9}$/.test(value);
/** A search term is an EIN when it has 9 digits once dashes and spaces are removed. */
export const isEinSearch = (term: string): boolean => isEinDigits(normaliseEin(term));
export const formatEin = (digits: string): string =>
  digits.length > 2 ? `${digits.slice(0, 2)}-${digits.slice(2, 9)}` : digits;
/** What the form shows while the user types: two digits, a hyphen, then the rest. */
export const formatEinInput = (typed: string): string => formatEin(typed.replace(/\D/g, '').slice(0, 9));
