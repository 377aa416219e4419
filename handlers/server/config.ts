/**
 * Configuration, read once from environment variables. Each has a default, listed in the README.
 */
import { hostname } from 'node:os';
import { DEFAULT_RESULT_MAX_BYTES, MAX_QUERY_SLOTS } from '../../db/core/query-limits.js';

export interface Config {
  /** TCP port for the API and the capture endpoints. */
  port: number;
  /** Address to listen on. */
  host: string;
  /**
   * The name this server goes by in `/_health` and `/_metrics` (HEDGEROW_HOST_ID), so that behind a load balancer
   * each answer says which host gave it; by default the machine's name and the port.
   */
  hostId: string;
  /** External PostgreSQL; when unset the embedded one of db/pg/embedded.ts is started. */
  databaseUrl: string | undefined;
  /** Where the embedded PostgreSQL keeps its data. */
  dataDir: string;
  /** pino level: fatal, error, warn, info, debug, trace or silent. */
  logLevel: string;
  /** Requests a personal API key may make per minute; 0 turns the limit off. */
  rateLimitPerMinute: number;
  /** Reported in organizations' `metadata` as the instance tag. */
  instanceTag: string;
  /** Capture's group commit writes at most this many events (and warnings) per transaction. */
  captureBatchEvents: number;
  /**
   * Bytes that capture requests in flight may hold at once (bodies, what they decode to, and what their events
   * take while they are read and stored), across all of them; what does not fit waits, then is answered 503.
   */
  captureMemoryBytes: number;
  /** Longest a capture request waits for room in that budget before its 503. */
  captureBudgetWaitMs: number;
  /** Worker processes `npm start` runs (HEDGEROW_WORKERS); undefined: one per CPU, as the database allows. */
  workers: number | undefined;
  /** Longest a query over stored events (the event listing) may run before it is cancelled, in milliseconds. */
  queryTimeoutMs: number;
  /** Bytes of rows one query's answer may hold (synchronous or asynchronous); a larger one is refused with a 400. */
  queryResultMaxBytes: number;
  /**
   * Queries of the query endpoint one environment may run at once, synchronously, across all processes (at most
   * 256); past it a 429. 0: no limit.
   */
  queryConcurrencyPerEnvironment: number;
  /** Asynchronous queries one environment may have queued or running at once; past it a 429. 0: no limit. */
  asyncQueriesPerEnvironment: number;
  /** Synchronous queries one user (a key's) may run at once across all of its environments; 0: no limit. */
  queryConcurrencyPerUser: number;
  /** Asynchronous queries one user may have queued or running at once across all of its environments; 0: no limit. */
  asyncQueriesPerUser: number;
  /**
   * Bytes of answers (the query endpoint's, stored statuses', the event listing's) one process may hold at once,
   * from when one starts being built until it has been sent; past it a 503.
   */
  answerMemoryBytes: number;
  /** Bytes of those one user may hold at once in a process; past it a 429. */
  answerMemoryPerUserBytes: number;
  /** Longest a built answer's connection may go without the client reading any of it before it is closed, in milliseconds. */
  answerWriteTimeoutMs: number;
  /** Longest wait to open a database connection or to be lent one by a pool, in milliseconds. */
  dbConnectTimeoutMs: number;
  /** Longest any other statement (the API's, capture's) may run before PostgreSQL cancels it, in milliseconds. */
  dbStatementTimeoutMs: number;
  /** Longest a captured request waits for its events' commit (in the queue, for a connection, the transaction) before it answers 503. */
  captureCommitTimeoutMs: number;
  /** Longest `/_readiness` waits for the database before answering 503, in milliseconds. */
  readinessTimeoutMs: number;
  /** Whether `npm start` runs the batch export engine beside the API (HEDGEROW_JOBS=off: only `npm run worker` does). */
  jobs: boolean;
  /** Batch export runs one engine works on at once. */
  exportConcurrency: number;
  /** A running export whose heartbeat is older than this is taken over by another worker, in milliseconds. */
  exportLeaseMs: number;
  /** Test-only: the engine also ticks on a timer of this period (0: once a minute and on changes). */
  exportTickIntervalMs: number;
  /** Test-only: the engine's clock runs this far ahead of (or behind) the system clock. */
  clockOffsetMs: number;
  /** Test-only: the NoOp destination takes this long before it completes a run. */
  noopDelayMs: number;
  /**
   * Host names, addresses and CIDR ranges that batch export destinations may reach besides public addresses
   * (HEDGEROW_DESTINATION_ALLOWLIST, comma-separated; empty by default): an internal warehouse, or tests.
   */
  destinationAllowlist: readonly string[];
}

const MIB = 1024 * 1024;

function integer(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

function signedInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value)) throw new Error(`${name} must be an integer, got "${raw}"`);
  return value;
}

function onOff(name: string, fallback: boolean): boolean {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'on') return true;
  if (raw === 'off') return false;
  throw new Error(`${name} must be "on" or "off", got "${raw}"`);
}

