import { type ErrorBody, MESSAGES } from '@mrn/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import { isDatabaseUnreachable } from '../db/unreachable.ts';
import { DomainError, type RefusalKind } from '../errors.ts';
import { WrongExpectedRevisionError } from '../event-store/types.ts';

/** The location of a zod issue as a dotted field name: `auth.email`, `query.page`. */
function fieldName(part: string, path: readonly PropertyKey[]): string {
  const inner = path.map(String).join('.');
  return part === 'body' ? inner || 'body' : inner ? `${inner}` : part;
}

export type RequestPart = 'params' | 'query' | 'body';

/** Bad input in one or more parts of a request, reported together. */
export class RequestValidationError extends Error {
  constructor(readonly failures: { part: RequestPart; zod: ZodError }[]) {
    super('Invalid request');
  }
}

/** Where the partner API lives (accounts spec §7): one encapsulated Fastify plugin (`registerPartnerApi`). */
export const PARTNER_API_PREFIX = '/api/v2';

/**
 * Whether a raw URL names the partner API: for what sees a request before any route is matched (the
 * gateway, the sandbox's forwarding). Routes inside the partner API plugin never need to ask.
 */
export const isPartnerApi = (url: string) => url.startsWith(`${PARTNER_API_PREFIX}/`);

/** Which envelope an error handler answers in: the dashboard's `{ errors }` or the partner API's `{ errors, data }`. */
export type ErrorEnvelope = 'dashboard' | 'partner';

/** A refusal in the partner API's envelope: each problem with the field it concerns, and no data. */
export function partnerErrorBody(body: ErrorBody, requestId: string) {
  const errors = body.fields?.length
    ? body.fields.map((f) => ({ field: f.field, message: f.message }))
    : [{ field: null, message: body.errors }];
  return { errors, data: null, request_id: requestId };
}

/** The only place a refusal becomes an HTTP status. */
export const REFUSAL_STATUS: Record<RefusalKind, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  rule_broken: 422,
  rate_limited: 429,
  payment_required: 402,
  unavailable: 503,
};

/**
 * Fastify's own refusals before any route runs (an address that does not decode): answered in the same
 * envelopes as every other refusal, by the address's API.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const status =
    error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
  const message = error.code === 'FST_ERR_BAD_URL' ? MESSAGES.malformedAddress : error.message;
  void reply
    .code(status)
    .send(
      isPartnerApi(request.url)
        ? partnerErrorBody({ errors: message }, request.id)
        : { errors: message, request_id: request.id },
    );
}

/**
 * One error handler for both APIs: bad input → 400 naming each field and reason; domain refusals →
 * their status and the spec's text; anything else → 500 with the request id, logged. The app's root
 * answers in the dashboard's envelope; the partner API plugin installs it again in its own.
 */
export function installErrorHandler(
  app: FastifyInstance,
  envelope: ErrorEnvelope | ((request: FastifyRequest) => ErrorEnvelope) = 'dashboard',
): void {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    const kind = typeof envelope === 'function' ? envelope(request) : envelope;
    const send = (status: number, body: ErrorBody) =>
      reply
        .code(status)
        .send(kind === 'partner' ? partnerErrorBody(body, request.id) : { ...body, request_id: request.id });
    if (error instanceof RequestValidationError || error instanceof ZodError) {
      const failures =
        error instanceof RequestValidationError ? error.failures : [{ part: 'body' as const, zod: error }];
      const fields = failures.flatMap(({ part, zod }) =>
        zod.issues.map((i) => ({ field: fieldName(part, i.path), message: i.message })),
      );
      return send(400, { errors: fields.map((f) => `${f.field}: ${f.message}`).join('; '), fields });
    }
    if (error instanceof DomainError) {
      const retryAfter = error.details.retryAfterSeconds;
      if (typeof retryAfter === 'number') reply.header('retry-after', String(retryAfter));
      const { resource_id, position, fields } = error.details;
      return send(REFUSAL_STATUS[error.kind], {
        errors: error.message,
        ...(typeof resource_id === 'string' ? { resource_id } : {}),
        // A refusal that still recorded something (a search that found nothing) says where, for X-Consistent-After.
        ...(typeof position === 'string' ? { position } : {}),
        ...(Array.isArray(fields) ? { fields: fields as { field: string; message: string }[] } : {}),
      });
    }
    if (error instanceof WrongExpectedRevisionError) {
      return send(409, {
        errors: 'This record was changed by someone else at the same time. Please try again.',
      });
    }
    if (isDatabaseUnreachable(error)) {
      // The database is down or restarting: not the caller's fault and not a bug, so no 500; ask again soon.
      request.log.warn({ err: error }, 'database unreachable');
      reply.header('retry-after', '5');
      return send(503, {
        errors: 'The service is temporarily unavailable. Please try again in a moment.',
      });
    }
    const fastifyError = error as FastifyError;
    if (
      fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
      (error instanceof SyntaxError && fastifyError.statusCode === 400)
    ) {
      return send(400, {
        errors: 'body: is not valid JSON',
        fields: [{ field: 'body', message: 'is not valid JSON' }],
      });
    }
    if (fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return send(413, { errors: MESSAGES.bodyTooLarge(request.routeOptions.bodyLimit) });
    }
    if (fastifyError.statusCode && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
      return send(fastifyError.statusCode, { errors: fastifyError.message });
    }
    request.log.error({ err: error }, 'unhandled error');
    return send(500, { errors: `Something went wrong on our side (request ${request.id}).` });
  });
}
