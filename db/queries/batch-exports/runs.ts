/**
 * The engine's statements (handlers/jobs/): creating runs with their jobs, claiming and finishing them, the
 * heartbeat, the wait for transactions that straddle an interval's end, auto-pause and backfill progress.
 *
 * Every change of a run's status goes through a condition on its current status (and on the job that holds it),
 * so that two workers, a cancel from the API and a take-over of a dead worker's run never both win: a run moves
 * Starting → Running only for the one worker whose UPDATE matched, and only that job may finish it.
 */
import type { Knex } from 'knex';
import pg from 'pg';
import { uuidv7 } from '../../core/uuid.js';
import type { Db } from '../../pg/client.js';
import { ENGINE_CHANNEL, notifyEngine } from './notify.js';
import { EXPORT_READER_NAME } from './records.js';
import { FINAL_STATUSES, type BatchExportBackfillRow, type BatchExportRow, type BatchExportRunRow, type RunStatus } from './rows.js';

/** Enqueues a run's job inside the transaction that made the run due (the engine's pg-boss `send` with `{db}`). */
export type EnqueueRun = (trx: Knex.Transaction, run: RunKey) => Promise<void>;

/** A run's key: its environment (the distribution key on Citus) and its id. */
export interface RunKey {
  teamId: number;
  id: string;
}

/**
 * pg-boss's `{ db }` option for a Knex transaction: its statements run on the transaction's own connection, so
 * the job exists exactly when the transaction commits.
 */
export function jobExecutorOf(trx: Knex.Transaction): { executeSql(text: string, values: unknown[]): Promise<{ rows: unknown[] }> } {
  return {
    async executeSql(text, values) {
      const connection = (await trx.client.acquireConnection()) as { query(text: string, values: unknown[]): Promise<{ rows: unknown[] }> };
      return connection.query(text, values);
    },
  };
}

// ---- scheduling -------------------------------------------------------------------------------------------------

/** Exports the tick schedules: neither paused nor deleted. */
export function schedulableExports(db: Db): Promise<BatchExportRow[]> {
  return db<BatchExportRow>('batch_exports').where({ paused: false, deleted: false }).orderBy('created_at');
}

/**
 * The latest interval end of the export's scheduled runs (backfill_id null), or null. The tick makes scheduled
 * runs oldest first, so every earlier interval of the schedule already has its run: its search starts here.
 */
export async function latestScheduledRunEnd(db: Db, teamId: number, batchExportId: string): Promise<Date | null> {
  const [row] = (await db('batch_export_runs').where({ team_id: teamId, batch_export_id: batchExportId }).whereNull('backfill_id').max({ latest: 'data_interval_end' })) as Array<{
    latest: Date | null;
  }>;
  return row?.latest ?? null;
}

/** The interval ends of an export that already have a run, after `from`. */
export async function runEndsSince(db: Db, teamId: number, batchExportId: string, from: Date): Promise<Set<number>> {
  const rows: Array<{ data_interval_end: Date }> = await db('batch_export_runs')
    .where({ team_id: teamId, batch_export_id: batchExportId })
    .andWhere('data_interval_end', '>', from)
    .select('data_interval_end');
  return new Set(rows.map((row) => row.data_interval_end.getTime()));
}

/**
 * Creates the runs of the given intervals that have none yet, each with its job, all in one transaction:
 * the unique key on (export, interval end) leaves an interval another tick created alone. Returns the new ids.
 */
export async function createScheduledRuns(
  db: Db,
  teamId: number,
  batchExportId: string,
  intervals: Array<{ start: Date; end: Date }>,
  now: Date,
  enqueue: EnqueueRun,
): Promise<string[]> {
  if (intervals.length === 0) return [];
  return db.transaction(async (trx) => {
    const rows: Array<{ id: string }> = await trx('batch_export_runs')
      .insert(
        intervals.map((interval) => ({
          id: uuidv7(now.getTime()),
          team_id: teamId,
          batch_export_id: batchExportId,
          status: 'Starting',
          data_interval_start: interval.start,
          data_interval_end: interval.end,
          created_at: now,
          last_updated_at: now,
        })),
      )
      .onConflict(['batch_export_id', 'data_interval_end', 'team_id'])
      .ignore()
      .returning('id');
    for (const row of rows) await enqueue(trx, { teamId, id: row.id });
    return rows.map((row) => row.id);
  });
}

