import {
  buildPath,
  CONSISTENT_AFTER_HEADER,
  type ErrorBody,
  MESSAGES,
  type RouteRequest,
  type RouteResponse,
  type RouteSpec,
} from '@mrn/contracts';
import { ApiError } from './api-error.ts';
import { consistentAfter, rememberPosition } from './consistency.ts';
import { toQueryString } from './query-string.ts';
import { readToken } from './token-store.ts';
import { notifyUnauthorized } from './unauthorized.ts';

/** A request part is omitted when the route has none, optional when every field of it is optional. */
type Part<K extends string, T> = [T] extends [undefined]
  ? { [P in K]?: undefined }
  : Partial<T> extends T
    ? { [P in K]?: T }
    : { [P in K]: T };

export type CallRequest<R extends RouteSpec> = Part<'params', RouteRequest<R>['params']> &
  Part<'query', RouteRequest<R>['query']> &
  Part<'body', RouteRequest<R>['body']> & {
    signal?: AbortSignal;
    /** Extra request headers, e.g. the Idempotency-Key of a create. */
    headers?: Record<string, string>;
    /**
     * The screen explains a 401 itself instead of ending the session: a wrong MFA code answers 401
     * "Failed" on a session that is still good.
     */
    ownUnauthorized?: boolean;
    /**
     * What the screen calls the action, when not the route's: the fallback text names it ("update
     * profile" for the own profile, where the same route is "update member" for an admin).
     */
    action?: string;
  };

/** `call(route)` for routes that need nothing, `call(route, { params, query, body })` otherwise. */
export type CallArgs<R extends RouteSpec> =
  Partial<CallRequest<R>> extends CallRequest<R> ? [request?: CallRequest<R>] : [request: CallRequest<R>];

const fallbackText = (route: RouteSpec, action?: string): string =>
  MESSAGES.fallback(action ?? route.action ?? 'complete the request');

/** Calls one route of the route table with the session token; throws ApiError with the text to show. */
export async function call<R extends RouteSpec>(
  route: R,
  ...[request]: CallArgs<R>
): Promise<RouteResponse<R>> {
  const {
    params,
    query,
    body,
    signal,
    headers: extraHeaders,
    ownUnauthorized,
    action,
  } = (request ?? {}) as {
    params?: Record<string, string | number>;
    query?: unknown;
    body?: unknown;
    signal?: AbortSignal;
    headers?: Record<string, string>;
    ownUnauthorized?: boolean;
    action?: string;
  };
  const url = buildPath(route.path, params) + toQueryString(query);

  const headers: Record<string, string> = { ...extraHeaders, Accept: 'application/json' };
  const token = readToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  const position = consistentAfter();
  if (route.method === 'GET' && position) headers[CONSISTENT_AFTER_HEADER] = position;
  if (body !== undefined) headers['Content-Type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(url, {
      method: route.method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(0, fallbackText(route, action));
  }

  const payload = await readJson(response);
  // A refusal may still have written something (a search that found nothing is recorded): reads that
  // follow must see it too.
  const answerPosition = (payload as { position?: unknown } | null)?.position;
  if (typeof answerPosition === 'string' && answerPosition) rememberPosition(answerPosition);
  if (!response.ok) {
    // Anonymous routes (sign in above all) answer 401 for bad credentials, not for a lost session.
    if (response.status === 401 && route.access !== 'anonymous' && !ownUnauthorized) notifyUnauthorized();
    const errorBody = asErrorBody(payload);
    throw new ApiError(response.status, errorBody?.errors || fallbackText(route, action), errorBody);
  }

  return payload as RouteResponse<R>;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function asErrorBody(payload: unknown): ErrorBody | null {
  if (payload === null || typeof payload !== 'object') return null;
  const { errors } = payload as { errors?: unknown };
  return typeof errors === 'string' ? (payload as ErrorBody) : null;
}
