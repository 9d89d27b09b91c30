/**
 * What kind of refusal a rule makes. Deciders and handlers say *what* went wrong; only the error handler
 * knows HTTP (see `REFUSAL_STATUS` in http/error-handler.ts), so the domain stays free of transport.
 */
export type RefusalKind =
  | 'invalid'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'gone'
  | 'rule_broken'
  | 'rate_limited'
  | 'payment_required'
  | 'unavailable';

/** A refusal the caller can act on, with the user-facing text of the specs. */
export class DomainError extends Error {
  constructor(
    readonly kind: RefusalKind,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

type Details = Record<string, unknown>;
/** Bad input the schema could not know about (a field's value against the state). */
export const invalid = (message: string, details: Details = {}) =>
  new DomainError('invalid', message, details);
export const unauthorized = (message = 'Your session has ended. Please sign in again.') =>
  new DomainError('unauthorized', message);
export const forbidden = (message = 'You are not allowed to do that.') =>
  new DomainError('forbidden', message);
export const notFound = (message: string, details: Details = {}) =>
  new DomainError('not_found', message, details);
export const conflict = (message: string, details: Details = {}) =>
  new DomainError('conflict', message, details);
/** The record existed and is gone (archived). */
export const gone = (message: string) => new DomainError('gone', message);
/** Well-formed and allowed, but a business rule says no (a reused password, a reused idempotency key). */
export const ruleBroken = (message: string, details: Details = {}) =>
  new DomainError('rule_broken', message, details);
export const rateLimited = (message: string, retryAfterSeconds: number, details: Details = {}) =>
  new DomainError('rate_limited', message, { ...details, retryAfterSeconds });
/** The card was declined: the payment provider's own words, nothing changed. */
export const paymentRequired = (message: string, details: Details = {}) =>
  new DomainError('payment_required', message, details);
/** A service we depend on (the payment provider) failed or could not be reached; try again later. */
export const unavailable = (message: string) => new DomainError('unavailable', message);
