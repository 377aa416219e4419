/**
 * The job engine's process under `npm start` (batch exports and asynchronous queries, handlers/jobs/), forked and
 * restarted by the supervisor (handlers/server/supervisor.ts) as it restarts the HTTP workers: one engine per
 * server whatever the number of workers, its runs, waits and results kept away from the processes that answer
 * requests and from the supervisor. It tells the supervisor once the engine runs; an engine that cannot start
 * (a database slow to answer) exits, and the supervisor tries again after a wait that grows.
 */
import { startEngine, type RunningEngine } from '../jobs/index.js';
import { readConfig } from './config.js';
import { engineSettings } from './engine-settings.js';
import { createLogger, nameDatabaseSessions } from './logger.js';
import type { JobsMessage } from './supervisor-link.js';

// The terminal's Ctrl-C is the supervisor's to answer (it sends SIGTERM), as for the HTTP workers: ignored from
// the start, so that one during start-up does not cut a process short.
process.on('SIGINT', () => undefined);

const config = readConfig();
nameDatabaseSessions('jobs');
const logger = createLogger(config).child({ process: 'jobs' });
if (!config.databaseUrl) throw new Error('the jobs process is started by the supervisor, with DATABASE_URL set');

let running: RunningEngine;
try {
  running = await startEngine(engineSettings(config, config.databaseUrl), logger);
} catch (error) {
  logger.error({ err: error }, 'the job engine could not start');
  process.exit(1);
}
logger.info({ pid: process.pid }, 'job engine started');
const ready: JobsMessage = { hedgerow: 'jobs-ready' };
process.send?.(ready);

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'job engine stopping');
  await running.stop(); // a run in flight is handed back for another engine (or the next start) to finish
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
// The supervisor is gone (killed): nothing would start this process again.
process.on('disconnect', () => void shutdown('supervisor gone'));