/**
 * Runs whose worker stopped beating (`Running`, heartbeat older than `staleBefore`) go back to `Starting` with a
 * fresh job, one transaction each; the run row stays the same one. Returns their ids.
 */
export async function requeueStaleRuns(db: Db, staleBefore: Date, enqueue: EnqueueRun): Promise<string[]> {
  const stale: Array<{ id: string; team_id: number }> = await db('batch_export_runs')
    .where({ status: 'Running' })
    .andWhere('last_updated_at', '<', staleBefore)
    .select('id', 'team_id');
  const requeued: string[] = [];
  for (const { id, team_id: teamId } of stale) {
    const taken = await db.transaction(async (trx) => {
      const updated = await trx('batch_export_runs')
        .where({ team_id: teamId, id, status: 'Running' })
        .andWhere('last_updated_at', '<', staleBefore)
        .update({ status: 'Starting', job_id: null });
      if (updated === 0) return false;
      await enqueue(trx, { teamId, id });
      return true;
    });
    if (taken) requeued.push(id);
  }
  return requeued;
}

/**
 * Runs left `Starting` with no live job (none created, waiting to retry or active in pg-boss's `jobSchema` for
 * `queue`) get a fresh job, one transaction each; returns their ids. A handler that outlives its job's expiry
 * leaves such a run: pg-boss retries the job, the retry finds the run still Running and is done, and the
 * handler's later retryable error gives the run back for a retry that no longer exists. A duplicate job is
 * harmless: only one claim of a run wins.
 */
export async function requeueOrphanedRuns(db: Db, jobSchema: string, queue: string, enqueue: EnqueueRun): Promise<string[]> {
  // pg-boss's jobs are a local table, which Citus does not join with the distributed runs: the runs and their
  // live jobs are read apart, and each candidate is checked again under its run's row lock before its new job.
  const liveJobs = async (trx: Knex.Transaction | Db, runId?: string): Promise<Set<string>> => {
    const rows: Array<{ run_id: string }> = await trx
      .withSchema(jobSchema)
      .from('job')
      .where({ name: queue })
      .whereIn('state', ['created', 'retry', 'active'])
      .modify((query) => {
        if (runId) query.whereRaw("data->>'runId' = ?", [runId]);
      })
      .select(trx.raw("distinct data->>'runId' as run_id"));
    return new Set(rows.map((row) => row.run_id));
  };
  const starting: Array<{ id: string; team_id: number }> = await db('batch_export_runs').where({ status: 'Starting' }).select('id', 'team_id');
  if (starting.length === 0) return [];
  const live = await liveJobs(db);
  const requeued: string[] = [];
  for (const { id, team_id: teamId } of starting.filter((run) => !live.has(run.id))) {
    const taken = await db.transaction(async (trx) => {
      const locked = await trx('batch_export_runs').where({ team_id: teamId, id, status: 'Starting' }).forUpdate().first('id');
      if (!locked || (await liveJobs(trx, id)).size > 0) return false;
      await enqueue(trx, { teamId, id });
      return true;
    });
    if (taken) requeued.push(id);
  }
  return requeued;
}

/** Who a run exports for: its export's environment and the user who made the export (null when gone). */
export interface RunTenant {
  teamId: number;
  createdBy: number | null;
}

/**
 * The environment a run exports from and its export's maker, or null when the run is gone. A job that does not
 * name its run's environment (one enqueued before jobs did) has it looked up across environments.
 */
export async function runTenant(db: Db, runId: string, teamId?: number): Promise<RunTenant | null> {
  const row = await db('batch_export_runs as r')
    .join('batch_exports as e', function () {
      this.on('e.team_id', 'r.team_id').andOn('e.id', 'r.batch_export_id');
    })
    .where('r.id', runId)
    .modify((query) => {
      if (teamId !== undefined) query.where('r.team_id', teamId);
    })
    .first<{ team_id: number; created_by: number | null } | undefined>('e.team_id', 'e.created_by');
  return row ? { teamId: Number(row.team_id), createdBy: row.created_by === null ? null : Number(row.created_by) } : null;
}

