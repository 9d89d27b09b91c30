import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Socket } from 'node:net';
import { merchantAddedData } from '@mrn/contracts/testing';
import {
  createLogger,
  type Mail,
  type Mailer,
  type Position,
  PostgresEventStore,
  platformMigrations,
  SearchLog,
  SearchLogWriter,
} from '@mrn/platform';
import { createTestDatabase, type TestDatabase } from '@mrn/platform/testing';
import { allProjectors, ProjectionRunner, projectionMigrations } from '@mrn/projections';
import { Webhook } from 'standardwebhooks';
import { dispatcherMigrations } from './migrations.ts';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  close(): Promise<void>;
}

/**
 * A real HTTP endpoint on 127.0.0.1. `answer(n)` gives the status of the n-th request (0-based), or
 * 'hang' to hold it open. Bodies are bounded (64 KB) and every request times out after 15 s.
 */
export async function startReceiver(
  answer: (n: number, r: Received) => number | 'hang' = () => 200,
): Promise<Receiver> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > 65_536) req.destroy();
      else chunks.push(c);
    });
    req.on('end', () => {
      const r = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      const n = received.length;
      received.push(r);
      const status = answer(n, r);
      if (status === 'hang') return;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(`answer ${n} ${'x'.repeat(3000)}`);
    });
  });
  server.requestTimeout = 15_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface HangingReceiver {
  url: string;
  /** Connections accepted so far. */
  connections: number;
  /** The most connections it held open at once (each hanging request holds one). */
  maxOpen: number;
  close(): Promise<void>;
}

/**
 * An endpoint that accepts the connection, reads the request and never answers: what a receiver stuck
 * on a lock or a dead upstream looks like to the dispatcher.
 */
