/**
 * The batch export engine: it makes runs due from the export rows (the tick), runs them (the run worker), moves
 * backfills on one window at a time, takes over the runs of dead workers and pauses exports that keep failing.
 * handlers/jobs/README.md tells how the pieces fit; the SQL is in db/queries/batch-exports/runs.ts.
 */
import { RunShares } from './shares.js';
import type { Knex } from 'knex';
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import { AddressPolicy, DestinationAddressError } from '../../db/destinations/address-policy.js';
import { connectionStringOf, type Db } from '../../db/pg/client.js';
import {
  FINAL_STATUSES,
  type BatchExportBackfillRow,
  type BatchExportInterval,
  type BatchExportRow,
  type RunStatus,
} from '../../db/queries/batch-exports/rows.js';
import {
  activeBackfills,
  backfillRunStatuses,
  everyBackfillRunFailed,
  beat,
  claimRun,
  createScheduledRuns,
  deferRunJob,
  finishBackfill,
  finishRun,
  checkStraddlingTransactions,
  jobExecutorOf,
  latestScheduledRunEnd,
  listenForEngine,
  markBackfillRunning,
  recordBackfillProgress,
  recordRunTotal,
  pauseIfFailing,
  releaseRun,
  requeueOrphanedRuns,
  requeueStaleRuns,
  runEndsSince,
  runTenant,
  runStatus,
  schedulableExports,
  startBackfillRun,
  unpauseExport,
  withBackfillLocked,
  type BackfillKey,
  type ClaimedRun,
  type RunKey,
  type RunProgress,
} from '../../db/queries/batch-exports/runs.js';
import { countExportRecords } from '../../db/queries/batch-exports/records.js';
import { InvalidExportSettingsError } from '../../db/queries/batch-exports/records-query.js';
import { QUERY_PUT_BACK, QUERY_SUBMITTED } from '../../db/queries/query/status.js';
import { systemClock, type Clock } from './clock.js';
import { defaultDestinations, type DestinationRegistry } from './destinations/index.js';
import { NonRetryableExportError } from './destinations/types.js';
import { latestErrorOf } from './latest-error.js';
import type { QueryRunner } from './query-jobs.js';
import { backfillWindows, floorToInterval, intervalEndsBetween, intervalStart, isKnownTimezone, type ExportSchedule, type Window } from './schedule.js';

export const RUN_QUEUE = 'batch-export-run';
export const TICK_QUEUE = 'batch-export-tick';

/** A run job's data: its run, and the run's environment (absent from jobs enqueued before jobs named it). */
interface RunJobData {
  runId: string;
  teamId?: number;
}

/** Backfill windows one advance builds at a time. */
const BACKFILL_WINDOW_PAGE = 100;

/**
 * How long the job of a run whose environment already holds its share of this engine's slots waits before it
 * can be fetched again: the worker that fetched it puts it back and looks for another.
 */
const DEFER_MS = 1_000;

/** PostHog pauses an export when this many of its recent runs failed. */
export const FAILURE_THRESHOLD = 10;

/**
 * How many recent runs auto-pause looks at: PostHog's newest windows (a day of hourly runs, a week of daily
 * runs, four weeks, an hour of N-minute runs), but never fewer than the threshold, which a smaller window could
 * never reach.
 */
export function failureWindow(interval: BatchExportInterval): number {
  const posthog: Record<BatchExportInterval, number> = { hour: 24, day: 7, week: 4, 'every 5 minutes': 12, 'every 15 minutes': 4 };
  return Math.max(FAILURE_THRESHOLD, posthog[interval]);
}

export interface RetryPolicy {
  /** Retries after the first attempt before a run ends FailedRetryable. */
  limit: number;
  /** Seconds before the first retry (pg-boss doubles it each time when `backoff`). */
  delaySeconds: number;
  backoff: boolean;
}

