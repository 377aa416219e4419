/**
 * The primary process of `npm start`, the supervisor: it starts the embedded database when no DATABASE_URL is
 * given, has the database set up (handlers/server/setup.ts, a process of its own), then keeps the HTTP workers
 * and the job engine's process running (handlers/server/supervisor.ts) and prints the start-up lines once the
 * workers listen.
 *
 * It runs nothing a request or a job can grow, and loads only what supervising takes: no Koa, no spec, no
 * database driver (unless it runs the embedded database), no job engine. Its memory stays small and steady, and
 * it outlives every process it restarts.
 */
import { fork } from 'node:child_process';
import { createServer } from 'node:net';
import type { Logger } from 'pino';
import type { EmbeddedPostgres } from '../../db/pg/embedded.js';
import { defaultHostId, type Config } from './config.js';
import { createLogger } from './logger.js';
import type { SetupReport } from './setup.js';
import { Supervisor } from './supervisor.js';

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

/** Runs handlers/server/setup.ts on the database and resolves with its report. */
function runSetup(databaseUrl: string): Promise<SetupReport> {
  return new Promise((resolve, reject) => {
    const child = fork(new URL('./setup.js', import.meta.url), [], { env: { ...process.env, DATABASE_URL: databaseUrl } });
    let report: SetupReport | null = null;
    child.on('message', (message: unknown) => {
      if (typeof message === 'object' && message !== null && (message as { hedgerow?: unknown }).hedgerow === 'setup') report = message as SetupReport;
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (report && code === 0) resolve(report);
      else reject(new Error(`the database setup failed (exit code ${code}, signal ${signal}); its error is above`));
    });
  });
}

async function startDatabase(config: Config, logger: Logger): Promise<{ databaseUrl: string; embedded: EmbeddedPostgres | null }> {
  if (config.databaseUrl) return { databaseUrl: config.databaseUrl, embedded: null };
  const { startEmbeddedPostgres } = await import('../../db/pg/embedded.js');
  const embedded = await startEmbeddedPostgres({ dataDir: config.dataDir });
  logger.info({ dataDir: embedded.dataDir, port: embedded.port }, 'embedded PostgreSQL started');
  return { databaseUrl: embedded.url, embedded };
}

export async function runPrimary(config: Config): Promise<void> {
  const logger = createLogger(config);
  const { databaseUrl, embedded } = await startDatabase(config, logger);
  let setup: SetupReport;
  try {
    setup = await runSetup(databaseUrl);
  } catch (error) {
    await embedded?.stop();
    throw error;
  }
  const { plan, firstRun } = setup;
  logger.info({ workers: plan.count, reason: plan.reason }, `starting ${plan.count} worker(s): ${plan.reason}`);

  const port = config.port === 0 ? await freePort(config.host) : config.port;
  const supervisor = new Supervisor({
    count: plan.count,
    workerEnv: {
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      // With PORT=0 the workers learn the port chosen here, and all of them go by the same name.
      HEDGEROW_HOST_ID: process.env.HEDGEROW_HOST_ID || defaultHostId(port),
      // Capture's memory budget and its large payloads at once are the whole server's: each worker holds its share.
      HEDGEROW_CAPTURE_MEMORY_MB: String(Math.max(1, Math.floor(config.captureMemoryBytes / (1024 * 1024) / plan.count))),
      HEDGEROW_WORKERS: String(plan.count),
    },
    jobs: config.jobs ? { module: new URL('./jobs-process.js', import.meta.url), env: { DATABASE_URL: databaseUrl } } : null,
    logger,
  });

  let stopping = false;
  async function shutdown(signal: string, code: number): Promise<void> {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    // Each worker commits (or refuses) the captures it accepted; the job engine hands its runs in flight back
    // for the next start (or another engine) to finish.
    await supervisor.stop();
    await embedded?.stop();
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
