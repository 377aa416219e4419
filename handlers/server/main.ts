/**
 * `npm start`. The same file starts the primary process (the supervisor, handlers/server/primary.ts) and, forked
 * by it through node:cluster, each HTTP worker (handlers/server/http-worker.ts); the supervisor also forks the
 * database's setup (handlers/server/setup.ts) and the job engine's process (handlers/server/jobs-process.ts).
 * Each role's modules are imported only in its own process: the primary never loads the app, the database
 * driver or the engine.
 */
import cluster from 'node:cluster';
import { readConfig } from './config.js';

const config = readConfig();
if (cluster.isPrimary) {
  const { runPrimary } = await import('./primary.js');
  await runPrimary(config);
} else {
  const { runWorker } = await import('./http-worker.js');
  await runWorker(config);
}
