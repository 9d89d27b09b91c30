import {
  type RouteBody,
  type RouteParams,
  type RouteQuery,
  type RouteResponse,
  type RouteSpec,
  UNSAFE_TEXT_MESSAGE,
  unsafeTextPaths,
} from '@mrn/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError, type z } from 'zod';
import type { Pool } from '../db.ts';
import type { Actor, TokenClaims } from './actor.ts';
import { actorFor, authorise, verifyToken } from './authenticate.ts';
import { type RequestPart, RequestValidationError } from './error-handler.ts';

export interface HandlerRequest<R extends RouteSpec> {
  params: RouteParams<R>;
  query: RouteQuery<R>;
  body: RouteBody<R>;
  /** Present on every route but anonymous ones. */
  actor: R['access'] extends 'anonymous' ? Actor | undefined : Actor;
  /** What the server sees, never what the body claims (DESIGN §4). */
  ip: string;
  userAgent: string | null;
  request: FastifyRequest;
  reply: FastifyReply;
}

export type Handler<R extends RouteSpec> = (req: HandlerRequest<R>) => Promise<RouteResponse<R>>;
export type HandlersFor<T extends Record<string, RouteSpec>> = { [K in keyof T]: Handler<T[K]> };

export interface RegisterOptions {
  pool: Pool;
  /**
   * Runs after the token's signature is verified and before the session is read (query-api: the
   * consistency wait, so that the session check too sees the read models as of the position asked
   * for, while an anonymous or forged request is refused without waiting).
   */
  beforeHandler?: (route: RouteSpec, request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  /**
   * Check every answer against the route's declared response schema (on in development and tests, off
   * in production, where a mismatch would cost a parse per request and fail a user for our mistake).
   */
  validateResponses?: boolean;
}

/** An answer that does not match its route's declared schema: a bug on our side, so a 500 that is logged. */
export class ResponseContractError extends Error {
  constructor(
    readonly route: string,
    readonly issues: z.core.$ZodIssue[],
  ) {
    super(`Response of ${route} does not match its declared schema: ${JSON.stringify(issues)}`);
    this.name = 'ResponseContractError';
  }
}

/** Parses every part of the request, so that one 400 names every bad field at once. */
function parseRequest(
  spec: RouteSpec,
  request: FastifyRequest,
): { params: unknown; query: unknown; body: unknown } {
  const failures: ConstructorParameters<typeof RequestValidationError>[0] = [];
  const parse = (part: RequestPart, schema: z.ZodType | undefined, value: unknown) => {
    const unsafe = unsafeTextPaths(value);
    if (unsafe.length > 0) {
      const issues = unsafe.map((path) => ({
        code: 'custom' as const,
        path,
        message: UNSAFE_TEXT_MESSAGE,
        input: '',
      }));
      failures.push({ part, zod: new ZodError(issues) });
      return undefined;
    }
    if (!schema) return undefined;
    const result = schema.safeParse(value ?? (part === 'body' ? undefined : {}));
    if (result.success) return result.data;
    failures.push({ part, zod: result.error });
    return undefined;
  };
  const parsed = {
    params: parse('params', spec.params, request.params),
    query: parse('query', spec.query, request.query),
    body: parse('body', spec.body, request.body),
  };
  if (failures.length > 0) throw new RequestValidationError(failures);
  return parsed;
}

/** Who is calling, as the access hook found them (set before the body is read). */
const actors = new WeakMap<FastifyRequest, Actor | undefined>();

/**
 * Registers one Fastify route per entry of a route table, each with its handler: the table says the
 * method, path, who may call and the schemas; this is the only place those are enforced. Access is
 * checked in the route's `preParsing` hook, before Fastify reads the body: a caller who may not use the
 * route is refused without its body being parsed (a malformed or oversized body from no one answers 401,
 * not 400 or 413), and the handler is given the caller the hook found. Route hooks run after the
 * scope's: the partner API's rate limit (also at preParsing) still counts a refused call first.
 */
export function registerRoutes<T extends Record<string, RouteSpec>>(
  app: FastifyInstance,
  table: T,
  handlers: HandlersFor<T>,
  options: RegisterOptions,
): void {
  for (const [name, spec] of Object.entries(table)) {
    const handler = handlers[name as keyof T] as Handler<RouteSpec> | undefined;
    if (!handler) throw new Error(`Route ${name} (${spec.method} ${spec.path}) has no handler`);
    app.route({
      method: spec.method,
      url: pathWithin(app.prefix, name, spec.path),
      preParsing: async (request, reply, payload) => {
        const claims =
          spec.access === 'anonymous'
            ? await optionalClaims(request)
            : await verifyToken(request, spec.access === 'api');
        if (options.beforeHandler) await options.beforeHandler(spec, request, reply);
        const actor =
          spec.access === 'anonymous'
            ? claims && (await actorFor(options.pool, claims).catch(() => undefined))
            : await actorFor(options.pool, claims as TokenClaims);
        if (actor) authorise(actor, spec.access, spec.plan);
        actors.set(request, actor);
        return payload;
      },
      handler: async (request, reply) => {
        const actor = actors.get(request);
        const { params, query, body } = parseRequest(spec, request);
        const answer = await handler({
          params,
          query,
          body,
          actor,
          ip: request.ip,
          userAgent: request.headers['user-agent'] ?? null,
          request,
          reply,
        } as HandlerRequest<RouteSpec>);
        if (options.validateResponses) {
          const checked = spec.response.safeParse(answer);
          if (!checked.success) throw new ResponseContractError(name, checked.error.issues);
        }
        return answer;
      },
    });
  }
}

/**
 * The table's paths are whole (`/api/v2/merchants/…`, what clients and the OpenAPI document see); inside
 * a plugin registered with a prefix (the partner API's) a route is declared relative to it.
 */
function pathWithin(prefix: string, name: string, path: string): string {
  if (!prefix) return path;
  if (!path.startsWith(`${prefix}/`)) throw new Error(`Route ${name} (${path}) is outside ${prefix}`);
  return path.slice(prefix.length);
}

/** An anonymous route still knows a signed-in caller (e.g. sign-in steps), but never refuses without one. */
async function optionalClaims(request: FastifyRequest): Promise<TokenClaims | undefined> {
  if (!request.headers.authorization) return undefined;
  return verifyToken(request).catch(() => undefined);
}
