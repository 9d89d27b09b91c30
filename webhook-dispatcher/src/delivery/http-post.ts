import { type AddressPolicy, checkWebhookUrlSyntax, guardedLookup } from '@mrn/platform';
import { Agent, request } from 'undici';

/**
 * How long a webhook request may take (issue 20 item 2). A receiver that does not accept the connection
 * within 3 s, or that has not begun its answer 5 s after the request was sent, is failing; the overall
 * cap bounds everything else (a trickling body). Short, because a request held is a slot of its endpoint
 * held; the retry schedule, not a long wait, is what gives a slow receiver its chances.
 */
export const CONNECT_TIMEOUT_MS = 3_000;
export const HEADERS_TIMEOUT_MS = 5_000;
export const REQUEST_TIMEOUT_MS = 10_000;
/** Bytes of an endpoint's answer kept in the delivery log. */
export const RESPONSE_KEEP_BYTES = 1024;

export interface HttpTimeouts {
  connectMs: number;
  headersMs: number;
  totalMs: number;
}

export interface Outcome {
  ok: boolean;
  httpStatus: number | null;
  body: string | null;
  error: string | null;
  durationMs: number;
}

/**
 * The dispatcher's connection pool. No per-origin connection limit: how many requests go at once is
 * decided per endpoint by the dispatcher, and a per-origin limit would queue a healthy endpoint behind
 * hanging ones that share its host (one SaaS receiving for many funders). Connections are still reused.
 */
export function webhookAgent(policy: AddressPolicy, t: HttpTimeouts): Agent {
  return new Agent({
    connect: { lookup: guardedLookup(policy), timeout: t.connectMs },
    headersTimeout: t.headersMs,
    bodyTimeout: t.headersMs,
  });
}

/** One signed POST (no redirects, 2xx = success); never throws, every failure is an outcome. */
export async function postWebhook(
  agent: Agent,
  policy: AddressPolicy,
  req: { url: string; headers: Record<string, string>; body: string; totalMs: number; signal: AbortSignal },
): Promise<Outcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const check = checkWebhookUrlSyntax(req.url, policy);
  if (!check.ok) {
    return { ok: false, httpStatus: null, body: null, error: `refused: URL ${check.reason}`, durationMs: 0 };
  }
  try {
    const res = await request(check.url, {
      method: 'POST',
      dispatcher: agent,
      signal: AbortSignal.any([req.signal, AbortSignal.timeout(req.totalMs)]),
      headers: req.headers,
      body: req.body,
    });
    const answer = await readPrefix(res.body, RESPONSE_KEEP_BYTES);
    const ok = res.statusCode >= 200 && res.statusCode < 300;
    return {
      ok,
      httpStatus: res.statusCode,
      body: answer,
      error: ok ? null : `HTTP ${res.statusCode}`,
      durationMs: elapsed(),
    };
  } catch (err) {
    return { ok: false, httpStatus: null, body: null, error: describe(err), durationMs: elapsed() };
  }
}

async function readPrefix(
  body: AsyncIterable<Buffer> & { destroy(): unknown },
  max: number,
): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= max) break;
    }
  } finally {
    body.destroy();
  }
  return Buffer.concat(chunks).subarray(0, max).toString('utf8');
}

export function describe(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as { cause?: unknown }).cause;
    const code = (err as { code?: string }).code;
    const inner = cause instanceof Error ? `: ${cause.message}` : '';
    return `${code ? `${code} ` : ''}${err.message}${inner}`.slice(0, 1000);
  }
  return String(err).slice(0, 1000);
}
