import { randomUUID } from 'node:crypto';
import { openAccount, registerUser } from '@mrn/command-api';
import { merchantAddedData } from '@mrn/contracts/testing';
import {
  createLogger,
  type NewEvent,
  type Pool,
  type PostgresEventStore,
  type StreamAppend,
} from '@mrn/platform';
import { ensurePlatformAdmin } from '@mrn/server';
import type { BenchDatabase, BenchServer } from './database.ts';
import { merchantAppends, noteCounts, type Owner, Rng } from './search-data.ts';
import { formatCount } from './table.ts';

/**
 * How every bench gets its data (issue 33: seeding was written once per bench): the platform
 * administrator and the PRO funder the searches run as, a million merchants with their notes written
 * through the event store as the command side writes them, a kept database reused, and the webhook
 * bench's watching funders and merchants.
 */

export const ADMIN_EMAIL = 'bench-admin@merchantrisk.local';
export const FUNDER_EMAIL = 'dana.whitfield@summit-bench.example';
export const PASSWORD = 'bench-password-2026';

/** How many merchants and notes, and how they are written. */
export interface SeedOptions {
  merchants: number;
  notes: number;
  /** Concurrent writers. */
  seedWriters: number;
  /** Merchants per appendMany. */
  seedBatch: number;
}

export function reusedDatabase(server: BenchServer, name: string): BenchDatabase {
  const url = new URL(server.adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), name, drop: async () => undefined };
}

export async function existingFunder(pool: Pool): Promise<Owner> {
  const { rows } = await pool.query<{ account_id: string; id: string }>(
    'select account_id, id from read.users where email = $1',
    [FUNDER_EMAIL],
  );
  if (!rows[0]) throw new Error(`No ${FUNDER_EMAIL} in the reused database`);
  return { accountId: rows[0].account_id, userId: rows[0].id };
}

export async function createFunder(store: PostgresEventStore): Promise<Owner> {
  const logger = createLogger('warn', 'bench');
  // The platform administrator the server would otherwise create on its first start.
  await ensurePlatformAdmin(
    { store, logger },
    { productName: 'Merchant Risk Network', email: ADMIN_EMAIL, password: PASSWORD },
  );
  const accountId = randomUUID();
  const userId = randomUUID();
  const ctx = { now: new Date() };
  const metadata = { source: 'system' as const };
  await openAccount(
    { store },
    {
      accountId,
      name: 'Summit Capital Funding',
      website: 'https://summitcapital.example',
      primaryContactEmail: FUNDER_EMAIL,
      planLevel: 'PRO',
      membershipStatus: 'active',
      isPlatform: false,
    },
    ctx,
    metadata,
  );
  await registerUser(
    { store },
    {
      userId,
      accountId,
      email: FUNDER_EMAIL,
      firstName: 'Dana',
      lastName: 'Whitfield',
      isAdmin: true,
      isDmAdmin: false,
      password: PASSWORD,
      agreedToTermsAt: ctx.now.toISOString(),
    },
    ctx,
    metadata,
  );
  return { accountId, userId };
}

/** `seedWriters` loops, each taking the next `seedBatch` merchants and appending them in one appendMany. */
export async function seedMerchants(
  store: PostgresEventStore,
  owner: Owner,
  opts: SeedOptions,
): Promise<{ events: number; seconds: number }> {
  const counts = noteCounts(opts.merchants, opts.notes, new Rng(42));
  let next = 0;
  let done = 0;
  let events = 0;
  let reported = 0;
  const started = performance.now();
  const writer = async () => {
    for (;;) {
      const from = next;
      if (from >= opts.merchants) return;
      const to = Math.min(from + opts.seedBatch, opts.merchants);
      next = to;
      const batch = [];
      for (let i = from; i < to; i++) batch.push(...merchantAppends(i, counts[i]!, owner));
      await store.appendMany(batch);
      done += to - from;
      for (const b of batch) events += b.events.length;
      const tenth = Math.floor((done * 10) / opts.merchants);
      if (tenth > reported) {
        reported = tenth;
        const seconds = (performance.now() - started) / 1000;
        process.stderr.write(
          `  seeding: ${tenth * 10}% — ${formatCount(done)} merchants, ${formatCount(events)} events, ` +
            `${formatCount(events / seconds)} events/s\n`,
        );
      }
    }
  };
  await Promise.all(Array.from({ length: opts.seedWriters }, writer));
  return { events, seconds: (performance.now() - started) / 1000 };
}

export function accountOpened(accountId: string, name: string): NewEvent {
  return {
    id: randomUUID(),
    type: 'AccountOpened',
    data: {
      accountId,
      name,
      website: null,
      primaryContactEmail: `ops@${accountId.slice(0, 8)}.bench.example`,
      planLevel: 'PRO',
      membershipStatus: 'active',
      isPlatform: false,
    },
  };
}

/** Funders with subscriptions enabled and a webhook URL, each watching every EIN given. */
export async function seedWatchers(
  store: PostgresEventStore,
  count: number,
  feins: string[],
  urls: string[],
): Promise<void> {
  for (let done = 0; done < count; done += 200) {
    const batch: StreamAppend[] = [];
    for (let i = done; i < Math.min(count, done + 200); i++) {
      const accountId = randomUUID();
      const name = `Watcher Funding ${i}`;
      const opened = accountOpened(accountId, name);
      batch.push({
        streamId: `account-${accountId}`,
        expectedRevision: 'no_stream',
        events: [
          opened,
          {
            id: randomUUID(),
            type: 'AccountUpdated',
            data: {
              accountId,
              name,
              website: null,
              primaryContactEmail: (opened.data as { primaryContactEmail: string }).primaryContactEmail,
              merchantSubscriptionEnabled: true,
              merchantSubscriptionNotificationEmail: null,
              merchantSubscriptionNotificationWebhook: `${urls[i % urls.length]}/${accountId}`,
            },
          },
        ],
      });
      batch.push({
        streamId: `subscriptions-${accountId}`,
        expectedRevision: 'no_stream',
        events: [
          { id: randomUUID(), type: 'MerchantSubscriptionsAdded', data: { accountId, feins, source: 'web' } },
        ],
      });
    }
    await store.appendMany(batch);
  }
}

export async function seedMerchant(
  store: PostgresEventStore,
  accountId: string,
  fein: string,
  legalName: string,
): Promise<string> {
  const merchantId = randomUUID();
  await store.appendToStream(
    `merchant-${merchantId}`,
    [
      {
        id: randomUUID(),
        type: 'MerchantAdded',
        data: merchantAddedData({ merchantId, fein, legalName, accountId, userId: randomUUID() }),
        metadata: { actorAccountId: accountId, source: 'web' },
      },
    ],
    { expectedRevision: 'no_stream' },
  );
  return merchantId;
}

export function noteAdded(accountId: string, merchantId: string, note: string): NewEvent {
  return {
    id: randomUUID(),
    type: 'NoteAdded',
    data: {
      merchantId,
      noteId: randomUUID(),
      category: 'Slow Pay',
      note,
      submissionSource: 'in-house',
      brokerName: null,
      accountId,
      userId: randomUUID(),
      proxiedCreator: null,
    },
    metadata: { actorAccountId: accountId, source: 'web' },
  };
}
