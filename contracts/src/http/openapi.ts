import { z } from '../zod.ts';
import type { RouteSpec } from './route.ts';

/** An OpenAPI 3.1 document, as plain JSON (its JSON Schemas are 2020-12, as zod writes them). */
export type OpenApiDocument = Record<string, unknown> & {
  openapi: '3.1.0';
  paths: Record<string, Record<string, OpenApiOperation>>;
};
export type OpenApiOperation = Record<string, unknown> & { operationId: string };

export interface OpenApiOptions {
  title: string;
  version: string;
  description: string;
  servers: { url: string; description: string }[];
  /** The schema of every refusal (the routes' error envelope). */
  errorBody: z.ZodType;
}

/** `/api/v2/merchants/:key` → `/api/v2/merchants/{key}`. */
export const openApiPath = (path: string) => path.replace(/:([A-Za-z_]+)/g, '{$1}');

/** What a client sends is the schema's input side; what it receives, the output side. */
const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') => {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
  });
  return rest as Record<string, unknown>;
};

interface ObjectSchema {
  properties?: Record<string, unknown>;
  required?: string[];
}

function parameters(spec: RouteSpec) {
  const out: Record<string, unknown>[] = [];
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
  return out;
}

/** IETF draft `RateLimit` headers (draft-ietf-httpapi-ratelimit-headers), on every partner API answer. */
const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': { description: 'Requests allowed in the window.', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in the window.', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the window resets.', schema: { type: 'integer' } },
};

const STATUS_TEXT: Record<number, string> = {
  400: 'A field is missing or invalid: each error names it.',
  401: 'No API token, an expired or revoked one, or a dashboard token.',
  403: 'The account or user has no API access, or the call needs a PRO plan or merchant subscriptions.',
  404: 'Not found.',
  409: 'Conflicts with what exists (the merchant is already reported).',
  422: 'Breaks a rule (the contribution lock, the daily search limit).',
  429: 'Over the rate limit: wait for Retry-After seconds.',
};

/**
 * The OpenAPI 3.1 document of a route table: one operation per route, its parameters, body and
 * answer from the same zod schemas the server parses with, so the document cannot drift from them.
 */
export function openApiDocument(table: Record<string, RouteSpec>, options: OpenApiOptions): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  const errorRef = { $ref: '#/components/schemas/Error' };
  for (const [name, spec] of Object.entries(table)) {
    const path = openApiPath(spec.path);
    const secured = spec.access !== 'anonymous';
    const success = String(
      spec.docs?.status ?? (spec.method === 'POST' && spec.service === 'command' ? 201 : 200),
    );
    const refusals = [
      400,
      ...(secured ? [401, 403] : [401]),
      404,
      ...(spec.service === 'command' ? [409, 422] : [422]),
      429,
    ];
    const operation: OpenApiOperation = {
      operationId: name,
      summary: spec.docs?.summary ?? spec.action ?? name,
      ...(spec.docs?.description ? { description: spec.docs.description } : {}),
      ...(spec.docs?.subscriptions
        ? { tags: ['Merchant subscriptions'] }
        : { tags: [secured ? 'Merchants' : 'Authentication'] }),
      security: secured ? [{ bearerAuth: [] }] : [],
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
        [success]: {
          description: 'Done.',
          headers: RATE_LIMIT_HEADERS,
          content: { 'application/json': { schema: jsonSchema(spec.response, 'output') } },
        },
        ...Object.fromEntries(
          refusals.map((status) => [
            String(status),
            {
              description: STATUS_TEXT[status],
              ...(status === 429 ? { headers: { 'Retry-After': { schema: { type: 'integer' } } } } : {}),
              content: { 'application/json': { schema: errorRef } },
            },
          ]),
        ),
      },
    };
    paths[path] = { ...paths[path], [spec.method.toLowerCase()]: operation };
  }
  return {
    openapi: '3.1.0',
    info: { title: options.title, version: options.version, description: options.description },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: options.servers,
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'The token of POST /api/v2/token. Older integrations may send it without "Bearer ".',
        },
      },
      schemas: { Error: jsonSchema(options.errorBody, 'output') },
    },
  };
}
