/**
 * `npm run worker`: the batch export engine alone, without the API, for more export capacity on other machines
 * (or beside an `npm start` run with HEDGEROW_JOBS=off). Any number may run on one database: pg-boss hands each
 * job to one of them, and a run's row lets only one of them run an interval.
 */
import { startEngine } from '../jobs/index.js';
import { engineSettings } from './engine-settings.js';
import { readConfig } from './config.js';
import { nameDatabaseSessions } from './logger.js';
import { createLogger, openRuntime } from './runtime.js';

const config = readConfig();
nameDatabaseSessions('export-worker');
const logger = createLogger(config).child({ process: 'export-worker' });
const runtime = await openRuntime(config, logger);
const running = await startEngine(engineSettings(config, runtime.databaseUrl), logger);
logger.info({ pid: process.pid }, 'batch export worker started');
process.stdout.write('Hedgerow batch export worker started\n');

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'batch export worker stopping');
  await running.stop();
  await runtime.close();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
