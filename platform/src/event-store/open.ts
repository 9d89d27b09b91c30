import type { Pool } from 'pg';
import type { Config } from '../config.ts';
import { KurrentDbEventStore } from './kurrentdb-event-store.ts';
import { PostgresEventStore, type PostgresEventStoreOptions } from './postgres-event-store.ts';
import type { EventStore } from './types.ts';

export interface OpenEventStoreOptions {
  /** The process's PostgreSQL pool: the event log's with EVENT_STORE=postgres. */
  pool: Pool;
  /** That database's connection string, for the LISTEN connection that wakes subscribers. */
  databaseUrl: string;
  /**
   * The append timing hook (metrics: `Metrics.observeAppend`), called once per appendToStream
   * ('single') or appendMany ('many'), failures included, with its duration in seconds; the same on
   * both stores. A hook that throws is ignored.
   */
  onAppend?: PostgresEventStoreOptions['onAppend'];
}

export interface OpenedEventStore {
  store: EventStore;
  /** Which implementation `store` is (for logs and /health). */
  kind: Config['EVENT_STORE'];
  /** Closes the store (its LISTEN connection, or its KurrentDB client); the pool stays the caller's. */
  close(): Promise<void>;
}

/**
 * The event store the configuration names (DESIGN §3): PostgreSQL over `pool` by default, or KurrentDB
 * at EVENTSTORE_URL with EVENT_STORE=kurrentdb. The KurrentDB client library is loaded (a dynamic
 * import in KurrentDbEventStore.connect) only then, so a process on PostgreSQL never pays its ~250 ms
 * of loading; the client connects to the server on first use, not here.
 */
export async function openEventStore(
  config: Pick<Config, 'EVENT_STORE' | 'EVENTSTORE_URL'>,
  options: OpenEventStoreOptions,
): Promise<OpenedEventStore> {
  const onAppend = options.onAppend ? { onAppend: options.onAppend } : {};
  let store: EventStore;
  if (config.EVENT_STORE === 'kurrentdb') {
    if (!config.EVENTSTORE_URL) throw new Error('EVENTSTORE_URL is required when EVENT_STORE=kurrentdb');
    store = await KurrentDbEventStore.connect(config.EVENTSTORE_URL, onAppend);
  } else {
    store = new PostgresEventStore(options.pool, { listenUrl: options.databaseUrl, ...onAppend });
  }
  return { store, kind: config.EVENT_STORE, close: () => store.close() };
}
