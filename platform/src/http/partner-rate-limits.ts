import fastifyRateLimit, { type FastifyRateLimitStore, normalizeIP } from '@fastify/rate-limit';
import { API_TEXTS, getApiToken } from '@mrn/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Pool } from '../db.ts';
import { rateLimited } from '../errors.ts';
import { verifiedClaims } from './token-verifier.ts';

export interface PartnerRateLimitOptions {
  /** Where the counts live: every process on this database shares them. */
  pool: Pool;
  /** Requests a minute per API user (and per IP for calls without a valid token). */
  perKeyPerMinute: number;
  /** POST /api/v2/token calls a minute per IP. */
  tokenPerMinute: number;
  /** Prefix of the bucket keys, so that two apps on one database (the sandbox) never share a bucket. */
  scope?: string;
}

const WINDOW_MS = 60_000;

/**
 * Rate limits of the partner API (issue 12, DESIGN §5 and §9), with `@fastify/rate-limit` and the
 * draft IETF `RateLimit-*` headers on every answer under /api/v2/, refusals included.
 *
 * - Calls with an API token count per user: the bucket is the `sub` of a token whose signature and
 *   expiry were checked here. An unverified token's claims are never a bucket key, or anyone could
 *   spend a partner's limit by sending garbage in their name.
 * - Calls without a valid token count per IP: they will be refused with 401, but each still costs a
 *   signature check and must not come free.
 * - POST /api/v2/token has its own, lower limit per IP. Not per authentication token as well: that
 *   one is an identifier, not a secret, and a bucket of it would let a stranger lock its owner out
 *   from elsewhere; the key behind it is 24 random bytes, which no limit is needed to protect.
 *
 * Counts are in Postgres (`partner_rate_limits`), taken by one statement per request: concurrent
 * requests of one key queue on its row, so exactly the limit is let through however many arrive at
 * once, and across processes.
 *
 * Installed in the partner API plugin's scope (`registerPartnerApi`), so the dashboard API, the web
 * app and /health have no limits here. Runs at preParsing: after every onRequest hook (security headers, the bare token's `Bearer`), so a
 * 429 carries the same headers as any answer, and before a refused request's body is read.
 */
export async function installPartnerRateLimits(
  app: FastifyInstance,
  opts: PartnerRateLimitOptions,
): Promise<void> {
  const scope = opts.scope ?? 'partner';
  await app.register(fastifyRateLimit, {
    // Only the hook below applies limits: the dashboard API, the web app and /health have none.
    global: false,
    enableDraftSpec: true,
    store: postgresStore(opts.pool, app),
    timeWindow: WINDOW_MS,
    errorResponseBuilder: (_request, context) => {
      const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
      // Thrown to our error handler, which answers in the partner envelope with Retry-After.
      return rateLimited(API_TEXTS.rateLimited(seconds), seconds);
    },
  });
  const perKey = app.rateLimit({
    max: opts.perKeyPerMinute,
    keyGenerator: async (request) => {
      const user = await verifiedUser(request);
      return user ? `${scope}:user:${user}` : `${scope}:ip:${normalizeIP(request.ip)}`;
    },
  });
  const tokenCall = app.rateLimit({
    max: opts.tokenPerMinute,
    keyGenerator: (request) => `${scope}:token-ip:${normalizeIP(request.ip)}`,
  });
  app.addHook('preParsing', async (request: FastifyRequest, reply: FastifyReply) => {
    // Installed inside the partner API plugin: every route it sees is the partner API's, however its
    // URL was spelt (a percent-encoded `/api/%762/…` matches the same route and is counted the same).
    const route = request.routeOptions.url;
    const limiter = route === getApiToken.path && request.method === 'POST' ? tokenCall : perKey;
    await limiter.call(app, request, reply);
  });
}