export interface EngineOptions {
  db: Db;
  logger: Logger;
  clock?: Clock;
  destinations?: DestinationRegistry;
  /** What destinations may connect to; public addresses only when not given. */
  addresses?: AddressPolicy;
  /** pg-boss's schema in the app's database. */
  schema?: string;
  /** A Running run whose heartbeat is older than this is taken over by another worker. */
  leaseMs?: number;
  /** Runs one engine works on at once. */
  concurrency?: number;
  retry?: Partial<RetryPolicy>;
  /** Most runs one tick creates for one export (catch-up after downtime continues on the next tick). */
  catchUpLimit?: number;
  /** The pg-boss cron that ticks every minute; in-process tests call tick() themselves instead. */
  cron?: boolean;
  /** Also tick on a timer of this period (0: only the cron, the notify channel and start-up). */
  tickIntervalMs?: number;
  /** How often an idle worker asks pg-boss for a job. */
  pollingIntervalSeconds?: number;
  /** How often the wait for straddling transactions looks again. */
  straddlePollMs?: number;
  /** How often a run held up by straddling transactions logs a warning naming them. */
  straddleWarnMs?: number;
  /**
   * The deliberate offset of the engine's clock from the system's (test-only): the database's clock, which the
   * straddle wait also consults, is taken to be moved by as much.
   */
  databaseClockShiftMs?: number;
  /** Runs asynchronous queries on this engine's job queue (handlers/jobs/query-jobs.ts). */
  queryRunner?: QueryRunner;
}

type AbortCause = 'cancelled' | 'shutdown';

interface InFlight {
  controller: AbortController;
  cause: AbortCause | null;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });

const scheduleOf = (row: BatchExportRow): ExportSchedule => ({
  interval: row.interval,
  timezone: isKnownTimezone(row.timezone) ? row.timezone : 'UTC',
  intervalOffset: row.interval_offset,
});

const isFinal = (status: RunStatus) => FINAL_STATUSES.includes(status);

export class Engine {
  readonly clock: Clock;
  private readonly db: Db;
  private readonly logger: Logger;
  private readonly destinations: DestinationRegistry;
  private readonly addresses: AddressPolicy;
  private readonly leaseMs: number;
  private readonly retry: RetryPolicy;
  private readonly options: EngineOptions;
  private boss: PgBoss | null = null;
  private workerIds: string[] = [];
  private listener: { close(): Promise<void> } | null = null;
  private tickTimer: NodeJS.Timeout | null = null;
  private listenRetry: NodeJS.Timeout | null = null;
  private stopping = false;
  private readonly inFlight = new Map<string, { key: RunKey; flight: InFlight }>();
  /** Runs in flight on this engine, by environment and by the user who made their export. */
  private readonly shares = new RunShares(() => this.runsPerEnvironment);
  private ticking: Promise<void> | null = null;
  private tickAgain = false;
  private readonly jobSchema: string;

  constructor(options: EngineOptions) {
    this.options = options;
    this.db = options.db;
    this.logger = options.logger;
    this.clock = options.clock ?? systemClock;
    this.destinations = options.destinations ?? defaultDestinations();
    this.addresses = options.addresses ?? new AddressPolicy();
    this.leaseMs = options.leaseMs ?? 5 * 60_000;
    this.jobSchema = options.schema ?? 'pgboss';
    this.retry = { limit: 10, delaySeconds: 10, backoff: true, ...options.retry };
  }

  get concurrency(): number {
    return Math.max(1, this.options.concurrency ?? 2);
  }

  /**
   * Runs of one environment, and of one user's exports across all of its environments, this engine works on at
   * most at once: all of its slots but one, so that a tenant whose destinations are slow cannot hold every slot
   * (a key can make more organizations, each with its environment), and another tenant's run always finds one.
   */
  get runsPerEnvironment(): number {
    return Math.max(1, this.concurrency - 1);
  }

  async start(): Promise<void> {
    const boss = new PgBoss({
      connectionString: connectionStringOf(this.db),
      schema: this.jobSchema,
      max: 4,
      schedule: this.options.cron ?? true,
      application_name: 'hedgerow batch export jobs',
    });
    boss.on('error', (error) => this.logger.error({ err: error }, 'batch export job queue error'));
    await boss.start();
    this.boss = boss;
    await boss.createQueue(RUN_QUEUE);
    await boss.createQueue(TICK_QUEUE);
    if (this.options.cron ?? true) await boss.schedule(TICK_QUEUE, '* * * * *');
    await boss.work(TICK_QUEUE, () => this.tick());
    const polling = { pollingIntervalSeconds: this.options.pollingIntervalSeconds ?? 2, includeMetadata: true as const };
    for (let n = 0; n < this.concurrency; n += 1) {
      this.workerIds.push(await boss.work<RunJobData>(RUN_QUEUE, polling, ([job]) => this.work(job!)));
    }
    await this.options.queryRunner?.start(boss);
    await this.listen();
    if (this.options.tickIntervalMs) {
      this.tickTimer = setInterval(() => void this.tick().catch((error) => this.logger.error({ err: error }, 'tick failed')), this.options.tickIntervalMs);
    }
    // The first look happens now, but a failure of it (a database slow to answer) does not stop the process from
    // starting: the next tick (every minute, and on every change) looks again.
    await this.tick().catch((error) => this.logger.error({ err: error }, 'tick failed'));
  }

