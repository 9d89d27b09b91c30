import { getApiToken } from '@mrn/contracts';
import { DomainError, isPartnerApi, partnerErrorBody, REFUSAL_STATUS } from '@mrn/platform';
import type { FastifyInstance, FastifyReply, FastifyRequest, InjectOptions } from 'fastify';
import { SANDBOX_ISSUER } from './runtime.ts';
import type { Sandbox } from './sandbox.ts';
import { areSandboxCredentials } from './token.ts';

/** The sandbox's base address on the production origin: `/sandbox/api/v2/…` is its `/api/v2/…`. */
export const SANDBOX_BASE = '/sandbox';
const BODY_LIMIT = 1_048_576;
// Hop-by-hop or recomputed by Fastify for the answer it sends.
const DROPPED_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'date']);

/**
 * The two ways into the sandbox from the production app; nothing else ever reaches it:
 * - its base address, `/sandbox/…`;
 * - on the production base, a partner call whose token was issued by the sandbox (its `iss`, read
 *   without verifying only to route: the sandbox verifies it with its own key, so a forged `iss`
 *   meets a refusal there), and `POST /api/v2/token` whose token and key both start with `test_`.
 * Registered before every other hook, so production's rate limits, security headers and
 * authentication never act on a sandbox request (the sandbox app has its own), and production's
 * partner routes never see one.
 */
export function installSandboxRouting(app: FastifyInstance, sandbox: Sandbox): void {
  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (path === SANDBOX_BASE || path.startsWith(`${SANDBOX_BASE}/`)) {
      return forward(sandbox, request, reply, request.url.slice(SANDBOX_BASE.length) || '/');
    }
    if (isPartnerApi(path) && isSandboxToken(request.headers.authorization)) {
      return forward(sandbox, request, reply, request.url);
    }
  });
  // The credentials are in the body, so this one waits for it to be parsed.
  // (The gateway of the split topology keeps bodies as the bytes it received.)
  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'POST' || request.routeOptions.url !== getApiToken.path) return;
    const raw = Buffer.isBuffer(request.body) ? request.body : undefined;
    const body = raw ? parseJson(raw) : request.body;
    if (areSandboxCredentials((body as { auth?: unknown } | undefined)?.auth)) {
      return forward(sandbox, request, reply, request.url, raw ?? Buffer.from(JSON.stringify(request.body)));
    }
  });
}

function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** A token whose unverified claims say the sandbox issued it (bare or `Bearer`, as the API accepts). */
export function isSandboxToken(authorization: string | undefined): boolean {
  const token = authorization?.replace(/^Bearer\s+/i, '').trim();
  const payload = token?.split('.')[1];
  if (!payload) return false;
  try {
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))?.iss === SANDBOX_ISSUER;
  } catch {
    return false;
  }
}

async function forward(
  sandbox: Sandbox,
  request: FastifyRequest,
  reply: FastifyReply,
  url: string,
  parsedBody?: Buffer,
): Promise<FastifyReply> {
  const refuse = (status: number, message: string) =>
    reply.code(status).send(partnerErrorBody({ errors: message }, request.id));
  const body = parsedBody ?? (await readBody(request));
  if (body === 'too_large') return refuse(413, 'body: is larger than 1 MB');
  const { host: _host, ...headers } = request.headers;
  try {
    const answer = await sandbox.use(({ app }) =>
      app.inject({
        method: request.method as InjectOptions['method'],
        url,
        headers: { ...headers, ...(parsedBody ? { 'content-length': String(parsedBody.length) } : {}) },
        ...(body.length > 0 ? { payload: body } : {}),
        // The caller's address, as the sandbox's rate limits and records must see it (DESIGN §4).
        remoteAddress: request.ip,
      }),
    );
    for (const [name, value] of Object.entries(answer.headers)) {
      if (!DROPPED_HEADERS.has(name) && value !== undefined) reply.header(name, value);
    }
    return reply.code(answer.statusCode).send(answer.rawPayload);
  } catch (error) {
    if (error instanceof DomainError) return refuse(REFUSAL_STATUS[error.kind], error.message);
    request.log.error({ err: error }, 'sandbox request failed');
    return reply
      .code(500)
      .send(
        partnerErrorBody({ errors: `Something went wrong on our side (request ${request.id}).` }, request.id),
      );
  }
}

/** The raw request body, read here since the production app never parses a request it forwards. */
async function readBody(request: FastifyRequest): Promise<Buffer | 'too_large'> {
  if (request.method === 'GET' || request.method === 'HEAD') return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request.raw) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT) return 'too_large';
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
