import { MESSAGES } from '../domain/messages.ts';
import { z } from '../zod.ts';
import type { RouteSpec } from './route.ts';

/** An OpenAPI 3.1 document, as plain JSON (its JSON Schemas are 2020-12, as zod writes them). */
export type OpenApiDocument = Record<string, unknown> & {
  openapi: '3.1.0';
  info: OpenApiInfo;
  servers: OpenApiServer[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  /** The limits the server enforces, for the developer guide (not part of OpenAPI proper). */
  'x-rate-limits'?: RateLimits;
};
export interface OpenApiInfo {
  title: string;
  version: string;
  description: string;
  /** Where API users get help (OpenAPI's Contact Object: name, url, email). */
  contact?: { name?: string; url?: string; email?: string };
  /** The terms the API is offered under (OpenAPI's License Object: a name, and a url or an SPDX identifier). */
  license?: { name: string; url?: string; identifier?: string };
}
export interface OpenApiServer {
  /** Absolute, or relative to where the document was fetched (OpenAPI 3.1 allows both). */
  url: string;
  description: string;
}
export type OpenApiOperation = Record<string, unknown> & {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  parameters: OpenApiParameter[];
  requestBody?: {
    required: boolean;
    content: { 'application/json': { schema: unknown; example?: unknown } };
  };
  responses: Record<string, OpenApiResponse>;
  security: Record<string, string[]>[];
  'x-required-plan'?: 'PRO';
  /** The request and answer as they are in the sandbox, where they differ (for the developer guide). */
  'x-sandbox-example'?: SandboxExample;
};
/** A call's example in the sandbox: its path parameters, body and answer there, each when it differs. */
export interface SandboxExample {
  params?: Record<string, string>;
  body?: unknown;
  answer?: unknown;
}
export interface OpenApiHeader {
  description?: string;
  /** Sent with every answer of its status. */
  required?: boolean;
  schema: unknown;
}
export interface OpenApiResponse {
  description: string;
  headers?: Record<string, OpenApiHeader>;
  content?: Record<string, { schema?: unknown; example?: unknown }>;
}
export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description?: string;
  schema: unknown;
  example?: unknown;
}
export interface RateLimits {
  /** Calls a minute allowed to one API user (all of its tokens; by IP address without a valid token). */
  perApiKeyPerMinute: number;
  /** Calls a minute allowed to the token call from one IP address. */
  tokenPerMinute: number;
}

export interface OpenApiOptions {
  title: string;
  version: string;
  description: string;
  contact?: OpenApiInfo['contact'];
  license?: OpenApiInfo['license'];
  servers: OpenApiServer[];
  /** The schema of every refusal (the routes' error envelope). */
  errorBody: z.ZodType;
  /** A refusal as sent, shown with the error schema. */
  errorExample?: unknown;
  /** A successful answer of each route, by route name: shown beside the request example. */
  answerExamples?: Record<string, unknown>;
  /** The answer in the sandbox of each route with a `sandboxExample`, by route name. */
  sandboxAnswerExamples?: Record<string, unknown>;
  rateLimits?: RateLimits;
  /**
   * Routes (by name) whose call answers 200 instead of 201 when it changed nothing because it was
   * already so (subscribing to an EIN already watched). A 201 route that takes an `Idempotency-Key`
   * always may: a retry with the same key answers 200 and records nothing new.
   */
  repeatable?: readonly string[];
  /** The largest body the server reads (Fastify's `bodyLimit`); a larger one answers 413. */
  bodyLimitBytes?: number;
}

/** Tags in the order the guide shows them; a route's tag follows from its access and docs. */
export const OPENAPI_TAGS = {
  authentication: { name: 'Authentication', description: 'Exchange your credentials for an API token.' },
  merchants: { name: 'Merchants', description: 'Search the network, report merchants and add notes.' },
  subscriptions: {
    name: 'Merchant subscriptions',
    description:
      'Watch EINs and hear of what other funders report on them. PRO accounts with merchant subscriptions enabled.',
  },
} as const;