/**
 * Puts a job a worker fetched back in its queue, to be fetched again after `delayMs`: it keeps its retries, and
 * pg-boss's completion of the handler that deferred it (which only completes active jobs) leaves it alone.
 */
export async function deferRunJob(db: Db, jobSchema: string, queue: string, jobId: string, delayMs: number): Promise<boolean> {
  const result = await db.raw(
    `update ??.job set state = 'created', started_on = null, start_after = now() + make_interval(secs => ?)
     where name = ? and id = ? and state = 'active'`,
    [jobSchema, delayMs / 1000, queue, jobId],
  );
  return (result.rowCount ?? 0) > 0;
}

// ---- one run's life ---------------------------------------------------------------------------------------------

export interface ClaimedRun {
  run: BatchExportRunRow;
  batchExport: BatchExportRow;
}

/**
 * Takes a run for the job `jobId`: only from `Starting`, so a run another worker holds, or one that is over
 * (Completed, Cancelled, …), is never run twice. Null when the run is not this job's to run.
 */
export async function claimRun(db: Db, key: RunKey, jobId: string, now: Date): Promise<ClaimedRun | null> {
  const [run] = (await db('batch_export_runs')
    .where({ team_id: key.teamId, id: key.id, status: 'Starting' })
    .update({ status: 'Running', attempts: db.raw('attempts + 1'), job_id: jobId, last_updated_at: now })
    .returning('*')) as BatchExportRunRow[];
  if (!run) return null;
  const batchExport = await db<BatchExportRow>('batch_exports').where({ team_id: run.team_id, id: run.batch_export_id }).first();
  if (!batchExport) return null;
  return { run, batchExport };
}

export interface RunProgress {
  recordsCompleted?: number;
  bytesExported?: number;
  cursor?: string | null;
}

/**
 * The heartbeat, with whatever progress there is. Answers whether the run is still this job's and `Running`:
 * false when the API cancelled it or the engine gave it to another worker, and the worker must stop.
 */
export async function beat(db: Db, key: RunKey, jobId: string, now: Date, progress: RunProgress = {}): Promise<boolean> {
  const changes: Record<string, unknown> = { last_updated_at: now };
  if (progress.recordsCompleted !== undefined) changes.records_completed = progress.recordsCompleted;
  if (progress.bytesExported !== undefined) changes.bytes_exported = progress.bytesExported;
  if (progress.cursor !== undefined) changes.cursor = progress.cursor;
  const updated = await db('batch_export_runs').where({ team_id: key.teamId, id: key.id, job_id: jobId, status: 'Running' }).update(changes);
  return updated > 0;
}

export interface RunEnd {
  status: RunStatus;
  recordsCompleted?: number;
  bytesExported?: number;
  latestError?: string | null;
}

/** Ends a run this job holds; false when it is no longer this job's (cancelled or taken over meanwhile). */
export async function finishRun(db: Db, key: RunKey, jobId: string, end: RunEnd, now: Date): Promise<boolean> {
  const changes: Record<string, unknown> = { status: end.status, finished_at: now, last_updated_at: now };
  if (end.recordsCompleted !== undefined) changes.records_completed = end.recordsCompleted;
  if (end.bytesExported !== undefined) changes.bytes_exported = end.bytesExported;
  // PostgreSQL text cannot hold NUL.
  if (end.latestError !== undefined) changes.latest_error = end.latestError === null ? null : end.latestError.replaceAll('\u0000', '');
  const updated = await db('batch_export_runs').where({ team_id: key.teamId, id: key.id, job_id: jobId, status: 'Running' }).update(changes);
  return updated > 0;
}

/** Records how many records the run's window holds (`records_total_count`), while the run is this job's. */
export async function recordRunTotal(db: Db, key: RunKey, jobId: string, total: number, now: Date): Promise<void> {
  await db('batch_export_runs').where({ team_id: key.teamId, id: key.id, job_id: jobId, status: 'Running' }).update({ records_total_count: total, last_updated_at: now });
}

/**
 * Gives a run back to be started again: by pg-boss's retry of the same job after a retryable error (no new job),
 * or, with `enqueue`, by a fresh job when the worker's process is stopping.
 */
