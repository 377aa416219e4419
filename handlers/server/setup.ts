/**
 * The database's setup for `npm start`, in a short-lived process the supervisor forks before any worker: it
 * migrates, creates a first organization on an empty database, plans the workers from the database's free
 * sessions, reports to the supervisor and exits. Done here rather than in the supervisor, whose memory would
 * otherwise keep the database driver, Knex and every migration for the life of the server.
 */
import { availableParallelism } from 'node:os';
import { parseAllowlist } from '../../db/destinations/address-policy.js';
import { DB_POOL_MAX, READ_DB_POOL_MAX } from '../../db/pg/client.js';
import { withSchemaLock } from '../../db/pg/migrate.js';
import { bootstrap, hasAnyOrganization, type BootstrapResult } from '../../db/queries/bootstrap.js';
import { readConnectionBudget } from '../../db/queries/connection-budget.js';
import { engineSessions } from '../jobs/index.js';
import { readConfig } from './config.js';
import { createLogger, nameDatabaseSessions } from './logger.js';
import { openRuntime } from './runtime.js';
import { planWorkers, type WorkerPlan } from './supervisor.js';

/** Sessions one worker may hold: its pool, its read-only pool and the access cache's listening session. */
const SESSIONS_PER_WORKER = DB_POOL_MAX + READ_DB_POOL_MAX + 1;

/** What the setup process tells the supervisor before it exits. */
export interface SetupReport {
  hedgerow: 'setup';
  plan: WorkerPlan;
  /** Set when this start created the first organization (its keys are printed once). */
  firstRun: BootstrapResult | null;
}

const config = readConfig();
// A mistyped allowlist entry stops the start here, before any worker, rather than refusing a destination later.
parseAllowlist(config.destinationAllowlist);
nameDatabaseSessions('setup');
const runtime = await openRuntime(config, createLogger(config));
try {
  const { db } = runtime;
  // Hosts started at once on an empty database take turns: the first makes the first organization, the others find it.
  const firstRun = await withSchemaLock(db, async (): Promise<BootstrapResult | null> => {
    if (await hasAnyOrganization(db)) return null;
    return bootstrap(db, {
      email: process.env.HEDGEROW_ADMIN_EMAIL || 'admin@hedgerow.local',
      organizationName: 'Default organization',
      projectName: 'Default project',
    });
  });
  const budget = await readConnectionBudget(db);
  // The job engine's process comes first: the HTTP workers share what is left.
  if (config.jobs) budget.used += engineSessions(config.exportConcurrency);
  const plan = planWorkers({ requested: config.workers, cpus: availableParallelism(), budget, perWorker: SESSIONS_PER_WORKER });
  const report: SetupReport = { hedgerow: 'setup', plan, firstRun };
  await new Promise<void>((resolve, reject) => process.send!(report, (error: Error | null) => (error ? reject(error) : resolve())));
} finally {
  await runtime.close();
}
process.disconnect();