  /** Stops taking jobs; a run in flight is handed back (a fresh job for it) for another worker to finish. */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    if (this.tickTimer) clearInterval(this.tickTimer);
    if (this.listenRetry) clearTimeout(this.listenRetry);
    await this.listener?.close();
    await this.options.queryRunner?.beginStop();
    const stopped = this.boss?.stop({ graceful: true, timeout: 30_000 });
    for (const { flight } of this.inFlight.values()) this.abort(flight, 'shutdown');
    await stopped;
    await this.ticking?.catch(() => undefined);
  }

  private async listen(): Promise<void> {
    if (this.stopping) return;
    try {
      this.listener = await listenForEngine(
        connectionStringOf(this.db),
        (payload) => this.onNotify(payload),
        (error) => {
          this.logger.warn({ err: error }, 'batch export wake-up channel lost; listening again');
          this.listener = null;
          this.listenRetry = setTimeout(() => void this.listen(), 1_000);
        },
      );
    } catch (error) {
      this.logger.warn({ err: error }, 'could not listen on the batch export wake-up channel; trying again');
      this.listenRetry = setTimeout(() => void this.listen(), 1_000);
    }
  }

  /**
   * Something changed: cancelled runs stop, new exports and backfills are looked at; or a query was submitted,
   * or put back by a runner.
   */
  private onNotify(payload: string): void {
    if (this.stopping) return;
    if (payload === QUERY_SUBMITTED) {
      this.options.queryRunner?.wake();
      return;
    }
    if (payload.startsWith(QUERY_PUT_BACK)) {
      this.options.queryRunner?.onPutBack(payload.slice(QUERY_PUT_BACK.length));
      return;
    }
    for (const { key, flight } of this.inFlight.values()) {
      void runStatus(this.db, key)
        .then((status) => {
          if (status !== 'Running') this.abort(flight, 'cancelled');
        })
        .catch(() => undefined);
    }
    void this.tick().catch((error) => this.logger.error({ err: error }, 'tick failed'));
  }

  private abort(flight: InFlight, cause: AbortCause): void {
    if (flight.cause) return;
    flight.cause = cause;
    flight.controller.abort(new Error(cause === 'shutdown' ? 'The worker is shutting down' : 'The run was cancelled'));
  }

  private enqueue = async (trx: Knex.Transaction, run: RunKey): Promise<void> => {
    const data: RunJobData = { runId: run.id, teamId: run.teamId };
    await this.boss!.send(
      RUN_QUEUE,
      data,
      {
        db: jobExecutorOf(trx),
        retryLimit: this.retry.limit,
        retryDelay: this.retry.delaySeconds,
        retryBackoff: this.retry.backoff,
        // The lease, not pg-boss's expiry, takes over a dead worker's run. The expiry only makes pg-boss retry a
        // job whose process died between giving its run back and failing the job; a retry that finds its run
        // still Running (a run longer than this) does nothing, the claim sees to that.
        expireInSeconds: 3600,
      },
    );
  };

  private wakeWorkers(): void {
    for (const id of this.workerIds) this.boss?.notifyWorker(id);
  }

  // ---- the tick ----------------------------------------------------------------------------------------------

  /**
   * Makes every due run and moves every backfill on. Ticks of one engine run one at a time (a request during a
   * tick runs once more after it); ticks of several engines may overlap, which the unique run key and the
   * backfill row lock make harmless.
   */
  tick(): Promise<void> {
    if (this.ticking) {
      this.tickAgain = true;
      return this.ticking;
    }
    const run = async () => {
      try {
        do {
          this.tickAgain = false;
          await this.tickOnce();
        } while (this.tickAgain && !this.stopping);
      } finally {
        this.ticking = null;
      }
    };
    this.ticking = run();
    return this.ticking;
  }

  private async tickOnce(): Promise<void> {
    if (this.stopping || !this.boss) return;
    const now = this.clock.now();
    let created = 0;
    created += (await requeueStaleRuns(this.db, new Date(now.getTime() - this.leaseMs), this.enqueue)).length;
    created += (await requeueOrphanedRuns(this.db, this.jobSchema, RUN_QUEUE, this.enqueue)).length;
    for (const row of await schedulableExports(this.db)) {
      created += await this.scheduleExport(row, now);
    }
    for (const key of await activeBackfills(this.db)) await this.advanceBackfill(key);
    if (created > 0) this.wakeWorkers();
  }

  /** Creates the runs of every interval of the export that has ended and has none, oldest first. */
  private async scheduleExport(row: BatchExportRow, now: Date): Promise<number> {
    const schedule = scheduleOf(row);
    // Intervals that end after the export was created and after its schedule last started again (schedule_from:
    // an unpause or a new grid of intervals), not before start_at, not after end_at or now.
    // The search starts at the latest scheduled run's end, if later: every interval before it has its run already.
    const latest = await latestScheduledRunEnd(this.db, row.team_id, row.id);
    const after = new Date(
      Math.max(
        row.created_at.getTime(),
        row.schedule_from ? row.schedule_from.getTime() : -Infinity,
        row.start_at ? row.start_at.getTime() - 1 : -Infinity,
        latest ? latest.getTime() : -Infinity,
      ),
    );
    const until = new Date(Math.min(now.getTime(), row.end_at ? row.end_at.getTime() : Infinity));
    if (until <= after) return 0;
    const existing = await runEndsSince(this.db, row.team_id, row.id, after);
    const limit = this.options.catchUpLimit ?? 1000;
    const missing = intervalEndsBetween(schedule, after, until, existing.size + limit)
      .filter((end) => !existing.has(end.getTime()))
      .slice(0, limit);
    const intervals = missing.map((end) => ({ start: intervalStart(schedule, end), end }));
    return (await createScheduledRuns(this.db, row.team_id, row.id, intervals, now, this.enqueue)).length;
  }

  // ---- backfills ---------------------------------------------------------------------------------------------

  /**
   * Moves a backfill on: takes a new one (Starting → Running), starts its next window once the previous one is
   * over, or ends it when every window is. Windows run strictly one after another; a failed window does not stop
   * the backfill. A backfill whose process died resumes here, skipping the windows it already finished.
   */
  async advanceBackfill(key: BackfillKey): Promise<void> {
    let started = false;
    await withBackfillLocked(this.db, key, async (trx, backfill, batchExport) => {
      const now = this.clock.now();
      if (backfill.status === 'Starting') await markBackfillRunning(trx, key, now);
      const schedule = scheduleOf(batchExport);
      // Windows up to finished_through are done, whoever holds their run now: a retry of one of their runs makes
      // a backfill of its own, which takes the run row over, and this backfill must not take it back.
      let finishedThrough = backfill.finished_through;
      const recordProgress = async () => {
        if (finishedThrough && finishedThrough !== backfill.finished_through) await recordBackfillProgress(trx, key, finishedThrough, now);
      };
      // Only the windows after finished_through, a page at a time: a backfill over years of five-minute
      // windows must not build them all on every advance while it holds the row lock.
      for (;;) {
        const windows = this.windowsAfter(schedule, backfill, finishedThrough, now, BACKFILL_WINDOW_PAGE);
        const statuses = await backfillRunStatuses(
          trx,
          key,
          windows.map((window) => window.end),
        );
        for (const window of windows) {
          const status = statuses.get(window.end.getTime());
          if (status !== undefined && isFinal(status)) {
            finishedThrough = window.end;
            continue;
          }
          await recordProgress();
          if (status !== undefined) return; // this backfill's run of the window is under way
          // A window that has not ended yet waits for a later tick: run now, it would take the interval's run row,
          // and the scheduled run (by ingestion time) that must export the interval's late events would never be made.
          if (window.end > now) return;
          const runId = await startBackfillRun(trx, { teamId: batchExport.team_id, batchExportId: batchExport.id, backfillId: backfill.id, start: window.start, end: window.end }, now, this.enqueue);
          // null: the interval's scheduled run is still in flight; the window starts when it is over.
          started = runId !== null;
          return;
        }
        if (windows.length < BACKFILL_WINDOW_PAGE) break;
      }
      await recordProgress();
      if (backfill.end_at === null) await unpauseExport(trx, batchExport.team_id, batchExport.id, now);
      const allFailed = await everyBackfillRunFailed(trx, key);
      await finishBackfill(trx, key, allFailed ? 'Failed' : 'Completed', now);
    });
    if (started) this.wakeWorkers();
  }

  /**
   * At most `limit` of the backfill's windows that end after `finishedThrough` (all of them when null), oldest
   * first. Windows are consecutive, so the grid from finished_through on is the grid from the start on. With an
   * end, windows go up to it (those not yet ended wait); without one, up to now.
   */
  private windowsAfter(schedule: ExportSchedule, backfill: BatchExportBackfillRow, finishedThrough: Date | null, now: Date, limit: number): Window[] {
    const start = backfill.adjusted_start_at ?? backfill.start_at;
    if (start === null) {
      // One window from the beginning of the data.
      const end = backfill.end_at ?? floorToInterval(schedule, now);
      return end && !(finishedThrough && finishedThrough >= end) ? [{ start: null, end }] : [];
    }
    const from = finishedThrough && finishedThrough > start ? finishedThrough : start;
    return backfillWindows(schedule, from, backfill.end_at ?? now, limit);
  }

  // ---- the run worker ----------------------------------------------------------------------------------------

  /**
   * A job of the run queue: run, unless the run's environment already holds its share of this engine's slots;
   * then the job goes back to the queue, its retries kept, and this worker looks for another. Counted and checked
   * at once after the lookup: the workers of one engine never pass the share together.
   */
  private async work(job: PgBoss.JobWithMetadata<RunJobData>): Promise<void> {
    const tenant = await runTenant(this.db, job.data.runId, job.data.teamId);
    // A run that is gone: there is nothing to claim.
    if (tenant === null) return;
    const key: RunKey = { teamId: tenant.teamId, id: job.data.runId };
    const ran = await this.shares.within(RunShares.holdersOf(tenant.teamId, tenant.createdBy), () => this.workOn(job, key));
    if (!ran) await deferRunJob(this.db, this.jobSchema, RUN_QUEUE, job.id, DEFER_MS);
  }

  private async workOn(job: PgBoss.JobWithMetadata<RunJobData>, key: RunKey): Promise<void> {
    const claimed = await claimRun(this.db, key, job.id, this.clock.now());
    // Over, cancelled, or held by a live worker: this job has nothing to do.
    if (!claimed) return;
    const flight: InFlight = { controller: new AbortController(), cause: null };
    this.inFlight.set(claimed.run.id, { key, flight });
    if (this.stopping) this.abort(flight, 'shutdown');
    const heartbeat = setInterval(() => void this.beat(claimed, job.id, flight), Math.max(50, Math.floor(this.leaseMs / 3)));
    let outcome: 'final' | 'retry' = 'final';
    try {
      outcome = await this.execute(claimed, job, flight);
    } finally {
      clearInterval(heartbeat);
      this.inFlight.delete(claimed.run.id);
    }
    if (outcome === 'final' && claimed.run.backfill_id) await this.advanceBackfill({ teamId: key.teamId, id: claimed.run.backfill_id });
  }

  private async beat(claimed: ClaimedRun, jobId: string, flight: InFlight, progress?: RunProgress): Promise<void> {
    try {
      if (!(await beat(this.db, { teamId: claimed.run.team_id, id: claimed.run.id }, jobId, this.clock.now(), progress))) this.abort(flight, 'cancelled');
    } catch (error) {
      // Best effort, as PostHog's heartbeat: a lost beat is caught up by the next one.
      this.logger.warn({ err: error, runId: claimed.run.id }, 'batch export heartbeat failed');
    }
  }

  /** Runs the destination and records how the run ended; 'retry' when pg-boss is to try again. */
  private async execute(claimed: ClaimedRun, job: PgBoss.JobWithMetadata<RunJobData>, flight: InFlight): Promise<'final' | 'retry'> {
    const { run, batchExport } = claimed;
    const key: RunKey = { teamId: run.team_id, id: run.id };
    const signal = flight.controller.signal;
    const finish = async (status: RunStatus, details: { recordsCompleted?: number; bytesExported?: number; latestError?: string | null }) => {
      const finished = await finishRun(this.db, key, job.id, { status, ...details }, this.clock.now());
      if (finished && (status === 'Failed' || status === 'FailedRetryable')) {
        const paused = await pauseIfFailing(this.db, batchExport.team_id, batchExport.id, failureWindow(batchExport.interval), FAILURE_THRESHOLD, this.clock.now());
        if (paused) this.logger.warn({ batchExportId: batchExport.id }, 'batch export paused: too many failed runs');
      }
    };
    try {
      // Deleted after the run was made: PostHog deletes the schedule and its runs do not happen.
      if (batchExport.deleted) {
        await finish('Cancelled', {});
        return 'final';
      }
      const selectBy = run.backfill_id ? 'timestamp' : 'inserted_at';
      if (selectBy === 'inserted_at') await this.waitForStraddlingTransactions(run.data_interval_end, signal, run.id);
      const destination = this.destinations[batchExport.destination_type];
      if (!destination) throw new NonRetryableExportError(`Destination type '${batchExport.destination_type}' is not supported`);
      const total = await countExportRecords(this.db, { batchExport, start: run.data_interval_start, end: run.data_interval_end, selectBy });
      await recordRunTotal(this.db, key, job.id, total, this.clock.now());
      const result = await destination.run({
        batchExport,
        run,
        selectBy,
        db: this.db,
        addresses: this.addresses,
        signal,
        progress: (update) => this.beat(claimed, job.id, flight, update),
      });
      signal.throwIfAborted();
      await finish('Completed', { recordsCompleted: result.recordsCompleted, bytesExported: result.bytesExported });
      return 'final';
    } catch (error) {
      if (flight.cause === 'shutdown') {
        // Handed back with a fresh job, so that another worker need not wait for the lease.
        await releaseRun(this.db, key, job.id, null, this.clock.now(), this.enqueue);
        return 'retry';
      }
      // Cancelled by the API (the row says so already) or taken over by another worker: nothing to record.
      if (flight.cause === 'cancelled') return 'final';
      const latestError = latestErrorOf(error, batchExport.destination_config);
      if (error instanceof NonRetryableExportError || error instanceof InvalidExportSettingsError || error instanceof DestinationAddressError) {
        await finish('Failed', { latestError });
        return 'final';
      }
      if (!(error instanceof Error)) {
        await finish('Failed', { latestError: 'An unexpected error has occurred' });
        return 'final';
      }
      if (job.retryCount >= job.retryLimit) {
        await finish('FailedRetryable', { latestError });
        return 'final';
      }
      this.logger.warn({ err: error, runId: run.id, attempt: job.retryCount + 1 }, 'batch export run failed; it will be retried');
      if (await releaseRun(this.db, key, job.id, latestError, this.clock.now())) throw error;
      return 'final';
    }
  }

  /**
   * Waits until no transaction that began before the interval's end is still open in this database.
   *
   * `events.inserted_at` is `now()`, the inserting transaction's START time, and the row becomes visible only
   * when that transaction commits, possibly after the interval has ended: exporting by `inserted_at` at the
   * interval's end would miss it for good (the next interval does not contain its time either). A snapshot's
   * xid horizon is not enough to detect such writers: a transaction gets its xid only at its first write, so
   * one that began before the end and has not written yet is invisible there, yet may still insert with the
   * old time. Hence pg_stat_activity's xact_start, which every open transaction has from its first statement.
   * It also waits until the database's own clock has passed the end: the engine's clock may run ahead of it, and
   * a transaction starting meanwhile would still stamp an `inserted_at` inside the interval.
   */
  private async waitForStraddlingTransactions(end: Date, signal: AbortSignal, runId: string): Promise<void> {
    // Real time, not the engine's clock: the warning is about how long this worker has been held up.
    const warnEveryMs = this.options.straddleWarnMs ?? 60_000;
    let lastWarning = Date.now();
    for (;;) {
      const check = await checkStraddlingTransactions(this.db, end, this.options.databaseClockShiftMs ?? 0);
      if (check.reached && check.sessions.length === 0) return;
      if (Date.now() - lastWarning >= warnEveryMs) {
        lastWarning = Date.now();
        this.logger.warn(
          { runId, intervalEnd: end.toISOString(), databaseReachedEnd: check.reached, sessions: check.sessions },
          'batch export run waiting for transactions that began before its interval ended',
        );
      }
      await sleep(this.options.straddlePollMs ?? 200, signal);
    }
  }
}
