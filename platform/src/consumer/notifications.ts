import { EventEmitter } from 'node:events';
import pg from 'pg';
import type { Logger } from '../logger.ts';

const RECONNECT_MS = [100, 500, 1000, 2000, 5000] as const;

/**
 * One LISTEN connection per process for every channel it follows (checkpoint progress, session
 * revocations): what one process commits, every other process hears in a few milliseconds, with no
 * polling loop. Reconnects with backoff; a notification sent while it was reconnecting is lost, so
 * followers re-read their state in `onReconnect`.
 */
export class PgNotifications {
  private client: pg.Client | undefined;
  private connecting: Promise<void> | undefined;
  private readonly channels = new Set<string>();
  private readonly emitter = new EventEmitter();
  private closed = false;
  private failures = 0;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly url: string,
    private readonly logger?: Logger,
  ) {
    this.emitter.setMaxListeners(0);
  }

  /** Calls `fn` with each payload sent on `channel`; resolves once the LISTEN is in place. */
  async on(channel: string, fn: (payload: string) => void): Promise<() => void> {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
    this.emitter.on(`n:${channel}`, fn);
    if (!this.channels.has(channel)) {
      this.channels.add(channel);
      if (this.client) await this.client.query(`listen ${channel}`);
    }
    await this.connect();
    return () => this.emitter.off(`n:${channel}`, fn);
  }

  /** After each reconnection (notifications may have been missed meanwhile). */
  onReconnect(fn: () => void): void {
    this.emitter.on('reconnected', fn);
  }

  /** Resolves once connected and listening (or at once after close). */
  ready(): Promise<void> {
    return this.connect();
  }

  private connect(): Promise<void> {
    if (this.closed || this.client) return Promise.resolve();
    this.connecting ??= (async () => {
      const client = new pg.Client({ connectionString: this.url });
      client.on('notification', (n) => this.emitter.emit(`n:${n.channel}`, n.payload ?? ''));
      const lost = () => {
        if (this.client !== client) return;
        this.client = undefined;
        this.scheduleReconnect();
      };
      client.on('error', lost);
      client.on('end', lost);
      try {
        await client.connect();
        for (const channel of this.channels) await client.query(`listen ${channel}`);
      } catch (error) {
        await client.end().catch(() => undefined);
        throw error;
      }
      if (this.closed) {
        await client.end().catch(() => undefined);
        return;
      }
      const wasDown = this.failures > 0;
      this.failures = 0;
      this.client = client;
      if (wasDown) this.emitter.emit('reconnected');
    })().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private scheduleReconnect(): void {
    if (this.closed || this.retry) return;
    const delay = RECONNECT_MS[Math.min(this.failures, RECONNECT_MS.length - 1)]!;
    this.failures++;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.connect().catch((err: unknown) => {
        this.logger?.warn({ err }, 'LISTEN connection lost; retrying');
        this.scheduleReconnect();
      });
    }, delay);
    this.retry.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    await this.connecting?.catch(() => undefined);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}