function positiveIntegerOrUnset(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

/** Runs one engine may work on at once; each holds a database session for its whole length. */
export const MAX_EXPORT_CONCURRENCY = 32;

function exportConcurrency(): number {
  const value = Math.max(1, integer('HEDGEROW_EXPORT_CONCURRENCY', 2));
  if (value > MAX_EXPORT_CONCURRENCY) throw new Error(`HEDGEROW_EXPORT_CONCURRENCY must be at most ${MAX_EXPORT_CONCURRENCY}, got "${value}"`);
  return value;
}

function destinationAllowlist(): string[] {
  const entries = (process.env.HEDGEROW_DESTINATION_ALLOWLIST ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  // The entries are parsed where destinations are checked; the start-up process (setup.ts) parses them first, so
  // that a mistyped entry stops the server instead of refusing a destination later.
  return entries;
}

function querySlots(name: string): number {
  const value = integer(name, 3);
  if (value > MAX_QUERY_SLOTS) throw new Error(`${name} must be at most ${MAX_QUERY_SLOTS}, got "${value}"`);
  return value;
}

/**
 * Answers held at once: a JSON answer costs a process a few times its size while it is built and sent, so the
 * default leaves a worker, with what it holds idle, well under 512 MB. A user may hold half.
 */
function answerMemory(): Pick<Config, 'answerMemoryBytes' | 'answerMemoryPerUserBytes' | 'answerWriteTimeoutMs'> {
  const processMb = Math.max(1, integer('HEDGEROW_ANSWER_MEMORY_MB', 96));
  const userMb = Math.max(1, integer('HEDGEROW_ANSWER_MEMORY_PER_USER_MB', Math.ceil(processMb / 2)));
  return {
    answerMemoryBytes: processMb * MIB,
    answerMemoryPerUserBytes: Math.min(userMb, processMb) * MIB,
    answerWriteTimeoutMs: integer('HEDGEROW_ANSWER_WRITE_TIMEOUT_MS', 30_000),
  };
}

/** The machine's name and the port: what tells apart the servers of one machine, and of several. */
export function defaultHostId(port: number): string {
  return `${hostname()}:${port}`;
}

export function readConfig(): Config {
  return {
    port: integer('PORT', 8000),
    host: process.env.HOST || '0.0.0.0',
    hostId: process.env.HEDGEROW_HOST_ID || defaultHostId(integer('PORT', 8000)),
    databaseUrl: process.env.DATABASE_URL || undefined,
    dataDir: process.env.HEDGEROW_DATA_DIR || '.hedgerow-data',
    logLevel: process.env.LOG_LEVEL || 'info',
    rateLimitPerMinute: integer('HEDGEROW_RATE_LIMIT_PER_MINUTE', 480),
    instanceTag: process.env.HEDGEROW_INSTANCE_TAG || 'hedgerow',
    captureBatchEvents: Math.max(1, integer('HEDGEROW_CAPTURE_BATCH_EVENTS', 10_000)),
    queryTimeoutMs: integer('HEDGEROW_QUERY_TIMEOUT_MS', 15_000),
    queryResultMaxBytes: Math.max(1, integer('HEDGEROW_QUERY_RESULT_MAX_MB', DEFAULT_RESULT_MAX_BYTES / MIB)) * MIB,
    queryConcurrencyPerEnvironment: querySlots('HEDGEROW_QUERY_CONCURRENCY_PER_ENVIRONMENT'),
    asyncQueriesPerEnvironment: integer('HEDGEROW_ASYNC_QUERIES_PER_ENVIRONMENT', 10),
    queryConcurrencyPerUser: querySlots('HEDGEROW_QUERY_CONCURRENCY_PER_USER'),
    asyncQueriesPerUser: integer('HEDGEROW_ASYNC_QUERIES_PER_USER', 10),
    ...answerMemory(),
    captureMemoryBytes: Math.max(1, integer('HEDGEROW_CAPTURE_MEMORY_MB', 192)) * 1024 * 1024,
    captureBudgetWaitMs: integer('HEDGEROW_CAPTURE_BUDGET_WAIT_MS', 3_000),
    dbConnectTimeoutMs: Math.max(1, integer('HEDGEROW_DB_CONNECT_TIMEOUT_MS', 5_000)),
    dbStatementTimeoutMs: Math.max(1, integer('HEDGEROW_DB_STATEMENT_TIMEOUT_MS', 30_000)),
    captureCommitTimeoutMs: Math.max(1, integer('HEDGEROW_CAPTURE_COMMIT_TIMEOUT_MS', 5_000)),
    readinessTimeoutMs: Math.max(1, integer('HEDGEROW_READINESS_TIMEOUT_MS', 2_000)),
    workers: positiveIntegerOrUnset('HEDGEROW_WORKERS'),
    jobs: onOff('HEDGEROW_JOBS', true),
    exportConcurrency: exportConcurrency(),
    exportLeaseMs: Math.max(1_000, integer('HEDGEROW_EXPORT_LEASE_MS', 300_000)),
    exportTickIntervalMs: integer('HEDGEROW_EXPORT_TICK_INTERVAL_MS', 0),
    clockOffsetMs: signedInteger('HEDGEROW_CLOCK_OFFSET_MS', 0),
    noopDelayMs: integer('HEDGEROW_NOOP_DELAY_MS', 0),
    destinationAllowlist: destinationAllowlist(),
  };
}
