import pg from 'pg';
import type { Logger } from '../logger.ts';

/** Advisory-lock space of consumer leases (the second key is the name's hash). */
const LEASE_SPACE = 727_100;
/** How often a standby tries for the leases it lacks: it takes over within this of the holder's death. */
export const LEASE_RETRY_MS = 500;

export interface LeaseEvents {
  acquired?(name: string): void;
  lost?(name: string): void;
}

/**
 * The leases of a process's consumers: a PostgreSQL session advisory lock per consumer, held on a
 * connection of their own. PostgreSQL frees a dead process's locks the moment its connection drops
 * (kill -9 closes the socket), and a standby trying every second takes over. A lease only decides
 * who works; what makes a stale holder harmless is the checkpoint fence (`advanceCheckpoint`).
 */
export class Leases {
  private client: pg.Client | undefined;
  private readonly held = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private trying: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly url: string,
    private readonly names: readonly string[],
    private readonly events: LeaseEvents = {},
    private readonly opts: { retryMs?: number; logger?: Logger } = {},
  ) {}

  holds(name: string): boolean {
    return this.held.has(name);
  }

  get heldNames(): string[] {
    return [...this.held];
  }

  /** Tries for every lease once (resolves when done), then keeps trying for the missing ones. */
  async start(): Promise<void> {
    await this.tryAll();
    this.timer = setInterval(() => {
      void this.tryAll();
    }, this.opts.retryMs ?? LEASE_RETRY_MS);
    this.timer.unref();
  }

  private tryAll(): Promise<void> {
    this.trying ??= this.tryMissing()
      .catch((err: unknown) => {
        this.opts.logger?.warn({ err }, 'consumer leases: database unreachable; retrying');
        this.dropAll();
      })
      .finally(() => {
        this.trying = undefined;
      });
    return this.trying;
  }

  private async tryMissing(): Promise<void> {
    if (this.stopped) return;
    const missing = this.names.filter((n) => !this.held.has(n));
    if (missing.length === 0) return;
    const client = await this.connection();
    const { rows } = await client.query<{ name: string; ok: boolean }>(
      `select name, pg_try_advisory_lock(${LEASE_SPACE}, hashtext(name)) as ok from unnest($1::text[]) as name`,
      [missing],
    );
    if (this.stopped || client !== this.client) return;
    for (const { name, ok } of rows) {
      if (!ok) continue;
      this.held.add(name);
      this.events.acquired?.(name);
    }
  }

  private async connection(): Promise<pg.Client> {
    if (this.client) return this.client;
    const client = new pg.Client({ connectionString: this.url });
    const lost = () => {
      if (this.client !== client) return;
      this.client = undefined;
      this.dropAll();
    };
    client.on('error', lost);
    client.on('end', lost);
    await client.connect();
    this.client = client;
    return client;
  }

  private dropAll(): void {
    for (const name of [...this.held]) {
      this.held.delete(name);
      this.events.lost?.(name);
    }
  }

  /** Gives up one lease (a consumer found its checkpoint moved by another process). */
  async release(name: string): Promise<void> {
    if (!this.held.delete(name)) return;
    this.events.lost?.(name);
    await this.client
      ?.query(`select pg_advisory_unlock(${LEASE_SPACE}, hashtext($1))`, [name])
      .catch(() => undefined);
  }

  /** Frees every lease (the connection closes) so a standby takes over at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.trying;
    const client = this.client;
    this.client = undefined;
    this.held.clear();
    await client?.end().catch(() => undefined);
  }
}
