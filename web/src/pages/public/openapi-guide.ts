// The developer guide's reading of the partner API's OpenAPI document (GET /api/v2/openapi.json): the
// endpoints by tag, their examples, and ready-to-run snippets for the chosen environment. Only the parts
// of OpenAPI the document uses are read; anything else in it is ignored.

export type Environment = 'production' | 'sandbox';

/** Where the server publishes the document (contracts' PARTNER_OPENAPI_PATH). */
export const OPENAPI_DOCUMENT_PATH = '/api/v2/openapi.json';

/** The sandbox answers under this prefix of the production address. */
export const SANDBOX_PREFIX = '/sandbox';
/** Sandbox credentials are the production ones with this prefix (accounts spec §7). */
export const SANDBOX_CREDENTIAL_PREFIX = 'test_';

export interface GuideParameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description?: string;
  schema?: { type?: string | string[]; minLength?: number; maxLength?: number; enum?: unknown[] };
  example?: unknown;
}

interface GuideResponse {
  description?: string;
  headers?: Record<string, { description?: string }>;
  content?: { 'application/json'?: { example?: unknown } };
}

interface GuideOperation {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: GuideParameter[];
  requestBody?: { content?: { 'application/json'?: { example?: unknown } } };
  responses?: Record<string, GuideResponse>;
  'x-required-plan'?: string;
  'x-sandbox-example'?: SandboxExample;
}

/** A call's example in the sandbox, where it differs from production's (the sandbox's own merchant). */
export interface SandboxExample {
  params?: Record<string, string>;
  body?: unknown;
  answer?: unknown;
}

export interface GuideDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, GuideOperation>>;
  components?: { schemas?: { Error?: { examples?: unknown[] } } };
  'x-rate-limits'?: { perApiKeyPerMinute: number; tokenPerMinute: number };
}

export interface Endpoint {
  id: string;
  method: string;
  /** As the document spells it: `/api/v2/merchants/{key}`. */
  path: string;
  summary: string;
  description: string;
  tag: string;
  /** Needs an API token (every call but the token call). */
  secured: boolean;
  plan: string | null;
  parameters: GuideParameter[];
  requestExample: unknown;
  answer: { status: string; description: string; example: unknown } | null;
  /** The request and answer in the sandbox, where they differ. */
  sandbox: SandboxExample | null;
}

export interface EndpointGroup {
  tag: string;
  description: string;
  endpoints: Endpoint[];
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Every operation of the document, in its order. */
export function endpointsOf(doc: GuideDocument): Endpoint[] {
  return Object.entries(doc.paths).flatMap(([path, byMethod]) =>
    METHODS.filter((m) => byMethod[m]).map((method) => {
      const op = byMethod[method]!;
      // The call's own success: a create's 201 rather than the 200 it answers when it recorded nothing
      // new (a repeat). JSON objects list numeric keys in ascending order, so it is the last 2xx.
      const success = Object.entries(op.responses ?? {})
        .filter(([status]) => status.startsWith('2'))
        .at(-1);
      return {
        id: op.operationId,
        method: method.toUpperCase(),
        path,
        summary: op.summary ?? op.operationId,
        description: op.description ?? '',
        tag: op.tags?.[0] ?? 'Other',
        secured: (op.security ?? []).length > 0,
        plan: op['x-required-plan'] ?? null,
        parameters: op.parameters ?? [],
        requestExample: op.requestBody?.content?.['application/json']?.example,
        answer: success
          ? {
              status: success[0],
              description: success[1].description ?? '',
              example: success[1].content?.['application/json']?.example,
            }
          : null,
        sandbox: op['x-sandbox-example'] ?? null,
      };
    }),
  );
}

/** Endpoints under their tags, in the document's tag order; some tags may be left out. */
export function groupByTag(doc: GuideDocument, hiddenTags: ReadonlySet<string> = new Set()): EndpointGroup[] {
  const endpoints = endpointsOf(doc);
  const declared = doc.tags ?? [];
  const names = [...declared.map((t) => t.name), ...endpoints.map((e) => e.tag)];
  return [...new Set(names)]
    .filter((tag) => !hiddenTags.has(tag))
    .map((tag) => ({
      tag,
      description: declared.find((t) => t.name === tag)?.description ?? '',
      endpoints: endpoints.filter((e) => e.tag === tag),
    }))
    .filter((group) => group.endpoints.length > 0);
}

/** Every status an endpoint may refuse with, and what it means, from the document's answers. */
export function refusalsOf(doc: GuideDocument): { status: string; description: string }[] {
  const seen = new Map<string, string>();
  for (const byMethod of Object.values(doc.paths))
    for (const op of Object.values(byMethod))
      for (const [status, answer] of Object.entries(op.responses ?? {}))
        if (!status.startsWith('2') && !seen.has(status)) seen.set(status, answer.description ?? '');
  return [...seen]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, description]) => ({ status, description }));
}

