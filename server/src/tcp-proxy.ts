import { createConnection, createServer, type Socket } from 'node:net';

export interface TcpProxy {
  /** `postgres://…` of `url` with its host and port replaced by the proxy's. */
  url: string;
  /** Refuses new connections and cuts every open one: the database "goes down" for whoever uses `url`. */
  cut(): Promise<void>;
  /** Forwards again (the database "comes back"). */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A loopback TCP relay in front of PostgreSQL, for tests of what the product does when its database
 * disappears (stopping the run's shared server would take every other test file down with it).
 */
export async function startPostgresProxy(databaseUrl: string): Promise<TcpProxy> {
  const target = new URL(databaseUrl);
  // A URL that names a Unix socket folder (`?host=/…`) is relayed to that socket.
  const socketDir = target.searchParams.get('host');
  const port = Number(target.port || 5432);
  const connectTarget = () =>
    socketDir?.startsWith('/')
      ? createConnection({ path: `${socketDir}/.s.PGSQL.${port}` })
      : createConnection({ host: target.hostname, port });
  const open = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connectTarget();
    open.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream).pipe(client);
  });
  let listeningPort = 0;
  const listen = (p: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(p, '127.0.0.1', () => {
        server.off('error', reject);
        listeningPort = (server.address() as { port: number }).port;
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of open) socket.destroy();
      open.clear();
      if (!server.listening) return resolve();
      server.close(() => resolve());
    });
  await listen(0);
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(listeningPort);
  url.searchParams.delete('host');
  return {
    url: url.toString(),
    cut: stop,
    restore: () => listen(listeningPort),
    close: stop,
  };
}
