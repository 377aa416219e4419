/**
 * How a process runs the engine: its own pool on the app's database (the engine's waits and runs never hold the
 * API's sessions), the clock, the destinations, and a stop that hands back the run in flight.
 */
import type { Logger } from 'pino';
import { AddressPolicy } from '../../db/destinations/address-policy.js';
import { createDb, type Db } from '../../db/pg/client.js';
import { DEFAULT_RESULT_MAX_BYTES } from '../../db/queries/query/execute.js';
import { offsetClock } from './clock.js';
import { defaultDestinations } from './destinations/index.js';
import { Engine } from './engine.js';
import { ASYNC_QUERY_CONCURRENCY, QueryRunner } from './query-jobs.js';

export interface EngineSettings {
  databaseUrl: string;
  concurrency: number;
  leaseMs: number;
  tickIntervalMs: number;
  clockOffsetMs: number;
  noopDelayMs: number;
  connectTimeoutMs: number;
  statementTimeoutMs: number;
  /** Asynchronous queries' statement timeout. */
  queryTimeoutMs: number;
  /** Asynchronous queries' answer budget (DEFAULT_RESULT_MAX_BYTES when not given). */
  queryResultMaxBytes?: number;
  /** How often the statuses of running queries are renewed and expired ones deleted (tests shorten it). */
  queryMaintenanceEveryMs?: number;
  /** What destinations may reach besides public addresses (db/destinations/address-policy.ts); none when not given. */
  destinationAllowlist?: readonly string[];
}

/**
 * The engine's pool: a session for each run in flight (an S3 or HTTP run holds one for its cursor's transaction
 * from start to end), a few more for the tick, heartbeats and finishes, which must never queue behind runs, and
 * one for the status writes of each asynchronous query the process runs at once.
 */
export function enginePoolSize(concurrency: number): number {
  return Math.max(1, concurrency) + 3 + ASYNC_QUERY_CONCURRENCY;
}

/**
 * Sessions the engine of one process may open: its pool, pg-boss's pool, the listening session and the read-only
 * sessions of its asynchronous queries.
 */
export function engineSessions(concurrency: number): number {
  return enginePoolSize(concurrency) + 4 + 1 + ASYNC_QUERY_CONCURRENCY;
}

export interface RunningEngine {
  engine: Engine;
  /** The engine's own pool. */
  db: Db;
  stop(): Promise<void>;
}

export async function startEngine(settings: EngineSettings, logger: Logger): Promise<RunningEngine> {
  const db = createDb(settings.databaseUrl, {
    poolMax: enginePoolSize(settings.concurrency),
    deadlines: { connectTimeoutMs: settings.connectTimeoutMs, statementTimeoutMs: settings.statementTimeoutMs },
  });
  const queryRunner = new QueryRunner({
    db,
    logger: logger.child({ room: 'queries' }),
    timeoutMs: settings.queryTimeoutMs,
    maxResultBytes: settings.queryResultMaxBytes ?? DEFAULT_RESULT_MAX_BYTES,
    ...(settings.queryMaintenanceEveryMs !== undefined ? { maintenanceEveryMs: settings.queryMaintenanceEveryMs } : {}),
  });
  const engine = new Engine({
    db,
    logger: logger.child({ room: 'batch-exports' }),
    clock: offsetClock(settings.clockOffsetMs),
    databaseClockShiftMs: settings.clockOffsetMs,
    destinations: defaultDestinations({ noopDelayMs: settings.noopDelayMs }),
    addresses: new AddressPolicy({ allowlist: settings.destinationAllowlist ?? [] }),
    concurrency: settings.concurrency,
    leaseMs: settings.leaseMs,
    tickIntervalMs: settings.tickIntervalMs,
    pollingIntervalSeconds: settings.tickIntervalMs > 0 ? 0.5 : 2,
    queryRunner,
  });
  try {
    await engine.start();
  } catch (error) {
    await engine.stop().catch(() => undefined);
    await queryRunner.close();
    await db.destroy();
    throw error;
  }
  return {
    engine,
    db,
    async stop() {
      await engine.stop();
      await queryRunner.close();
      await db.destroy();
    },
  };
}
