/** A refusal the caller can act on: carries the HTTP status and the user-facing text of the specs. */
export class DomainError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const notFound = (message: string) => new DomainError(404, message);
export const forbidden = (message = 'You are not allowed to do that.') => new DomainError(403, message);
export const conflict = (message: string, details: Record<string, unknown> = {}) =>
  new DomainError(409, message, details);
export const unauthorized = (message = 'Your session has ended. Please sign in again.') =>
  new DomainError(401, message);
export const invalid = (message: string, details: Record<string, unknown> = {}) =>
  new DomainError(400, message, details);
