import type { CardValues, Expiry } from './card.ts';
import { digitsOf } from './card.ts';

/** A refusal from the card payment provider's tokenizer, with the field it names when it names one. */
export class CardTokenError extends Error {
  readonly field: keyof CardValues | null;

  constructor(message: string, field: keyof CardValues | null = null) {
    super(message);
    this.name = 'CardTokenError';
    this.field = field;
  }
}

export const PROVIDER_UNREACHABLE = 'The card payment provider could not be reached. Please try again.';

const FIELD_OF_PARAM: Record<string, keyof CardValues> = {
  'card[number]': 'number',
  'card[exp_month]': 'expiry',
  'card[exp_year]': 'expiry',
  'card[cvc]': 'cvc',
};

/**
 * Billing test mode: the card goes to the test server's token endpoint exactly as Stripe.js sends it
 * to Stripe (`POST /v1/tokens`, form-encoded `card[…]`, the publishable key as bearer), and the
 * answer is Stripe's: `{ id: 'tok_…' }` or `{ error: { message, param } }`.
 *
 * Live mode does not come here: there the card is typed into Stripe Elements (Stripe.js from
 * js.stripe.com, mounted with the publishable key) and `stripe.createToken(card)` gives the token, so
 * the number never touches our page. That script cannot be fetched in this environment and the
 * Content-Security-Policy would have to allow js.stripe.com; the panel says so instead of a form.
 */
export async function requestTestCardToken(
  tokenUrl: string,
  publishableKey: string,
  card: { number: string; expiry: Expiry; cvc: string },
  signal?: AbortSignal,
): Promise<string> {
  const body = new URLSearchParams({
    'card[number]': digitsOf(card.number),
    'card[exp_month]': String(card.expiry.month),
    'card[exp_year]': String(card.expiry.year),
    'card[cvc]': card.cvc.trim(),
  });
  let response: Response;
  try {
    response = await fetch(tokenUrl, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${publishableKey}`,
        'Content-Type': 'application/x-www-form-urlencoded',
        Accept: 'application/json',
      },
      body,
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new CardTokenError(PROVIDER_UNREACHABLE);
  }
  const answer = (await response.json().catch(() => null)) as {
    id?: unknown;
    error?: { message?: unknown; param?: unknown };
  } | null;
  if (response.ok && typeof answer?.id === 'string' && answer.id.startsWith('tok_')) return answer.id;
  const message = answer?.error?.message;
  const param = answer?.error?.param;
  throw new CardTokenError(
    typeof message === 'string' && message ? message : PROVIDER_UNREACHABLE,
    typeof param === 'string' ? (FIELD_OF_PARAM[param] ?? null) : null,
  );
}