export async function releaseRun(
  db: Db,
  key: RunKey,
  jobId: string,
  latestError: string | null,
  now: Date,
  enqueue?: EnqueueRun,
): Promise<boolean> {
  return db.transaction(async (trx) => {
    const changes: Record<string, unknown> = { status: 'Starting', job_id: null, last_updated_at: now };
    if (latestError !== null) changes.latest_error = latestError.replaceAll('\u0000', '');
    const updated = await trx('batch_export_runs').where({ team_id: key.teamId, id: key.id, job_id: jobId, status: 'Running' }).update(changes);
    if (updated === 0) return false;
    if (enqueue) await enqueue(trx, key);
    return true;
  });
}

export async function runStatus(db: Db, key: RunKey): Promise<RunStatus | null> {
  const row: { status: RunStatus } | undefined = await db('batch_export_runs').where({ team_id: key.teamId, id: key.id }).first('status');
  return row?.status ?? null;
}

/** A session whose open transaction began before an interval's end (never its query: it may hold user data). */
export interface StraddlingSession {
  pid: number;
  application_name: string;
  xact_start: Date;
}

export interface StraddleCheck {
  /** Whether the database's own clock (moved by `databaseShiftMs`) has reached the instant. */
  reached: boolean;
  /** Sessions of this database (other than the caller's) with a transaction open that began before the instant. */
  sessions: StraddlingSession[];
}

/**
 * Whether an export of the interval ending at `instant` may read it yet. A transaction open since before
 * `instant` may still insert events whose `inserted_at` (its start time, `now()`) falls before it; so may one
 * that starts later while the database's clock, which sets `inserted_at`, has not reached `instant` (the
 * engine's clock may run ahead of it). `databaseShiftMs` is the engine clock's deliberate offset (a test's
 * pretended future), applied to the database's clock too.
 * Transactions that read records for a run are read-only and named so (EXPORT_READER_NAME): they are left out,
 * or a long run would hold up every later interval.
 */
export async function checkStraddlingTransactions(db: Db, instant: Date, databaseShiftMs = 0): Promise<StraddleCheck> {
  const result = await db.raw<{ rows: Array<{ reached: boolean; sessions: Array<{ pid: number; application_name: string; xact_start: string }> }> }>(
    `select now() + ? * interval '1 millisecond' >= ? as reached,
            coalesce((
              select json_agg(json_build_object('pid', pid, 'application_name', application_name, 'xact_start', xact_start) order by xact_start)
                from pg_stat_activity
               where datname = current_database() and pid <> pg_backend_pid()
                 and backend_type = 'client backend' and xact_start < ?
                 and application_name <> ?
            ), '[]'::json) as sessions`,
    [databaseShiftMs, instant, instant, EXPORT_READER_NAME],
  );
  const row = result.rows[0]!;
  return {
    reached: row.reached,
    sessions: row.sessions.map((session) => ({ pid: session.pid, application_name: session.application_name, xact_start: new Date(session.xact_start) })),
  };
}

// ---- auto-pause -------------------------------------------------------------------------------------------------

/**
 * Pauses an export when at least `threshold` of its newest `window` runs (by interval end) failed, and cancels
 * its unfinished backfills and their runs. Answers whether it paused the export now.
 */
export async function pauseIfFailing(db: Db, teamId: number, batchExportId: string, window: number, threshold: number, now: Date): Promise<boolean> {
  return db.transaction(async (trx) => {
    const recent = trx('batch_export_runs')
      .where({ team_id: teamId, batch_export_id: batchExportId })
      .orderBy('data_interval_end', 'desc')
      .limit(window)
      .select('status')
      .as('recent');
    const [counted] = (await trx.from(recent).whereIn('status', ['Failed', 'FailedRetryable']).count({ failed: '*' })) as Array<{ failed: string }>;
    if (Number(counted?.failed ?? 0) < threshold) return false;
    const paused = await trx('batch_exports')
      .where({ team_id: teamId, id: batchExportId, paused: false })
      .update({ paused: true, last_paused_at: now, last_updated_at: now });
    if (paused === 0) return false;
    const backfills: Array<{ id: string }> = await trx('batch_export_backfills')
      .where({ team_id: teamId, batch_export_id: batchExportId })
      .whereIn('status', ['Starting', 'Running'])
      .update({ status: 'Cancelled', finished_at: now, last_updated_at: now })
      .returning('id');
    if (backfills.length > 0) {
      await trx('batch_export_runs')
        .where({ team_id: teamId })
        .whereIn(
          'backfill_id',
          backfills.map((b) => b.id),
        )
        .whereIn('status', ['Starting', 'Running'])
        .update({ status: 'Cancelled', finished_at: now, last_updated_at: now });
    }
    await notifyEngine(trx);
    return true;
  });
}

