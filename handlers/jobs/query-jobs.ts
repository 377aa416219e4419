/**
 * Asynchronous query runs on the job queue of the batch export engine (one pg-boss, one schema): the API side
 * enqueues and dequeues a run's job inside its own transactions (QueryJobs); every engine process runs the jobs
 * (QueryRunner), so a query submitted to one process may run in another. The statuses are in
 * db/queries/query/status.ts.
 *
 * A query job is never retried by pg-boss: a run whose process stops is started over with a new job instead
 * (db/queries/query/status.ts), handed over by a process that stops on purpose, taken over when a process that
 * died is found out (when its runs' statuses are read, and by every engine's upkeep).
 */
import { RunShares } from './shares.js';
import type { Knex } from 'knex';
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import { ApiError, errors } from '../../db/core/errors.js';
import { createReadDb, type Db, type ReadDb } from '../../db/pg/client.js';
import { jobExecutorOf } from '../../db/queries/batch-exports/runs.js';
import { runQueryNode, type QueryKindNode } from '../../db/queries/query/run.js';
import {
  cancelRunnerStatement,
  deleteExpiredQueryStatuses,
  finishQuery,
  forgetRunnerSession,
  handOverQuery,
  pickUpQuery,
  recordRunnerSession,
  renewRunningQueries,
  RUNNER_SESSION_SQL,
  takeOverStoppedRuns,
  type DequeueQuery,
  deferQueryJob,
  type EnqueueQuery,
  type QueryJobQueue,
  type QueryQueue,
  type RunningQuery,
} from '../../db/queries/query/status.js';

export const QUERY_QUEUE = 'query-run';
export const JOB_SCHEMA = 'pgboss';
/** Where the runs' jobs are, for the SQL that reads them. */
const QUERY_JOBS: QueryQueue = { schema: JOB_SCHEMA, name: QUERY_QUEUE };

/**
 * Queries one engine process runs at once (each on a read-only session of its own); one environment, and one
 * user across all of its environments, runs at most all of them but one (runsPerEnvironment), so another
 * user's query always finds a runner.
 */
export const ASYNC_QUERY_CONCURRENCY = 3;

/**
 * How long the job of an environment or user already running its share waits before it can be fetched again: a
 * runner that fetched it puts it back and looks for another's. The runners of other processes are woken just
 * after (onPutBack): polling on their own beat, they could poll just after the runner that put it back each
 * time, which then always fetched it first, and the job waited for a slot in that process only.
 */
const DEFER_MS = 1_000;
/** How long after the job comes back the other processes' runners look for it: the clocks' and the wake-up's slack. */
const PUT_BACK_WAKE_SLACK_MS = 100;

/**
 * How often an engine renews the statuses of the queries it runs, takes over the runs of processes that died and
 * deletes expired statuses: well within a status's 20 minutes, so that a query running longer keeps its status.
 */
const MAINTENANCE_EVERY_MS = 60_000;

/**
 * How often PostgreSQL checks that the runner of a statement is still connected: a runner killed mid-statement
 * has its statement cancelled and its session ended within this, and its run can then be taken over.
 */
const CLIENT_CHECK_MS = 1_000;

/**
 * The job finds its status by its own id (task_id); the environment and the user who submitted it are there for
 * the runners' shares. Jobs written before users were recorded have no userId.
 */
interface QueryJobData {
  teamId: number;
  userId?: number | null;
}

/**
 * pg-boss's expiry of an active query job: past the query timeout by a margin. It matters only for a runner that
 * died after taking its job and before its statement started: the expired job is what shows its status as failed.
 */
function jobExpirySeconds(timeoutMs: number): number {
  return Math.ceil(timeoutMs / 1000) + 60;
}

/**
 * The API's side of the queue: a pg-boss that is never started (no pool, no maintenance of its own), used only to
 * write and cancel jobs inside the API's transactions, with pg-boss's own SQL.
 */
export class QueryJobs implements QueryJobQueue {
  readonly queue = QUERY_JOBS;
  private readonly boss: PgBoss;

  constructor(private readonly timeoutMs: number) {
    this.boss = new PgBoss({
      schema: JOB_SCHEMA,
      db: {
        executeSql: () => Promise.reject(new Error('query jobs are only written inside a transaction')),
      },
    });
  }