/** `/api/v2/merchants/:key` → `/api/v2/merchants/{key}`. */
export const openApiPath = (path: string) => path.replace(/:([A-Za-z_]+)/g, '{$1}');

/** The parameter names of a route path, in order (`/a/:id/b/:key` → `['id', 'key']`). */
export const pathParamNames = (path: string) => [...path.matchAll(/[:{]([A-Za-z_]+)\}?/g)].map((m) => m[1]!);

/**
 * zod marks every object of an output schema `additionalProperties: false` (parsing strips the rest).
 * Answers may gain fields over time (commands already add their log `position`, refusals a
 * `request_id`), and clients must ignore what they do not know: the published answers stay open.
 */
function openObjects(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(openObjects);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'additionalProperties' && value === false) continue;
    out[key] = openObjects(value);
  }
  return out;
}

/** What a client sends is the schema's input side; what it receives, the output side. */
const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') => {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
  });
  return (io === 'output' ? openObjects(rest) : rest) as Record<string, unknown>;
};

interface ObjectSchema {
  properties?: Record<string, unknown>;
  required?: string[];
}

function parameters(spec: RouteSpec): OpenApiParameter[] {
  const out: OpenApiParameter[] = [];
  for (const [where, schema] of [
    ['path', spec.params],
    ['query', spec.query],
  ] as const) {
    if (!schema) continue;
    const object = jsonSchema(schema, 'input') as ObjectSchema;
    for (const [name, property] of Object.entries(object.properties ?? {})) {
      const example = spec.docs?.example?.[where === 'path' ? 'params' : 'query']?.[name];
      out.push({
        name,
        in: where,
        required: where === 'path' || (object.required ?? []).includes(name),
        schema: property,
        ...(example !== undefined ? { example } : {}),
      });
    }
  }
  if (spec.docs?.idempotencyKey) {
    out.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'Any unique text (1 to 200 visible ASCII characters), e.g. a UUID. Retrying with the same key and body records nothing twice; the same key with another body is refused (422).',
      schema: { type: 'string', minLength: 1, maxLength: 200 },
      example: '9b2f6c1e-3d4a-4f5b-8c7d-0e1f2a3b4c5d',
    });
  }
  return out;
}

/**
 * IETF draft `RateLimit` headers (draft-ietf-httpapi-ratelimit-headers): on every partner API answer,
 * refusals included (they are set before the request is read).
 */
const RATE_LIMIT_HEADERS: Record<string, OpenApiHeader> = {
  'RateLimit-Limit': {
    description: 'Requests allowed in the window.',
    required: true,
    schema: { type: 'integer' },
  },
  'RateLimit-Remaining': {
    description: 'Requests left in the window.',
    required: true,
    schema: { type: 'integer' },
  },
  'RateLimit-Reset': {
    description: 'Seconds until the window resets.',
    required: true,
    schema: { type: 'integer' },
  },
};

const retryAfter = (required: boolean): Record<string, OpenApiHeader> => ({
  'Retry-After': {
    description: 'Seconds to wait before calling again.',
    required,
    schema: { type: 'integer' },
  },
});

/** The headers of an answer with this status. */
const headersOf = (status: number): Record<string, OpenApiHeader> =>
  status === 429
    ? { ...RATE_LIMIT_HEADERS, ...retryAfter(true) }
    : status === 503
      ? { ...RATE_LIMIT_HEADERS, ...retryAfter(false) }
      : RATE_LIMIT_HEADERS;