export async function startHangingReceiver(): Promise<HangingReceiver> {
  const open = new Set<Socket>();
  const state = { connections: 0, maxOpen: 0 };
  const server = createTcpServer((socket) => {
    state.connections++;
    open.add(socket);
    state.maxOpen = Math.max(state.maxOpen, open.size);
    socket.on('data', () => undefined);
    socket.on('error', () => undefined);
    socket.on('close', () => open.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    get connections() {
      return state.connections;
    },
    get maxOpen() {
      return state.maxOpen;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export class RecordingMailer implements Mailer {
  readonly sent: Mail[] = [];
  async send(mail: Mail): Promise<void> {
    this.sent.push(mail);
  }
  close(): void {}
}

/** Verifies a received request with the `standardwebhooks` reference library as of its own timestamp. */
export function verifyWith(secret: string, r: Received, at?: number): unknown {
  const headers = {
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  };
  const realNow = Date.now;
  // The reference verifier refuses timestamps 5 minutes away from now; tests move a manual clock.
  Date.now = () => (at ?? Number(headers['webhook-timestamp'])) * 1000;
  try {
    return new Webhook(secret).verify(r.body, headers);
  } finally {
    Date.now = realNow;
  }
}

export const randomEin = () => String(Math.floor(100_000_000 + Math.random() * 899_999_999));

export const append = (
  store: PostgresEventStore,
  streamId: string,
  type: string,
  data: unknown,
  metadata = {},
) =>
  store.appendToStream(streamId, [{ id: randomUUID(), type, data, metadata }], { expectedRevision: 'any' });

export async function openAccount(
  store: PostgresEventStore,
  name: string,
  settings: AccountSettings = {},
): Promise<string> {
  const accountId = randomUUID();
  await append(store, `account-${accountId}`, 'AccountOpened', {
    accountId,
    name,
    website: null,
    primaryContactEmail: `${accountId}@example.com`,
    planLevel: 'PRO',
    membershipStatus: 'active',
    isPlatform: false,
  });
  await saveAccountSettings(store, accountId, name, settings);
  return accountId;
}

/** The account's settings saved (AccountUpdated), as the account form writes them. */
export async function saveAccountSettings(
  store: PostgresEventStore,
  accountId: string,
  name: string,
  settings: AccountSettings = {},
): Promise<void> {
  await append(store, `account-${accountId}`, 'AccountUpdated', {
    accountId,
    name,
    website: null,
    primaryContactEmail: `${accountId}@example.com`,
    merchantSubscriptionEnabled: settings.enabled ?? true,
    merchantSubscriptionNotificationEmail: settings.email ?? null,
    merchantSubscriptionNotificationWebhook: settings.webhook ?? null,
    ...(settings.shoppedAlertThreshold !== undefined
      ? { shoppedAlertThreshold: settings.shoppedAlertThreshold }
      : {}),
    ...(settings.webhookEventTypes !== undefined ? { webhookEventTypes: settings.webhookEventTypes } : {}),
  });
}

interface AccountSettings {
  webhook?: string | null;
  email?: string | null;
  enabled?: boolean;
  shoppedAlertThreshold?: number | null;
  webhookEventTypes?: string[] | null;
}

/**
 * The projections running over the test database (the dispatcher reads their read models and feeds:
 * read.merchant_searches, read.watched_lookups), with the search log's writer.
 */
export interface TestProjections {
  store: PostgresEventStore;
  runner: ProjectionRunner;
  searches: SearchLogWriter;
  /** Until every projector has passed `position` (default: the event log's head). */
  projected(position?: Position): Promise<void>;
  stop(): Promise<void>;
}

export async function startProjections(
  db: TestDatabase,
  store: PostgresEventStore,
): Promise<TestProjections> {
  const searchLog = new SearchLog(db.pool);
  const runner = new ProjectionRunner(
    { pool: db.pool, store, searches: searchLog, logger: createLogger('silent') },
    allProjectors,
  );
  await runner.start();
  const projected = async (position?: Position) => {
    const at = position ?? (await store.headPosition());
    if (!(await runner.waitFor(at, [], 20_000))) throw new Error(`projections did not pass ${at}`);
  };
  return {
    store,
    runner,
    searches: new SearchLogWriter(db.pool),
    projected,
    async stop() {
      await runner.stop();
      await searchLog.close();
    },
  };
}

/**
 * A search by `accountId` that found `merchantIds`, recorded in the search log at `at` (the time the
 * shopped alert counts by), as the query side's recorder would have written it then, and projected: fed
 * to the dispatcher as the watches stand when it is made (projections have applied the event log first).
 */
export async function searchedAt(
  projections: TestProjections,
  accountId: string,
  merchantIds: string[],
  at: Date,
  extra: { einSearch?: boolean; platformAdmin?: boolean } = {},
): Promise<Position> {
  await projections.projected();
  const [position] = await projections.searches.append([
    {
      accountId,
      userId: randomUUID(),
      source: 'web',
      term: extra.einSearch === false ? 'acme' : '123456789',
      einSearch: extra.einSearch ?? true,
      merchantIds,
      hit: merchantIds.length > 0,
      ...(extra.platformAdmin ? { platformAdmin: true } : {}),
      at,
    },
  ]);
  await projections.projected(position);
  return position!;
}

export async function watch(store: PostgresEventStore, accountId: string, fein: string): Promise<void> {
  await append(store, `subscriptions-${accountId}`, 'MerchantSubscriptionsAdded', {
    accountId,
    feins: [fein],
    source: 'web',
  });
}

export async function addMerchant(
  store: PostgresEventStore,
  accountId: string,
  fein: string,
  legalName = 'Acme Coffee LLC',
): Promise<string> {
  const merchantId = randomUUID();
  await append(
    store,
    `merchant-${merchantId}`,
    'MerchantAdded',
    merchantAddedData({ merchantId, fein, legalName, accountId, userId: randomUUID() }),
    { actorAccountId: accountId },
  );
  return merchantId;
}

export async function addNote(
  store: PostgresEventStore,
  accountId: string,
  merchantId: string,
  category = 'Slow Pay',
  note = 'Paid 40 days late.',
): Promise<string> {
  const noteId = randomUUID();
  await append(
    store,
    `merchant-${merchantId}`,
    'NoteAdded',
    {
      merchantId,
      noteId,
      category,
      note,
      submissionSource: 'in-house',
      brokerName: null,
      accountId,
      userId: randomUUID(),
      proxiedCreator: null,
    },
    { actorAccountId: accountId, actorUserId: randomUUID() },
  );
  return noteId;
}

export async function updateNote(
  store: PostgresEventStore,
  accountId: string,
  merchantId: string,
  noteId: string,
  category: string,
  note: string,
): Promise<void> {
  await append(
    store,
    `merchant-${merchantId}`,
    'NoteUpdated',
    { merchantId, noteId, category, note, submissionSource: 'in-house', brokerName: null },
    { actorAccountId: accountId },
  );
}

/** A fresh database with the event store, read models and the dispatcher's tables, and a store on it. */
export async function openDispatcherDatabase(
  opts: { live?: boolean } = {},
): Promise<{ db: TestDatabase; store: PostgresEventStore }> {
  const db = await createTestDatabase([
    ...platformMigrations(),
    ...projectionMigrations(),
    ...dispatcherMigrations(),
  ]);
  // Live: LISTEN for appends, for tests that run the dispatcher as the server does.
  const store = new PostgresEventStore(db.pool, opts.live ? { listenUrl: db.url, pollIntervalMs: 100 } : {});
  return { db, store };
}

export const closeDispatcherDatabase = async (d: { db?: TestDatabase; store?: PostgresEventStore }) => {
  await d.store?.close();
  await d.db?.drop();
};

/** Empties the outbox between tests (accounts, watches and merchants stay: each test makes its own). */
export const clearOutbox = (db: TestDatabase) =>
  db.pool.query(
    'truncate webhook_deliveries, webhook_attempts, webhook_endpoint_health, webhook_endpoint_circuits',
  );
