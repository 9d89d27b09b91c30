import http from 'node:http';
import { routes } from '@mrn/contracts';
import { CpuMeter, type CpuSample, type CpuUse } from './cpu.ts';

export interface LoadRequest {
  path: string;
  /** Label the latency is also reported under (e.g. the kind of search). */
  kind: string;
  /** Optional check of a 200 body; a false answer counts as an error. */
  check?: (body: string) => boolean;
  /** Read the body to tell a capped answer (it carries a warning) from a plain hit. */
  keepBody?: boolean;
}

export interface KindResult {
  count: number;
  latencies: number[];
  /** found / found, over the cap / no match (404) / errors, counted. */
  outcomes: Map<string, number>;
}

export interface LoadResult {
  /** Measured requests (after the warm-up). */
  requests: number;
  /** Every search answered 200 or 404, warm-up included: each one the server must have recorded. */
  sent: number;
  seconds: number;
  perSecond: number;
  latencies: number[];
  byKind: Map<string, KindResult>;
  /** Responses per status code. */
  statuses: Map<number, number>;
  /** Responses that were not 200/404, failed checks, or transport failures, with one example each. */
  errors: Map<string, { count: number; example: string }>;
  /** CPU spent during the measured part, when a meter was given. */
  cpu: CpuUse | undefined;
}

/**
 * A closed-loop load generator: `concurrency` workers, each with its own keep-alive connection,
 * sending the next request as soon as the previous answer has been read. Requests completed
 * during the warm-up are not counted.
 */
export async function runLoad(opts: {
  baseUrl: string;
  token: string;
  concurrency: number;
  seconds: number;
  warmupSeconds: number;
  next: () => LoadRequest;
  meter?: CpuMeter;
}): Promise<LoadResult> {
  const url = new URL(opts.baseUrl);
  const agent = new http.Agent({
    keepAlive: true,
    maxSockets: opts.concurrency,
    maxFreeSockets: opts.concurrency,
  });
  const headers = { authorization: `Bearer ${opts.token}`, accept: 'application/json' };
  const result: LoadResult = {
    requests: 0,
    sent: 0,
    seconds: 0,
    perSecond: 0,
    latencies: [],
    byKind: new Map(),
    statuses: new Map(),
    errors: new Map(),
    cpu: undefined,
  };
  const error = (key: string, example: string) => {
    const e = result.errors.get(key) ?? { count: 0, example };
    e.count++;
    result.errors.set(key, e);
  };

  const t0 = performance.now();
  const measureFrom = t0 + opts.warmupSeconds * 1000;
  const end = measureFrom + opts.seconds * 1000;
  let lastDone = measureFrom;
  let cpuFrom: CpuSample | undefined;
  const cpuTimer = setTimeout(() => {
    cpuFrom = opts.meter?.sample();
  }, opts.warmupSeconds * 1000);
  const worker = async () => {
    while (performance.now() < end) {
      const req = opts.next();
      const started = performance.now();
      let status = 0;
      let body = '';
      try {
        ({ status, body } = await get(
          agent,
          url,
          req.path,
          headers,
          req.check !== undefined || !!req.keepBody,
        ));
      } catch (e) {
        error('transport', String(e));
      }
      const done = performance.now();
      if (status === 200 || status === 404) result.sent++;
      if (started < measureFrom) continue;
      const ms = done - started;
      lastDone = Math.max(lastDone, done);
      result.requests++;
      result.latencies.push(ms);
      const kind: KindResult = result.byKind.get(req.kind) ?? {
        count: 0,
        latencies: [],
        outcomes: new Map(),
      };
      kind.count++;
      kind.latencies.push(ms);
      const outcome =
        status === 404
          ? 'no match'
          : status !== 200
            ? 'error'
            : req.keepBody && !body.includes('"warning":null')
              ? 'over the cap'
              : 'found';
      kind.outcomes.set(outcome, (kind.outcomes.get(outcome) ?? 0) + 1);
      result.byKind.set(req.kind, kind);
      result.statuses.set(status, (result.statuses.get(status) ?? 0) + 1);
      if (status !== 0 && status !== 200 && status !== 404) error(`HTTP ${status}`, body.slice(0, 300));
      else if (status === 200 && req.check && !req.check(body)) {
        error('unexpected body', `${req.path}: ${body.slice(0, 300)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency }, worker));
  clearTimeout(cpuTimer);
  if (opts.meter && cpuFrom) result.cpu = CpuMeter.between(cpuFrom, opts.meter.sample());
  agent.destroy();
  result.seconds = (lastDone - measureFrom) / 1000;
  result.perSecond = result.requests / result.seconds;
  result.latencies.sort((a, b) => a - b);
  for (const k of result.byKind.values()) k.latencies.sort((a, b) => a - b);
  return result;
}

function get(
  agent: http.Agent,
  base: URL,
  path: string,
  headers: Record<string, string>,
  keepBody: boolean,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { agent, host: base.hostname, port: base.port, path, method: 'GET', headers },
      (res) => {
        const status = res.statusCode ?? 0;
        // Bodies are only kept when they are checked or are errors; otherwise just drained.
        const keep = keepBody || (status !== 200 && status !== 404);
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => {
          if (keep) chunks.push(c);
        });
        res.on('end', () => resolve({ status, body: keep ? Buffer.concat(chunks).toString('utf8') : '' }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

export async function postJson(
  baseUrl: string,
  path: string,
  body: unknown,
): Promise<{ status: number; json: unknown }> {
  const response = await fetch(new URL(path, baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: await response.json().catch(() => null) };
}

export const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;

/** Signs in over HTTP as the dashboard does; the session token and the user it is for. */
export async function signIn(
  baseUrl: string,
  email: string,
  password: string,
): Promise<{ jwt: string; user: { plan_level?: string } }> {
  const { status, json } = await postJson(baseUrl, routes.login.path, { auth: { email, password } });
  const data = (json as { data?: { jwt?: string; user?: { plan_level?: string } } } | null)?.data;
  if (status !== 200 || !data?.jwt)
    throw new Error(`Sign-in of ${email} failed: ${status} ${JSON.stringify(json)}`);
  return { jwt: data.jwt, user: data.user ?? {} };
}
