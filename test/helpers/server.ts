/**
 * The real app on port 0 against the run's database. With HEDGEROW_TEST_VIA=prism-proxy the tests talk to it
 * through `prism proxy --errors`, so that Prism too checks every response against the spec.
 */
import type { Server } from 'node:http';
import pino, { type Logger } from 'pino';
import type { Db } from '../../db/pg/client.js';
import { createApp } from '../../handlers/server/app.js';
import { readConfig, type Config } from '../../handlers/server/config.js';
import type { HostResolver } from '../../db/destinations/address-policy.js';
import { testDb } from './database.js';
import { LOOPBACK_ALLOWLIST, offlineResolver } from './destination-addresses.js';
import { HttpClient } from './http.js';
import { startPrism, type PrismProcess } from './prism.js';

export interface TestServer {
  baseUrl: string;
  /** The server itself, bypassing any proxy. */
  directUrl: string;
  http: HttpClient;
  /** The configuration the app was created with. */
  config: Config;
  close(): Promise<void>;
}

export const viaPrismProxy = process.env.HEDGEROW_TEST_VIA === 'prism-proxy';

export interface TestServerOptions {
  config?: Partial<Config>;
  /** Another database than the run's (for example an unreachable one). */
  db?: Db;
  logger?: Logger;
  /** How destination host names resolve when an export is written; offline (only `localhost`) when not given. */
  destinationResolver?: HostResolver;
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  // Test destinations (s3rver, HTTP receivers, other databases of the test cluster) listen on loopback.
  const config: Config = { ...readConfig(), rateLimitPerMinute: 0, destinationAllowlist: LOOPBACK_ALLOWLIST, ...options.config };
  const app = await createApp({
    db: options.db ?? testDb(),
    config,
    logger: options.logger ?? pino({ level: 'silent' }),
    destinationResolver: options.destinationResolver ?? offlineResolver(),
  });
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const address = server.address();
  const directUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  let proxy: PrismProcess | null = null;
  if (viaPrismProxy) {
    proxy = await startPrism('proxy', [directUrl, '--errors', '--validate-request', 'false', '--cors', 'false']);
  }
  const baseUrl = proxy?.url ?? directUrl;
  return {
    baseUrl,
    directUrl,
    http: new HttpClient(baseUrl, null, directUrl),
    config,
    async close() {
      await proxy?.stop();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await app.close();
    },
  };
}