  enqueue: EnqueueQuery = async (trx, job) => {
    let created: string | null;
    try {
      created = await this.boss.send(QUERY_QUEUE, { teamId: job.teamId, userId: job.userId } satisfies QueryJobData, {
        id: job.jobId,
        db: jobExecutorOf(trx),
        priority: job.priority,
        retryLimit: 0,
        expireInSeconds: jobExpirySeconds(this.timeoutMs),
      });
    } catch (error) {
      // No engine has ever started on this database: the job queue's tables do not exist yet.
      if ((error as { code?: unknown }).code === '42P01') throw noRunner();
      throw error;
    }
    // pg-boss makes no job for a queue that does not exist (no engine has started since it was added).
    if (created === null) throw noRunner();
  };

  dequeue: DequeueQuery = async (trx: Knex.Transaction, jobId: string) => {
    await this.boss.cancel(QUERY_QUEUE, jobId, { db: jobExecutorOf(trx) });
  };
}

function noRunner(): ApiError {
  return errors.unavailable('Asynchronous queries are run by the job engine, and none has started on this database yet.', 30);
}

export interface QueryRunnerOptions {
  /** The engine's pool: statuses are written with it. */
  db: Db;
  logger: Logger;
  timeoutMs: number;
  /** Bytes of rows an answer may hold; a larger result fails the run (db/queries/query/execute.ts). */
  maxResultBytes: number;
  concurrency?: number;
  /** How often the statuses in flight are renewed and the expired ones deleted (MAINTENANCE_EVERY_MS). */
  maintenanceEveryMs?: number;
}

interface Flight {
  run: RunningQuery;
  session: { pid: number; backendStart: string } | null;
}

/** The run was cancelled or started over before its statement began: nothing more to do. */
class RunTakenAway extends Error {}

/** An engine's runner of query jobs, on the engine's pg-boss. */
export class QueryRunner {
  private readonly reader: ReadDb;
  /** Names this runner's jobs put back on the engines' channel, so that it does not wake itself. */
  private readonly id = crypto.randomUUID();
  /** Writes the new jobs of runs handed over or taken over. */
  private readonly jobs: QueryJobs;
  private readonly workerIds: string[] = [];
  private readonly inFlight = new Set<Flight>();
  /** The runs in flight of each environment and each user (those of its jobs this process took and has not finished). */
  private readonly shares = new RunShares(() => this.runsPerEnvironment);
  private maintenanceTimer: NodeJS.Timeout | null = null;
  private stopping = false;
  private boss: PgBoss | null = null;

  constructor(private readonly options: QueryRunnerOptions) {
    this.jobs = new QueryJobs(options.timeoutMs);
    this.reader = createReadDb(options.db, options.timeoutMs, {
      poolMax: this.concurrency,
      checkClientEveryMs: CLIENT_CHECK_MS,
    });
  }

  get concurrency(): number {
    return Math.max(1, this.options.concurrency ?? ASYNC_QUERY_CONCURRENCY);
  }

  /** Queries of one environment, or of one user, this process runs at most at once: all of its runners but one. */
  get runsPerEnvironment(): number {
    return Math.max(1, this.concurrency - 1);
  }

  async start(boss: PgBoss): Promise<void> {
    this.boss = boss;
    await boss.createQueue(QUERY_QUEUE);
    // A submission wakes the workers at once (wake()); the polling only catches a missed wake-up.
    const polling = { pollingIntervalSeconds: 2, includeMetadata: true as const };
    for (let n = 0; n < this.concurrency; n += 1) {
      this.workerIds.push(await boss.work<QueryJobData>(QUERY_QUEUE, polling, ([job]) => this.run(job!)));
    }
    this.maintenanceTimer = setInterval(() => void this.maintain(), this.options.maintenanceEveryMs ?? MAINTENANCE_EVERY_MS);
    this.maintenanceTimer.unref();
    await this.maintain();
  }

  /** A query was submitted: idle workers look for it now. */
  wake(): void {
    for (const id of this.workerIds) this.boss?.notifyWorker(id);
  }

  /** A runner put a job back (its payload's tail): unless it was this one, look for the job as it comes back. */
  onPutBack(runnerId: string): void {
    if (runnerId === this.id || this.stopping) return;
    setTimeout(() => this.wake(), DEFER_MS + PUT_BACK_WAKE_SLACK_MS).unref();
  }

