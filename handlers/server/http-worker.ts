/**
 * One HTTP worker of `npm start` (a node:cluster worker of handlers/server/primary.ts): the API and the capture
 * endpoints on the port all workers share.
 */
import cluster from 'node:cluster';
import type { Server } from 'node:http';
import type { Config } from './config.js';
import { createLogger, nameDatabaseSessions } from './logger.js';
import { openRuntime } from './runtime.js';
import { SupervisorLink } from './supervisor-link.js';
import { createApp } from './app.js';

export async function runWorker(config: Config): Promise<void> {
  // A terminal's Ctrl-C reaches every process of the group at once: the supervisor answers it by stopping the
  // workers in order (SIGTERM), so a worker leaves it to the supervisor instead of exiting under it, from its start.
  process.on('SIGINT', () => undefined);
  const worker = { id: cluster.worker!.id, pid: process.pid };
  nameDatabaseSessions('worker');
  const logger = createLogger(config).child({ worker: worker.id });
  const runtime = await openRuntime(config, logger, { migrate: false });
  const supervisor = new SupervisorLink(worker, {
    send: (message) => process.send!(message),
    get connected() {
      return process.connected;
    },
    on: (event, listener) => process.on(event, listener),
  });
  const app = await createApp({ db: runtime.db, config, logger, supervisor });
  const server: Server = app.listen(config.port, config.host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  logger.info({ port: config.port, pid: worker.pid }, 'worker listening');

  let stopping = false;
  async function shutdown(signal: string): Promise<void> {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'worker shutting down');
    server.close();
    await app.close(); // captured events already accepted are committed (or refused) before the database closes
    server.closeAllConnections();
    await runtime.close();
    process.exit(0);
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  // The primary is gone (killed): nothing will start this worker again nor send it connections.
  process.on('disconnect', () => {
    supervisor.disconnected();
    void shutdown('primary gone');
  });
}