/** `1048576` → `1 MiB`, `1500` → `1500 bytes`. */
const statusText = (status: number, options: OpenApiOptions): string =>
  ({
    400: 'A field is missing or invalid: each error names it.',
    401: 'No API token, an expired or revoked one, a dashboard token, or (for the token call) wrong credentials.',
    403: 'The account or user has no API access, or the call needs a PRO plan or merchant subscriptions.',
    404: 'Not found.',
    409: 'Conflicts with what exists (the merchant is already reported).',
    413: MESSAGES.bodyTooLarge(options.bodyLimitBytes),
    415: 'The body is of a type the API does not read: send JSON, with `Content-Type: application/json`.',
    422: 'Breaks a rule (the contribution lock, too many keyword matches, an Idempotency-Key reused with another body).',
    429: 'Over the rate limit or the daily search limit: wait for Retry-After seconds.',
    500: 'Something went wrong on our side. Quote the request_id when asking support.',
    503: 'Unavailable for a moment (the database, or the sandbox starting or being reset): try again shortly, after Retry-After seconds when it is given.',
  })[status] ?? 'Refused.';

/** The route's sandbox example, whole: its overrides applied to the production example. */
function sandboxExampleOf(spec: RouteSpec, answer: unknown): SandboxExample | undefined {
  const sandbox = spec.docs?.sandboxExample;
  if (!sandbox) return undefined;
  const example = spec.docs?.example;
  const body = example?.body;
  return {
    ...(sandbox.params ? { params: { ...example?.params, ...sandbox.params } } : {}),
    ...(sandbox.body ? { body: { ...(body && typeof body === 'object' ? body : {}), ...sandbox.body } } : {}),
    ...(answer !== undefined ? { answer } : {}),
  };
}

const tagOf = (spec: RouteSpec) =>
  spec.docs?.subscriptions
    ? OPENAPI_TAGS.subscriptions.name
    : spec.access === 'anonymous'
      ? OPENAPI_TAGS.authentication.name
      : OPENAPI_TAGS.merchants.name;

/**
 * The OpenAPI 3.1 document of a route table: one operation per route, its parameters, body and
 * answer from the same zod schemas the server parses with, so the document cannot drift from them.
 */
export function openApiDocument(table: Record<string, RouteSpec>, options: OpenApiOptions): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  const errorRef = { $ref: '#/components/schemas/Error' };
  const seen = new Set<string>();
  for (const [name, spec] of Object.entries(table)) {
    const path = openApiPath(spec.path);
    const method = spec.method.toLowerCase();
    // Two routes at one path and method would silently replace each other here; OpenAPI also counts
    // `/x/{id}` and `/x/{key}` as one path.
    const shape = `${method} ${path.replace(/\{[^}]+\}/g, '{}')}`;
    if (seen.has(shape)) throw new Error(`${spec.method} ${path} is declared twice (${name})`);
    seen.add(shape);
    const secured = spec.access !== 'anonymous';
    const success = spec.docs?.status ?? (spec.method === 'POST' && spec.service === 'command' ? 201 : 200);
    // A create that records nothing new (already so, or a retry with the same Idempotency-Key) answers 200.
    const repeat =
      success === 201 && (spec.docs?.idempotencyKey || options.repeatable?.includes(name))
        ? spec.docs?.idempotencyKey
          ? 'Nothing new was recorded: a retry with the same Idempotency-Key and body.'
          : 'Nothing new was recorded: it was already so (the same call again).'
        : undefined;
    // What every call may answer besides its success: its input refused, the caller refused, a rule,
    // the body (only calls that take one read it), the rate limit, our failure, the sandbox unavailable.
    const refusals = [
      400,
      401,
      403,
      404,
      ...(spec.service === 'command' ? [409] : []),
      ...(spec.body ? [413, 415] : []),
      422,
      429,
      500,
      503,
    ];
    const answerExample = options.answerExamples?.[name];
    const sandboxExample = sandboxExampleOf(spec, options.sandboxAnswerExamples?.[name]);
    const answerContent = {
      'application/json': {
        schema: jsonSchema(spec.response, 'output'),
        ...(answerExample !== undefined ? { example: answerExample } : {}),
      },
    };
    const operation: OpenApiOperation = {
      operationId: name,
      summary: spec.docs?.summary ?? spec.action ?? name,
      ...(spec.docs?.description ? { description: spec.docs.description } : {}),
      tags: [tagOf(spec)],
      security: secured ? [{ bearerAuth: [] }] : [],
      ...(spec.plan ? { 'x-required-plan': spec.plan } : {}),
      ...(sandboxExample ? { 'x-sandbox-example': sandboxExample } : {}),
      parameters: parameters(spec),
      ...(spec.body
        ? {
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: jsonSchema(spec.body, 'input'),
                  ...(spec.docs?.example?.body !== undefined ? { example: spec.docs.example.body } : {}),
                },
              },
            },
          }
        : {}),
      responses: {
        [String(success)]: { description: 'Done.', headers: RATE_LIMIT_HEADERS, content: answerContent },
        ...(repeat
          ? { '200': { description: repeat, headers: RATE_LIMIT_HEADERS, content: answerContent } }
          : {}),
        ...Object.fromEntries(
          refusals.map((status) => [
            String(status),
            {
              description: statusText(status, options),
              headers: headersOf(status),
              content: { 'application/json': { schema: errorRef } },
            },
          ]),
        ),
      },
    };
    paths[path] = { ...paths[path], [method]: operation };
  }
  const errorSchema = jsonSchema(options.errorBody, 'output');
  return {
    openapi: '3.1.0',
    info: {
      title: options.title,
      version: options.version,
      description: options.description,
      ...(options.contact ? { contact: options.contact } : {}),
      ...(options.license ? { license: options.license } : {}),
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: options.servers,
    tags: Object.values(OPENAPI_TAGS).map((t) => ({ ...t })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'The token of POST /api/v2/token. Older integrations may send it without "Bearer ".',
        },
      },
      schemas: {
        Error:
          options.errorExample !== undefined
            ? { ...errorSchema, examples: [options.errorExample] }
            : errorSchema,
      },
    },
    ...(options.rateLimits ? { 'x-rate-limits': options.rateLimits } : {}),
  };
}

