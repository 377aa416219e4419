/**
 * `npm start`. The primary process opens (or starts) the database, migrates, sets up a first organization on an
 * empty database, and runs worker processes (handlers/server/supervisor.ts) that serve the API and the capture
 * endpoints on one shared port; it prints the start-up lines once they all listen.
 *
 * The batch export engine (handlers/jobs/) runs in the primary, unless HEDGEROW_JOBS=off: one engine per server
 * whatever the number of HTTP workers, its long runs and waits kept away from the processes that answer
 * requests, and the primary outlives the workers it restarts. `npm run worker` runs more engines elsewhere.
 */
import cluster from 'node:cluster';
import type { Server } from 'node:http';
import { createServer } from 'node:net';
import { availableParallelism } from 'node:os';
import { DB_POOL_MAX, READ_DB_POOL_MAX } from '../../db/pg/client.js';
import { bootstrap, hasAnyOrganization } from '../../db/queries/bootstrap.js';
import { readConnectionBudget } from '../../db/queries/connection-budget.js';
import { engineSessions, startEngine, type RunningEngine } from '../jobs/index.js';
import { readConfig, type Config } from './config.js';
import { engineSettings } from './engine-settings.js';
import { createLogger, openRuntime } from './runtime.js';
import { Supervisor, planWorkers } from './supervisor.js';
import { SupervisorLink } from './supervisor-link.js';

/** Sessions one worker may hold: its pool, its read-only pool and the access cache's listening session. */
const SESSIONS_PER_WORKER = DB_POOL_MAX + READ_DB_POOL_MAX + 1;

/**
 * For PORT=0, a free port chosen once by the primary: a worker started again must listen on the same port as
 * the others (node:cluster shares a listening socket between workers by address and port, and workers asking
 * for port 0 after the last one holding it died would get another).
 */
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function runPrimary(config: Config): Promise<void> {
  const logger = createLogger(config);
  const runtime = await openRuntime(config, logger);
  const { db } = runtime;

  let firstRun = null;
  if (!(await hasAnyOrganization(db))) {
    firstRun = await bootstrap(db, {
      email: process.env.HEDGEROW_ADMIN_EMAIL || 'admin@hedgerow.local',
      organizationName: 'Default organization',
      projectName: 'Default project',
    });
  }
  const budget = await readConnectionBudget(db);
  // The engine's sessions (in this process) come first: the HTTP workers share what is left.
  if (config.jobs) budget.used += engineSessions(config.exportConcurrency);
  const plan = planWorkers({ requested: config.workers, cpus: availableParallelism(), budget, perWorker: SESSIONS_PER_WORKER });
  logger.info({ workers: plan.count, reason: plan.reason }, `starting ${plan.count} worker(s): ${plan.reason}`);
  // The primary serves nothing: its sessions are the workers' to use.
  await db.destroy();

  const port = config.port === 0 ? await freePort(config.host) : config.port;
  const supervisor = new Supervisor({
    count: plan.count,
    workerEnv: {
      DATABASE_URL: runtime.databaseUrl,
      PORT: String(port),
      // Capture's memory budget and its large payloads at once are the whole server's: each worker holds its share.
      HEDGEROW_CAPTURE_MEMORY_MB: String(Math.max(1, Math.floor(config.captureMemoryBytes / (1024 * 1024) / plan.count))),
      HEDGEROW_WORKERS: String(plan.count),
    },
    logger,
    rateLimitPerMinute: config.rateLimitPerMinute,
  });

  let engine: RunningEngine | null = null;
  let stopping = false;
  async function shutdown(signal: string, code: number): Promise<void> {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    await engine?.stop(); // a run in flight is handed back for another engine (or the next start) to finish
    await supervisor.stop(); // each worker commits (or refuses) the captures it accepted, then exits
    await runtime.close();
    process.exit(code);
  }
  process.on('SIGINT', () => void shutdown('SIGINT', 0));
  process.on('SIGTERM', () => void shutdown('SIGTERM', 0));

  try {
    await supervisor.start();
  } catch (error) {
    logger.fatal({ err: error }, 'the workers could not start');
    await shutdown('start-up failure', 1);
    return;
  }
  // The engine starts beside the serving workers, not before them: an engine that cannot start yet (a database
  // slow to answer) is tried again, and never keeps the API from serving.
  const startJobs = (): void => {
    startEngine(engineSettings(config, runtime.databaseUrl), logger).then(
      (running) => {
        if (stopping) void running.stop();
        else engine = running;
      },
      (error: unknown) => {
        logger.error({ err: error }, 'the batch export engine could not start; trying again in 30 s');
        if (!stopping) setTimeout(startJobs, ENGINE_RETRY_MS).unref();
      },
    );
  };
  if (config.jobs) startJobs();

  const base = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`;
  const lines = [`Hedgerow is listening on ${base}`, `  API:     ${base}/api/`, `  Capture: ${base}/i/v0/e/ and ${base}/batch/`];
  if (firstRun) {
    lines.push(
      '',
      'First run: created an organization, a project and an admin user.',
      `  Organization id:  ${firstRun.organization_id}`,
      `  Project id:       ${firstRun.project_id}`,
      `  Project API key:  ${firstRun.project_api_key}   (for the SDKs)`,
      `  Personal API key: ${firstRun.personal_api_key}   (shown once; only its hash is stored)`,
      `  User:             ${firstRun.user_email}`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  logger.info({ port, workers: plan.count }, 'listening');
}

/** How long the primary waits before it tries again to start an engine that could not start. */
const ENGINE_RETRY_MS = 30_000;

async function runWorker(config: Config): Promise<void> {
  const worker = { id: cluster.worker!.id, pid: process.pid };
  const logger = createLogger(config).child({ worker: worker.id });
  const runtime = await openRuntime(config, logger, { migrate: false });
  const supervisor = new SupervisorLink(
    worker,
    {
      send: (message) => process.send!(message),
      get connected() {
        return process.connected;
      },
      on: (event, listener) => process.on(event, listener),
    },
    config.rateLimitPerMinute,
  );
  // Imported here rather than at the top: the primary serves nothing, and the app's modules (Koa,
  // openapi-backend, the parsed spec) would cost it tens of megabytes of memory.
  const { createApp } = await import('./app.js');
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
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  // The primary is gone (killed): nothing will start this worker again nor send it connections.
  process.on('disconnect', () => {
    supervisor.disconnected();
    void shutdown('primary gone');
  });
}

const config = readConfig();
await (cluster.isPrimary ? runPrimary(config) : runWorker(config));
