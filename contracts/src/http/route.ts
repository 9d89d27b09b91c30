import type { z } from '../zod.ts';

/**
 * Who may call a route. `session` accepts a signed-in user whose MFA step is still pending (the
 * MFA and terms screens need it); `member` and above need a completed sign-in. `api` is the partner
 * API: an API token (never a dashboard one) of a user granted API access in an account that has it.
 */
export type Access = 'anonymous' | 'session' | 'member' | 'account_admin' | 'platform_admin' | 'api';
/**
 * The service that answers a route: the command side, the query side, or the webhook dispatcher (its
 * delivery log and signing secrets are its own state, never events: it serves them itself).
 */
export type Service = 'command' | 'query' | 'webhooks';

/** The read models a query can wait for: one per projector (projections/src/read-models). */
export const READ_MODELS = [
  'accounts',
  'users',
  'app_settings',
  'merchants',
  'notes',
  'merchant_searches',
  'merchant_inquiries',
  'merchant_links',
  'merchant_signals',
  'broker_notes',
  'disputes',
  'contribution',
  'contribution_searches',
  'merchant_subscriptions',
  'analytics',
  'analytics_searches',
  'search_feeds',
  'admin_widgets',
] as const;
export type ReadModel = (typeof READ_MODELS)[number];
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RouteSpec {
  method: Method;
  /** Full HTTP path in Fastify syntax (`/api/merchants/:id`). */
  path: string;
  service: Service;
  access: Access;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response: z.ZodType;
  /** Plan needed on top of `access`. */
  plan?: 'PRO';
  /**
   * Every query route names the read models its answer comes from: X-Consistent-After waits for these
   * (and users and accounts, which the session check reads) and for nothing else, so a projector that is
   * behind or halted slows only the answers made from it. `[]`: nothing a projector writes (the event log
   * itself, the dispatcher's delivery log, the mailbox).
   */
  readModels?: readonly ReadModel[];
  /** What the client says when the call fails without a server text (specs' error catalogue). */
  action?: string;
  /** For the published API: what the OpenAPI document and the developer guide say about the call. */
  docs?: RouteDocs;
}

export interface RouteDocs {
  summary: string;
  description: string;
  /**
   * A request that works in production (values of params, query and body), shown in the guide and its
   * snippets. It names an example merchant, never the sandbox's: that EIN is unknown in production.
   */
  example?: { params?: Record<string, string>; query?: Record<string, string>; body?: unknown };
  /**
   * What changes in the sandbox (params, and body fields over the example's), where the call is about
   * a merchant that must exist: the sandbox's own merchant, EIN 01-0000001.
   */
  sandboxExample?: { params?: Record<string, string>; body?: Record<string, unknown> };
  /** Shown only to accounts with merchant subscriptions (accounts spec §6). */
  subscriptions?: boolean;
  /** The status of a successful answer, when not the default (201 for a command's POST, else 200). */
  status?: 200 | 201;
  /** The call honours an `Idempotency-Key` header (a retried create names the same records). */
  idempotencyKey?: true;
}

export const route = <const R extends RouteSpec>(spec: R): R => spec;

type Infer<T> = T extends z.ZodType ? z.infer<T> : undefined;
type Input<T> = T extends z.ZodType ? z.input<T> : undefined;
export type RouteParams<R extends RouteSpec> = Infer<R['params']>;
export type RouteQuery<R extends RouteSpec> = Infer<R['query']>;
export type RouteBody<R extends RouteSpec> = Infer<R['body']>;
export type RouteResponse<R extends RouteSpec> = z.infer<R['response']>;
/** What a client sends (before defaults and transforms are applied by the server). */
export type RouteRequest<R extends RouteSpec> = {
  params: Input<R['params']>;
  query: Input<R['query']>;
  body: Input<R['body']>;
};

/** Fills `:name` segments of a route path. */
export function buildPath(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(value));
  });
}