/**
 * Where a document and a route table disagree: a route without its operation (at its path and
 * method, under its name), an operation without a route, or path parameters other than the path's.
 */
export function openApiMismatches(doc: OpenApiDocument, table: Record<string, RouteSpec>): string[] {
  const problems: string[] = [];
  const expected = new Set<string>();
  for (const [name, spec] of Object.entries(table)) {
    const path = openApiPath(spec.path);
    const method = spec.method.toLowerCase();
    expected.add(`${method} ${path}`);
    const operation = doc.paths[path]?.[method];
    if (!operation) {
      problems.push(`${name}: no operation at ${spec.method} ${path}`);
      continue;
    }
    if (operation.operationId !== name) {
      problems.push(`${name}: the operation at ${spec.method} ${path} is ${operation.operationId}`);
    }
    const declared = operation.parameters.filter((p) => p.in === 'path').map((p) => p.name);
    const inPath = pathParamNames(path);
    if ([...declared].sort().join() !== [...inPath].sort().join()) {
      problems.push(`${name}: path parameters [${declared}] but the path has [${inPath}]`);
    }
  }
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      if (!expected.has(`${method} ${path}`)) {
        problems.push(`${operation.operationId}: ${method.toUpperCase()} ${path} is not a route`);
      }
    }
  }
  return problems;
}

/**
 * Paths spelt two ways: the same segments with different parameter names (`/merchants/:id/notes`
 * and `/merchants/:merchant_id/notes`). The router takes them for one path, and clients building
 * URLs must guess which name each method wants.
 */
export function pathSpellingConflicts(table: Record<string, RouteSpec>): string[] {
  const spellings = new Map<string, Map<string, string[]>>();
  for (const [name, spec] of Object.entries(table)) {
    const shape = spec.path.replace(/:[A-Za-z_]+/g, ':');
    const bySpelling = spellings.get(shape) ?? new Map<string, string[]>();
    bySpelling.set(spec.path, [...(bySpelling.get(spec.path) ?? []), name]);
    spellings.set(shape, bySpelling);
  }
  return [...spellings.values()]
    .filter((bySpelling) => bySpelling.size > 1)
    .map((bySpelling) =>
      [...bySpelling].map(([path, names]) => `${path} (${names.join(', ')})`).join(' vs '),
    );
}