// ---- backfills --------------------------------------------------------------------------------------------------

/** A backfill's key: its environment and its id. */
export interface BackfillKey {
  teamId: number;
  id: string;
}

/** Backfills the engine has to move on: new ones and those under way, of every environment. */
export async function activeBackfills(db: Db): Promise<BackfillKey[]> {
  const rows: Array<{ id: string; team_id: number }> = await db('batch_export_backfills')
    .whereIn('status', ['Starting', 'Running'])
    .orderBy('created_at')
    .select('id', 'team_id');
  return rows.map((row) => ({ teamId: Number(row.team_id), id: row.id }));
}

/**
 * Runs `work` with the backfill's row locked (so that two engines never move one backfill at once) and its
 * export; a backfill another engine holds is skipped (null), as is one that is over.
 */
export async function withBackfillLocked<T>(
  db: Db,
  key: BackfillKey,
  work: (trx: Knex.Transaction, backfill: BatchExportBackfillRow, batchExport: BatchExportRow) => Promise<T>,
): Promise<T | null> {
  return db.transaction(async (trx) => {
    // Pinned to the environment: Citus takes a row lock only in a statement on one shard.
    const backfill = await trx<BatchExportBackfillRow>('batch_export_backfills').where({ team_id: key.teamId, id: key.id }).forUpdate().skipLocked().first();
    if (!backfill || (backfill.status !== 'Starting' && backfill.status !== 'Running')) return null;
    const batchExport = await trx<BatchExportRow>('batch_exports').where({ team_id: key.teamId, id: backfill.batch_export_id }).first();
    if (!batchExport) return null;
    return work(trx, backfill, batchExport);
  });
}

export async function markBackfillRunning(trx: Knex.Transaction, key: BackfillKey, now: Date): Promise<void> {
  await trx('batch_export_backfills').where({ team_id: key.teamId, id: key.id }).update({ status: 'Running', last_updated_at: now });
}

export interface RunAtEnd {
  id: string;
  status: RunStatus;
  backfill_id: string | null;
  data_interval_end: Date;
}

/** The export's runs at the given interval ends, by end (epoch ms). */
export async function runsAtEnds(trx: Knex.Transaction, teamId: number, batchExportId: string, ends: Date[]): Promise<Map<number, RunAtEnd>> {
  const runs = new Map<number, RunAtEnd>();
  if (ends.length === 0) return runs;
  const rows: RunAtEnd[] = await trx('batch_export_runs')
    .where({ team_id: teamId, batch_export_id: batchExportId })
    .whereIn('data_interval_end', ends)
    .select('id', 'status', 'backfill_id', 'data_interval_end');
  for (const row of rows) runs.set(row.data_interval_end.getTime(), row);
  return runs;
}

/**
 * Makes the run of one backfill window and enqueues it. An interval that already has a run that is over is run
 * again under this backfill (PostHog reuses the workflow id); one still in flight is left alone (null).
 */
export async function startBackfillRun(
  trx: Knex.Transaction,
  input: { teamId: number; batchExportId: string; backfillId: string; start: Date | null; end: Date },
  now: Date,
  enqueue: EnqueueRun,
): Promise<string | null> {
  const final = FINAL_STATUSES.map((status) => `'${status}'`).join(', ');
  const result = await trx.raw<{ rows: Array<{ id: string }> }>(
    `insert into batch_export_runs (id, team_id, batch_export_id, backfill_id, status, data_interval_start, data_interval_end, created_at, last_updated_at)
     values (?, ?, ?, ?, 'Starting', ?, ?, ?, ?)
     on conflict (batch_export_id, data_interval_end, team_id) do update
        set status = 'Starting', backfill_id = excluded.backfill_id, data_interval_start = excluded.data_interval_start,
            records_completed = null, records_failed = null, bytes_exported = null, latest_error = null, cursor = null,
            job_id = null, finished_at = null, last_updated_at = excluded.last_updated_at
      where batch_export_runs.status in (${final})
     returning id`,
    [uuidv7(now.getTime()), input.teamId, input.batchExportId, input.backfillId, input.start, input.end, now, now],
  );
  const id = result.rows[0]?.id ?? null;
  if (id !== null) await enqueue(trx, { teamId: input.teamId, id });
  return id;
}