/** The user of a token whose signature and expiry hold, or undefined (then the call counts per IP). */
async function verifiedUser(request: FastifyRequest): Promise<string | undefined> {
  // An app without a token verifier (see installTokenVerifier) counts every call per IP.
  if (!request.headers.authorization) return undefined;
  try {
    const claims = verifiedClaims(request);
    return typeof claims.sub === 'string' && claims.sub !== '' ? claims.sub : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One statement counts $3 requests of a key and says where its window stands. A row whose window has
 * ended starts a new one; otherwise the count goes up under the row's lock, so concurrent statements
 * (from any process) each see a distinct range of counts. Exported for the bench.
 */
export const RATE_LIMIT_TAKE = `insert into partner_rate_limits as r (key, hits, resets_at)
     values ($1, $3::integer, now() + $2::integer * interval '1 millisecond')
     on conflict (key) do update set
       hits = case when r.resets_at > now() then r.hits + excluded.hits else excluded.hits end,
       resets_at = case when r.resets_at > now() then r.resets_at else excluded.resets_at end
     returning hits, greatest(1, ceil(extract(epoch from resets_at - now()) * 1000))::integer as ttl`;

/** Rows of ended windows are worth nothing; each process clears them about once a window. */
const PRUNE = 'delete from partner_rate_limits where resets_at < now()';

type TakeCallback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * The takes of one key in this process: while its statement is out, the requests that come meanwhile
 * wait and go together in the next one, which counts them all at once (`hits + n`) and gives each its
 * own count of the range. A partner's burst was one row update per request, each waiting on the last
 * one's row lock; now it is about one per round trip, and the counts, hence the limit, are as exact.
 */
class KeyTakes {
  private waiting: TakeCallback[] = [];
  private busy = false;

  constructor(
    private readonly pool: Pool,
    private readonly key: string,
    private readonly timeWindow: number,
    private readonly done: () => void,
  ) {}

  take(callback: TakeCallback): void {
    this.waiting.push(callback);
    if (!this.busy) this.send();
  }

  private send(): void {
    const batch = this.waiting;
    this.waiting = [];
    this.busy = true;
    this.pool
      .query<{ hits: number; ttl: number }>({
        name: 'mrn_rate_limit_take',
        text: RATE_LIMIT_TAKE,
        values: [this.key, this.timeWindow, batch.length],
      })
      .then(
        ({ rows }) => {
          const { hits, ttl } = rows[0]!;
          // The range counted is (hits - n, hits]: the first waiting request gets the lowest.
          for (const [i, callback] of batch.entries())
            answer(callback, null, { current: hits - batch.length + 1 + i, ttl });
        },
        (error: Error) => {
          for (const callback of batch) answer(callback, error);
        },
      )
      .finally(() => {
        this.busy = false;
        if (this.waiting.length > 0) this.send();
        else this.done();
      });
  }
}

/** Each waiting request is answered, whatever another's callback does. */
function answer(
  callback: TakeCallback,
  error: Error | null,
  result?: { current: number; ttl: number },
): void {
  try {
    callback(error, result);
  } catch {
    // @fastify/rate-limit's callback answers the request itself; nothing is left to do here.
  }
}

function postgresStore(pool: Pool, app: FastifyInstance) {
  let lastPrune = performance.now();
  const takes = new Map<string, KeyTakes>();
  // @fastify/rate-limit builds the store itself (`new store(options)`), so the pool comes by closure.
  return class PostgresRateLimitStore implements FastifyRateLimitStore {
    incr(key: string, callback: TakeCallback, timeWindow: number): void {
      let keyTakes = takes.get(key);
      if (!keyTakes) {
        keyTakes = new KeyTakes(pool, key, timeWindow, () => takes.delete(key));
        takes.set(key, keyTakes);
      }
      keyTakes.take(callback);
      const now = performance.now();
      if (now - lastPrune > timeWindow) {
        lastPrune = now;
        pool.query(PRUNE).catch((error: unknown) => app.log.warn({ err: error }, 'rate limit prune failed'));
      }
    }

    // Every route's limiter shares the one table; the keys keep their buckets apart.
    child(): FastifyRateLimitStore {
      return this;
    }
  };
}
