import type { RouteBody, RouteParams, RouteQuery, RouteResponse, RouteSpec } from '@mrn/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Pool } from '../db.ts';
import type { Actor } from './actor.ts';
import { authenticate, authorise } from './authenticate.ts';
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
   * Runs first, before authentication (query-api: the consistency wait, so that the session check
   * too sees the read models as of the position asked for).
   */
  beforeHandler?: (route: RouteSpec, request: FastifyRequest, reply: FastifyReply) => Promise<void>;
}

/** Parses every part of the request, so that one 400 names every bad field at once. */
function parseRequest(
  spec: RouteSpec,
  request: FastifyRequest,
): { params: unknown; query: unknown; body: unknown } {
  const failures: ConstructorParameters<typeof RequestValidationError>[0] = [];
  const parse = (part: RequestPart, schema: z.ZodType | undefined, value: unknown) => {
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

/**
 * Registers one Fastify route per entry of a route table, each with its handler: the table says the
 * method, path, who may call and the schemas; this is the only place those are enforced.
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
      url: spec.path,
      handler: async (request, reply) => {
        if (options.beforeHandler) await options.beforeHandler(spec, request, reply);
        const actor =
          spec.access === 'anonymous'
            ? await optionalActor(options.pool, request)
            : await authenticate(options.pool, request);
        if (actor) authorise(actor, spec.access, spec.plan);
        const { params, query, body } = parseRequest(spec, request);
        return handler({
          params,
          query,
          body,
          actor,
          ip: request.ip,
          userAgent: request.headers['user-agent'] ?? null,
          request,
          reply,
        } as HandlerRequest<RouteSpec>);
      },
    });
  }
}

async function optionalActor(pool: Pool, request: FastifyRequest): Promise<Actor | undefined> {
  if (!request.headers.authorization) return undefined;
  return authenticate(pool, request).catch(() => undefined);
}
