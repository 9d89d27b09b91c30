import type { RouteSpec } from '@mrn/contracts';
import type {
  Clock,
  Config,
  EventMetadata,
  EventStore,
  HandlerRequest,
  Logger,
  Mailer,
  PgNotifications,
  Pool,
  ReadModelProgress,
} from '@mrn/platform';
import type { FastifyInstance } from 'fastify';
import type { BillingGateway } from './billing/gateway.ts';

/** What every command handler may use: its side effects all go through these. */
export interface CommandDeps {
  pool: Pool;
  store: EventStore;
  config: Config;
  logger: Logger;
  app: FastifyInstance;
  mailer: Mailer;
  /** Where links in e-mails point: PUBLIC_URL or the local address. */
  publicUrl: string;
  /** The time commands decide at (limits and link expiries are tested by moving it). */
  clock: Clock;
  /** Stripe, or the Stripe-compatible test server in billing test mode (DESIGN §4). */
  billing: BillingGateway;
  /**
   * When the read models have applied a position: work that follows a command and reads a read model
   * (re-assessing a warned funder's contribution once its new records are counted) waits on it. The
   * all-in-one server gives its ProjectionRunner.
   */
  readModels: ReadModelProgress;
  /**
   * With a database URL, each consumer of the log (the e-mail outbox, the search-watch reactor) follows
   * it only while this process holds its lease: of several command-api processes one reads, the others
   * stand by. Without one, every process reads (still exactly once: the checkpoint is fenced).
   */
  leaseUrl?: string;
  /**
   * This process's LISTEN connection: projections' progress notices wake the consumers of their feeds
   * (the search-watch reactor) at once; without one they read them every second.
   */
  notifications?: PgNotifications;
  /** The partner API's sandbox (server/src/sandbox), where this process runs one; absent otherwise. */
  sandbox?: SandboxControl;
}

/** What the dashboard may do to the sandbox: only reset it to its seed. */
export interface SandboxControl {
  reset(): Promise<{ resetAt: Date; merchantFein: string }>;
}

/** Event metadata for a request: who did it, from where (DESIGN §3). */
export function metadataFor(
  req: HandlerRequest<RouteSpec>,
  extra: Partial<EventMetadata> = {},
): EventMetadata {
  return {
    actorUserId: req.actor?.userId ?? null,
    actorAccountId: req.actor?.accountId ?? null,
    correlationId: req.request.id,
    source: req.actor?.viaApi ? 'api' : 'web',
    ip: req.ip,
    userAgent: req.userAgent,
    ...extra,
  };
}

export const systemMetadata = (): EventMetadata => ({ source: 'system' });