/** The headers of an answer over the rate limit (the limit headers and Retry-After), as documented. */
export function rateLimitHeadersOf(doc: GuideDocument): { name: string; description: string }[] {
  for (const byMethod of Object.values(doc.paths))
    for (const op of Object.values(byMethod)) {
      const headers = op.responses?.['429']?.headers;
      if (headers)
        return Object.entries(headers).map(([name, h]) => ({ name, description: h.description ?? '' }));
    }
  return [];
}

/** The refusal example the document gives with its error schema. */
export const errorExampleOf = (doc: GuideDocument): unknown => doc.components?.schemas?.Error?.examples?.[0];

export const baseAddress = (origin: string, environment: Environment) =>
  environment === 'sandbox' ? `${origin}${SANDBOX_PREFIX}` : origin;

/** The credentials of the token call's example, prefixed for the sandbox. */
function forEnvironment(endpoint: Endpoint, example: unknown, environment: Environment): unknown {
  if (environment !== 'sandbox' || endpoint.secured || !isRecord(example) || !isRecord(example.auth))
    return example;
  const auth = Object.fromEntries(
    Object.entries(example.auth).map(([k, v]) => [
      k,
      typeof v === 'string' && !v.startsWith(SANDBOX_CREDENTIAL_PREFIX)
        ? `${SANDBOX_CREDENTIAL_PREFIX}${v}`
        : v,
    ]),
  );
  return { ...example, auth };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The request example's body as the chosen environment needs it. */
export const requestExample = (endpoint: Endpoint, environment: Environment) =>
  forEnvironment(
    endpoint,
    environment === 'sandbox' && endpoint.sandbox?.body !== undefined
      ? endpoint.sandbox.body
      : endpoint.requestExample,
    environment,
  );

/** A parameter's example in the chosen environment (the sandbox asks about its own merchant). */
export function parameterExample(
  endpoint: Endpoint,
  param: GuideParameter,
  environment: Environment,
): unknown {
  const inSandbox = param.in === 'path' ? endpoint.sandbox?.params?.[param.name] : undefined;
  return environment === 'sandbox' && inSandbox !== undefined ? inSandbox : param.example;
}

/** The answer shown for the example in the chosen environment. */
export const answerExample = (endpoint: Endpoint, environment: Environment): unknown =>
  environment === 'sandbox' && endpoint.sandbox?.answer !== undefined
    ? endpoint.sandbox.answer
    : endpoint.answer?.example;

/** The address of the example request: path parameters and query filled from their examples. */
export function exampleUrl(
  endpoint: Endpoint,
  base: string,
  environment: Environment = 'production',
): string {
  const path = endpoint.path.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const param = endpoint.parameters.find((p) => p.in === 'path' && p.name === name);
    const example = param && parameterExample(endpoint, param, environment);
    return example === undefined ? whole : encodeURIComponent(String(example));
  });
  const query = new URLSearchParams(
    endpoint.parameters
      .filter((p) => p.in === 'query' && p.example !== undefined)
      .map((p) => [p.name, String(p.example)]),
  ).toString();
  return `${base}${path}${query ? `?${query}` : ''}`;
}

