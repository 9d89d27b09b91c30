/**
 * Errors in Stripe's wire shape: `{ error: { type, code?, decline_code?, message, param? } }`. The SDK
 * chooses its error class from the HTTP status (400/404 → StripeInvalidRequestError, 401 →
 * StripeAuthenticationError, 402 → StripeCardError), so every status here is the one Stripe uses.
 */
export interface StripeErrorBody {
  type: 'invalid_request_error' | 'card_error' | 'api_error' | 'idempotency_error';
  message: string;
  code?: string;
  decline_code?: string;
  param?: string;
  doc_url?: string;
  payment_method?: { id: string; object: 'payment_method'; type: string };
}

export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: StripeErrorBody,
  ) {
    super(body.message);
  }
}

const docUrl = (code: string) => `https://stripe.com/docs/error-codes/${code.replaceAll('_', '-')}`;

export function resourceMissing(kind: string, id: string, param?: string): StripeApiError {
  return new StripeApiError(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    doc_url: docUrl('resource_missing'),
    message: `No such ${kind}: '${id}'`,
    ...(param ? { param } : {}),
  });
}

/** A reference inside a request body that names nothing: Stripe answers 400 there, 404 only for the URL's own id. */
export function referenceMissing(kind: string, id: string, param: string): StripeApiError {
  const error = resourceMissing(kind, id, param);
  return new StripeApiError(400, error.body);
}

export function parameterMissing(param: string): StripeApiError {
  return new StripeApiError(400, {
    type: 'invalid_request_error',
    code: 'parameter_missing',
    doc_url: docUrl('parameter_missing'),
    message: `Missing required param: ${param}.`,
    param,
  });
}

export function parameterUnknown(param: string, known: readonly string[]): StripeApiError {
  return new StripeApiError(400, {
    type: 'invalid_request_error',
    code: 'parameter_unknown',
    doc_url: docUrl('parameter_unknown'),
    message:
      `Received unknown parameter: ${param}. ` +
      `The billing test server implements only: ${known.length ? known.join(', ') : '(none)'}.`,
    param,
  });
}

export function invalidRequest(message: string, param?: string, code?: string): StripeApiError {
  return new StripeApiError(400, {
    type: 'invalid_request_error',
    message,
    ...(code ? { code, doc_url: docUrl(code) } : {}),
    ...(param ? { param } : {}),
  });
}

export function invalidInteger(param: string, value: unknown): StripeApiError {
  return invalidRequest(`Invalid integer: ${String(value)}`, param, 'parameter_invalid_integer');
}

export function cardError(
  code: string,
  message: string,
  opts: { declineCode?: string; param?: string; paymentMethod?: string } = {},
): StripeApiError {
  return new StripeApiError(402, {
    type: 'card_error',
    code,
    doc_url: docUrl(code),
    message,
    ...(opts.declineCode ? { decline_code: opts.declineCode } : {}),
    ...(opts.param ? { param: opts.param } : {}),
    ...(opts.paymentMethod
      ? { payment_method: { id: opts.paymentMethod, object: 'payment_method' as const, type: 'card' } }
      : {}),
  });
}

export function authenticationError(message: string): StripeApiError {
  // Stripe types its 401 answers as invalid_request_error; the SDK keys on the status.
  return new StripeApiError(401, { type: 'invalid_request_error', message });
}

export function unrecognizedUrl(method: string, url: string): StripeApiError {
  return new StripeApiError(404, {
    type: 'invalid_request_error',
    message: `Unrecognized request URL (${method}: ${url}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
  });
}