  /**
   * Cancels the statements in flight; their runs are handed over to the queue, for another process (or this one
   * once started again) to run. pg-boss's own stop (the engine's) then waits for their handlers, which end at once.
   */
  async beginStop(): Promise<void> {
    this.stopping = true;
    if (this.maintenanceTimer) clearInterval(this.maintenanceTimer);
    await Promise.all(
      [...this.inFlight].map(async (flight) => {
        if (!flight.session) return;
        await cancelRunnerStatement(this.options.db, { runner_pid: flight.session.pid, runner_backend_start: flight.session.backendStart }).catch(() => undefined);
      }),
    );
  }

  async close(): Promise<void> {
    await this.reader.destroy();
  }

  private async maintain(): Promise<void> {
    try {
      // Renewed first: a status about to expire while its query runs is never deleted.
      await renewRunningQueries(this.options.db, [...this.inFlight].map((flight) => flight.run));
    } catch (error) {
      this.options.logger.warn({ err: error }, 'could not renew the statuses of running queries');
    }
    try {
      await takeOverStoppedRuns(this.options.db, 'everyone', null, this.jobs);
    } catch (error) {
      this.options.logger.warn({ err: error }, 'could not take over the runs of stopped processes');
    }
    try {
      await deleteExpiredQueryStatuses(this.options.db);
    } catch (error) {
      this.options.logger.warn({ err: error }, 'could not delete expired query statuses');
    }
  }

  /**
   * A job of the queue: run, unless its environment or its user already runs its share here; then it goes back
   * to the queue, its place kept, for the runners of other processes first, and this runner looks for another's
   * (it is woken by the next submission, or polls). Counted and checked at once, before any wait: the runners of
   * a process never pass a share together.
   */
  private async run(job: PgBoss.JobWithMetadata<QueryJobData>): Promise<void> {
    const { teamId, userId } = job.data;
    const ran = await this.shares.within(RunShares.holdersOf(teamId, userId), () => this.runJob(job));
    if (!ran) await deferQueryJob(this.options.db, this.jobs.queue, job.id, DEFER_MS, this.id);
  }

  private async runJob(job: PgBoss.JobWithMetadata<QueryJobData>): Promise<void> {
    const { db, logger, timeoutMs, maxResultBytes } = this.options;
    const picked = await pickUpQuery(db, job.data.teamId, job.id);
    if (!picked) return;
    const { teamId, id: queryId, environment } = picked;
    const flight: Flight = { run: { teamId, id: queryId, jobId: job.id }, session: null };
    this.inFlight.add(flight);
    try {
      // The node as the submit's validation let it through (a HogQLQuery or an EventsQuery).
      const node = picked.query as QueryKindNode;
      const result = await runQueryNode(this.reader, environment, node, { timeoutMs, maxResultBytes }, {
        onStart: async (read) => {
          const [session] = (await read<{ pid: number; backend_start: string }>(RUNNER_SESSION_SQL, [])).rows;
          const recorded = { pid: session!.pid, backendStart: session!.backend_start };
          if (this.stopping || !(await recordRunnerSession(db, teamId, queryId, job.id, recorded))) throw new RunTakenAway();
          flight.session = recorded;
          // A stop that began while the session was being recorded did not see it: this run stops here.
          if (this.stopping) throw new RunTakenAway();
        },
        onEnd: async () => {
          if (!flight.session) return;
          flight.session = null;
          await forgetRunnerSession(db, teamId, queryId, job.id);
        },
      });
      // As the synchronous answer: the response of the query, its status null inside it.
      await finishQuery(db, teamId, queryId, job.id, { results: { ...result, query_status: null } });
    } catch (error) {
      if (error instanceof RunTakenAway && !this.stopping) return;
      if (this.stopping) {
        await handOverQuery(db, flight.run, this.jobs);
        return;
      }
      // What the API would answer is safe to show (a cancelled statement's message is never stored: the cancel
      // completed the status first); anything else is logged and shown as an error without a message, as PostHog.
      if (error instanceof ApiError) {
        await finishQuery(db, teamId, queryId, job.id, { errorMessage: error.message });
        return;
      }
      logger.error({ err: error, teamId, queryId }, 'asynchronous query failed');
      await finishQuery(db, teamId, queryId, job.id, { errorMessage: null });
    } finally {
      this.inFlight.delete(flight);
    }
  }
}