/** Example headers of the request (the token, a JSON body, documented headers with examples). */
function requestHeaders(endpoint: Endpoint, tokenValue: string): [string, string][] {
  const headers: [string, string][] = [];
  if (endpoint.secured) headers.push(['Authorization', `Bearer ${tokenValue}`]);
  if (endpoint.requestExample !== undefined) headers.push(['Content-Type', 'application/json']);
  for (const p of endpoint.parameters)
    if (p.in === 'header' && p.example !== undefined) headers.push([p.name, String(p.example)]);
  return headers;
}

/** A shell-quoted string: single quotes, with any single quote inside closed and escaped. */
const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** A curl command for the endpoint's example in an environment (the token read from $API_TOKEN). */
export function curlSnippet(endpoint: Endpoint, base: string, environment: Environment): string {
  const lines = [
    endpoint.method === 'GET'
      ? `curl ${shellQuote(exampleUrl(endpoint, base, environment))}`
      : `curl -X ${endpoint.method} ${shellQuote(exampleUrl(endpoint, base, environment))}`,
  ];
  // Double quotes, so that the shell puts the token in.
  for (const [name, value] of requestHeaders(endpoint, '$API_TOKEN'))
    lines.push(
      name === 'Authorization' ? `  -H "${name}: ${value}"` : `  -H ${shellQuote(`${name}: ${value}`)}`,
    );
  const body = requestExample(endpoint, environment);
  if (body !== undefined) lines.push(`  -d ${shellQuote(JSON.stringify(body))}`);
  return lines.join(' \\\n');
}

const indent = (text: string, by: string) => text.split('\n').join(`\n${by}`);
/** A JavaScript property name, quoted only when it must be. */
const jsKey = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : `'${name}'`);

/** The same request with fetch (Node 18+ or a browser), reading the `{ errors, data }` answer. */
export function fetchSnippet(endpoint: Endpoint, base: string, environment: Environment): string {
  const options: string[] = [];
  if (endpoint.method !== 'GET') options.push(`method: '${endpoint.method}',`);
  // The snippet's own template literal puts the token in: `${apiToken}` is its text, not ours.
  const headers = requestHeaders(endpoint, '$' + '{apiToken}').map(([name, value]) =>
    name === 'Authorization'
      ? `Authorization: \`${value}\`,`
      : name === 'Idempotency-Key'
        ? // A new key per new record; a retry of the same request reuses it.
          `${jsKey(name)}: crypto.randomUUID(),`
        : `${jsKey(name)}: '${value}',`,
  );
  if (headers.length > 0) options.push(`headers: {\n    ${headers.join('\n    ')}\n  },`);
  const body = requestExample(endpoint, environment);
  if (body !== undefined)
    options.push(`body: JSON.stringify(${indent(JSON.stringify(body, null, 2), '  ')}),`);
  const url = `'${exampleUrl(endpoint, base, environment).replace(/'/g, "\\'")}'`;
  const call = options.length > 0 ? `fetch(${url}, {\n  ${options.join('\n  ')}\n})` : `fetch(${url})`;
  const read = endpoint.secured
    ? 'const { errors, data } = await response.json();'
    : 'const { errors, data } = await response.json();\nconst apiToken = data?.token; // for the other calls, 24 hours';
  return `const response = await ${call};\n${read}`;
}

/** `text with \`code\`` → alternating plain and code parts, for descriptions written that way. */
export function codeSpans(text: string): { code: boolean; text: string }[] {
  return text
    .split('`')
    .map((part, index) => ({ code: index % 2 === 1, text: part }))
    .filter((part) => part.text !== '');
}

/** A type to show for a parameter: `string`, `string, 2–200 characters`. */
export function describeSchema(schema: GuideParameter['schema']): string {
  if (!schema) return '';
  const type = Array.isArray(schema.type) ? schema.type.join(' or ') : (schema.type ?? 'any');
  const { minLength: min, maxLength: max } = schema;
  if (min !== undefined && max !== undefined) return `${type}, ${min}–${max} characters`;
  if (max !== undefined) return `${type}, up to ${max} characters`;
  return type;
}
