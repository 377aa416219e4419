/**
 * A small TCP proxy for tests that need a database that goes away: it forwards to the machine's PostgreSQL
 * until `cut()`, which drops every open connection and refuses new ones (accepted and reset at once), until
 * `restore()`; or until `stall()`, which keeps every connection open but carries nothing more either way (a
 * peer that went silent: a half-open connection). The machine's PostgreSQL itself is never stopped.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** `url` with its host and port replaced by the proxy's. */
  urlFor(url: string): string;
  cut(): void;
  stall(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let open = true;
  let stalled = false;
  const pairs = new Set<[Socket, Socket]>();
  const server: Server = createServer((client) => {
    if (!open) {
      client.resetAndDestroy();
      return;
    }
    const upstream = createConnection(target);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    // Forwarded chunk by chunk, so that stall() can stop carrying them.
    client.on('data', (chunk: Buffer) => {
      if (!stalled) upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!stalled) client.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const proxy: TcpProxy = {
    port,
    urlFor(url) {
      const parsed = new URL(url);
      parsed.hostname = '127.0.0.1';
      parsed.port = String(port);
      return parsed.toString();
    },
    cut() {
      open = false;
      for (const [client, upstream] of pairs) {
        client.resetAndDestroy();
        upstream.destroy();
      }
      pairs.clear();
    },
    stall() {
      stalled = true;
    },
    restore() {
      open = true;
      stalled = false;
    },
    async close() {
      proxy.cut();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return proxy;
}