/** Ends a backfill: its status, finish time and the records its Completed runs exported. */
export async function finishBackfill(trx: Knex.Transaction, key: BackfillKey, status: RunStatus, now: Date): Promise<void> {
  const [summed] = (await trx('batch_export_runs')
    .where({ team_id: key.teamId, backfill_id: key.id, status: 'Completed' })
    .sum({ total: 'records_completed' })) as Array<{ total: string | null }>;
  await trx('batch_export_backfills')
    .where({ team_id: key.teamId, id: key.id })
    .update({ status, finished_at: now, last_updated_at: now, total_records_count: summed?.total ?? 0 });
}

/** Records how far the backfill has got (BatchExportBackfillRow.finished_through). */
export async function recordBackfillProgress(trx: Knex.Transaction, key: BackfillKey, finishedThrough: Date, now: Date): Promise<void> {
  await trx('batch_export_backfills').where({ team_id: key.teamId, id: key.id }).update({ finished_through: finishedThrough, last_updated_at: now });
}

/** The statuses of this backfill's runs at the given interval ends, by end (epoch ms). */
export async function backfillRunStatuses(trx: Knex.Transaction, key: BackfillKey, ends: Date[]): Promise<Map<number, RunStatus>> {
  if (ends.length === 0) return new Map();
  const rows: Array<{ data_interval_end: Date; status: RunStatus }> = await trx('batch_export_runs')
    .where({ team_id: key.teamId, backfill_id: key.id })
    .whereIn('data_interval_end', ends)
    .select('data_interval_end', 'status');
  return new Map(rows.map((row) => [row.data_interval_end.getTime(), row.status]));
}

/** Whether a backfill has runs and every one of them failed (the backfill then ends Failed). */
export async function everyBackfillRunFailed(trx: Knex.Transaction, key: BackfillKey): Promise<boolean> {
  const [counted] = (await trx('batch_export_runs')
    .where({ team_id: key.teamId, backfill_id: key.id })
    .select(trx.raw('count(*) as total'), trx.raw(`count(*) filter (where status in ('Failed', 'FailedRetryable')) as failed`))) as Array<{
    total: string;
    failed: string;
  }>;
  const total = Number(counted?.total ?? 0);
  return total > 0 && Number(counted?.failed ?? 0) === total;
}

/** A backfill with no end has caught up with now: the export's schedule takes over. */
export async function unpauseExport(trx: Knex.Transaction, teamId: number, batchExportId: string, now: Date): Promise<void> {
  await trx('batch_exports').where({ team_id: teamId, id: batchExportId, paused: true }).update({ paused: false, schedule_from: now, last_updated_at: now });
}

// ---- the wake-up channel ----------------------------------------------------------------------------------------

/** The engine's listening session's name in pg_stat_activity. */
export const ENGINE_LISTENER_NAME = 'hedgerow batch export engine';

/**
 * A session of its own that LISTENs on the engine's channel and calls `onNotify` with each notification's payload;
 * `onError` hears of its loss (the caller listens again). `close()` ends it.
 */
export async function listenForEngine(
  connectionString: string,
  onNotify: (payload: string) => void,
  onError: (error: Error) => void,
): Promise<{ close(): Promise<void> }> {
  const client = new pg.Client({ connectionString, application_name: ENGINE_LISTENER_NAME });
  client.on('error', onError);
  client.on('notification', (message) => {
    if (message.channel === ENGINE_CHANNEL) onNotify(message.payload ?? '');
  });
  await client.connect();
  try {
    await client.query(`listen ${ENGINE_CHANNEL}`);
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  return { close: () => client.end().catch(() => undefined) };
}
