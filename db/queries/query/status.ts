/**
 * The statuses of asynchronous query runs (table query_statuses): made by the API with the run's job, picked up,
 * run and finished by an engine process (handlers/jobs/query-jobs.ts), read and cancelled by the API from any
 * process.
 *
 * A runner's every write is conditioned on the row still naming its job (task_id) and not being complete, so that
 * a cancel, a forced resubmission or a takeover always wins over a runner that comes later. A run whose process
 * stops is taken over: the status is given a new job, which any engine process runs from the start (a stopping
 * process hands its runs over; one that died is found out when its runs are read, and by every engine's upkeep).
 * Statuses expire 20 minutes after their last write, as PostHog's do (a running query's is renewed by its runner);
 * an expired one is as good as gone.
 */
import type { Knex } from 'knex';
import type { components } from '../../../generated/api.js';
import { MAX_JSON_DEPTH } from '../../core/json-limits.js';
import { parseJson, stringifyExact } from '../../core/exact-json.js';
import { cleanText } from '../../core/jsonb-text.js';
import { errors } from '../../core/errors.js';
import type { Db } from '../../pg/client.js';
import type { EnvironmentRow } from '../../rows.js';
import { ENGINE_CHANNEL } from '../batch-exports/notify.js';

/** How long a status lives after its last write (PostHog's). */
export const STATUS_TTL = "interval '20 minutes'";

/** The payload on the engine's channel that wakes the query runners rather than the batch export tick. */
export const QUERY_SUBMITTED = 'query';

/** Wakes every engine's query runners once the transaction commits: a job of the runs was written. */
async function wakeQueryRunners(trx: Knex.Transaction): Promise<void> {
  await trx.raw('select pg_notify(?, ?)', [ENGINE_CHANNEL, QUERY_SUBMITTED]);
}

/** The payload's start when a runner put a job back (deferQueryJob); the runner's id follows. */
export const QUERY_PUT_BACK = 'query-put-back:';

export const CANCELLED_MESSAGE = 'Query cancelled';
export const RUNNER_STOPPED_MESSAGE = 'The processes running the query stopped before the query finished.';

/**
 * How often a run whose process died is started again before its status says it stopped: a query that itself
 * brings down the processes running it must not take down every one of them. A process that stops on purpose
 * hands its runs over without counting.
 */
export const MAX_TAKEOVERS = 2;

// Text that is not well-formed UTF-16 (String.prototype.isWellFormed, which lib ES2023 does not type): in a `u`
// regex a surrogate pair is one code point, so only a lone surrogate is of the category Cs.
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Whether a status may have this id: PostgreSQL text cannot hold NUL, and stores a lone surrogate as U+FFFD, so
 * that two such ids would name one status.
 */
export function isStorableQueryId(id: string): boolean {
  return !id.includes('\u0000') && !LONE_SURROGATE.test(id);
}

/**
 * JSON as a status stores it, to be written out as it is: a run's results (up to the synchronous answer's cap of
 * rows, megabytes of text) are not parsed and serialised again on every read of the status.
 */
export class StoredJson {
  constructor(readonly text: string) {}
}

/** The status as the API shows it (PostHog's QueryStatus), its results as stored. */
export type QueryStatus = Omit<components['schemas']['QueryStatus'], 'results'> & { results: StoredJson | null };

interface StatusRow {
  id: string;
  team_id: number;
  query_async: boolean;
  complete: boolean;
  error: boolean;
  error_message: string | null;
  results_text: string | null;
  start_time: Date | null;
  pickup_time: Date | null;
  end_time: Date | null;
  expiration_time: Date | null;
  task_id: string | null;
  insight_id: number | null;
  dashboard_id: number | null;
  labels: string[] | null;
}

// results as text, as stored (the column is json, so the text is the one written), so that integers beyond 2^53
// stay as the query answered them.
const STATUS_COLUMNS = `id, team_id, query_async, complete, error, error_message, results::text as results_text, start_time,
  pickup_time, end_time, expiration_time, task_id, insight_id, dashboard_id, labels`;

const iso = (date: Date | null) => (date ? date.toISOString() : null);

function statusOf(row: StatusRow): QueryStatus {
  return {
    id: row.id,
    team_id: row.team_id,
    query_async: row.query_async,
    complete: row.complete,
    error: row.error,
    error_message: row.error_message,
    results: row.results_text === null ? null : new StoredJson(row.results_text),
    start_time: iso(row.start_time),
    pickup_time: iso(row.pickup_time),
    end_time: iso(row.end_time),
    expiration_time: iso(row.expiration_time),
    task_id: row.task_id,
    insight_id: row.insight_id,
    dashboard_id: row.dashboard_id,
    labels: row.labels,
    query_progress: null,
  };
}

/**
 * First key of the advisory locks that serialise submits of one query id (ASCII "HgQs"); the second is a hash of
 * the environment and the id. Capture's locks have a class of their own (db/queries/ingestion.ts).
 */
const QUERY_SUBMIT_LOCK_CLASS = 0x48675173;

/**
 * First key of the advisory locks that serialise the submits of one environment (ASCII "HgQb"), the second its
 * id: its count of waiting and running queries, checked against its limit and giving the new job its place,
 * is then exact.
 */
const QUERY_BACKLOG_LOCK_CLASS = 0x48675162;

/**
 * The same for the submits of one user (ASCII "HgQu", the second key the user id), taken before the
 * environment's: a user's count across its environments is exact too.
 */
const USER_BACKLOG_LOCK_CLASS = 0x48675175;

/** What a 429 for the limit of queued and running queries suggests. */
export const BACKLOG_RETRY_AFTER_SECONDS = 5;

/**
 * Enqueues the run's job (id `jobId`) inside the transaction that makes its status. `priority`: minus the
 * queries already waiting or running of the environment or of the user, whichever has more, so that the queue,
 * which hands out the highest priority first and the oldest among equals, takes each environment's and each
 * user's first query, then each one's second, and so on.
 */
export type EnqueueQuery = (
  trx: Knex.Transaction,
  job: { jobId: string; teamId: number; userId: number | null; priority: number },
) => Promise<void>;

/** Takes the run's job out of the queue, if it has not started (inside the cancelling transaction). */
export type DequeueQuery = (trx: Knex.Transaction, jobId: string) => Promise<void>;

/** The job queue's table (pg-boss's `job` in `schema`) and the queue of the runs' jobs. */
export interface QueryQueue {
  schema: string;
  name: string;
}

/** The runs' jobs: where they are, and how one is written or taken out inside a transaction. */
export interface QueryJobQueue {
  queue: QueryQueue;
  enqueue: EnqueueQuery;
  dequeue: DequeueQuery;
}

export interface SubmittedQuery {
  teamId: number;
  id: string;
  query: unknown;
  jobId: string;
  /** A forced refresh runs the query again even when a status for the id exists. */
  force: boolean;
  /** Queries the environment may have waiting or running at once, this one included; 0: no limit. */
  pendingLimit: number;
  /** The user of the key that submits it (null: none), and what it may have waiting or running across its environments. */
  userId: number | null;
  userPendingLimit: number;
}

function tooManyPending(limit: number, holder: 'environment' | 'user') {
  return errors.tooManyQueries(
    `Exceeded maximum concurrency limit: ${limit} asynchronous ${limit === 1 ? 'query' : 'queries'} queued or running for this ${holder}. Retry when one has finished.`,
    BACKLOG_RETRY_AFTER_SECONDS,
  );
}

/** Whose statuses: an environment's, or a user's across its environments. */
type PendingOf = { teamId: number } | { userId: number };

/** The queries not complete of the environment or user, but for query `except` (the one being submitted again). */
async function countPending(trx: Knex.Transaction, of: PendingOf, except: { teamId: number; id: string }): Promise<number> {
  const [column, value] = 'teamId' in of ? ['team_id', of.teamId] : ['user_id', of.userId];
  const { rows } = await trx.raw(
    `select count(*)::int as n from query_statuses
     where ${column} = ? and not (team_id = ? and id = ?) and not complete and expiration_time > now()`,
    [value, except.teamId, except.id],
  );
  return (rows as Array<{ n: number }>)[0]!.n;
}

/**
 * The queries not complete of the environment or user, checked against its limit (0: none): runs whose process
 * died too often count no longer, found so now rather than when their status is read. A 429 past the limit.
 */
async function checkPending(trx: Knex.Transaction, of: PendingOf, limit: number, submitted: SubmittedQuery, jobs: QueryJobQueue): Promise<number> {
  const except = { teamId: submitted.teamId, id: submitted.id };
  let pending = await countPending(trx, of, except);
  if (limit > 0 && pending >= limit) {
    await takeOverStoppedRuns(trx, of, null, jobs);
    pending = await countPending(trx, of, except);
    if (pending >= limit) throw tooManyPending(limit, 'teamId' in of ? 'environment' : 'user');
  }
  return pending;
}

/**
 * Makes the status of a new run and its job in one transaction, and wakes the runners when it commits. Without
 * `force`, a live status of the same id is answered as it is and nothing is submitted. With it, the status is
 * started over for a new job: the previous job is dequeued and its statement, if running, cancelled, and its
 * runner can no longer write (its task_id is no longer the row's).
 */
export async function submitQuery(
  db: Db,
  submitted: SubmittedQuery,
  jobs: QueryJobQueue,
): Promise<QueryStatus> {
  return db.transaction(async (trx) => {
    if (submitted.userId !== null) await trx.raw('select pg_advisory_xact_lock(?, ?)', [USER_BACKLOG_LOCK_CLASS, submitted.userId]);
    await trx.raw('select pg_advisory_xact_lock(?, ?)', [QUERY_BACKLOG_LOCK_CLASS, submitted.teamId]);
    // Two submits of one id (a client's retry) take turns, so that the second finds the first one's status rather
    // than a key it cannot insert: `for update` below locks only a row that exists.
    await trx.raw('select pg_advisory_xact_lock(?, hashtext(?))', [QUERY_SUBMIT_LOCK_CLASS, `${submitted.teamId}:${submitted.id}`]);
    const key = { team_id: submitted.teamId, id: submitted.id };
    await trx('query_statuses').where(key).andWhereRaw('expiration_time <= now()').delete();
    const [existing] = (await trx.raw(
      `select ${STATUS_COLUMNS}, runner_pid, runner_backend_start::text as runner_backend_start
       from query_statuses where team_id = ? and id = ? for update`,
      [submitted.teamId, submitted.id],
    )).rows as Array<StatusRow & RunnerSession>;
    if (existing && !submitted.force) return statusOf(existing);
    const environmentPending = await checkPending(trx, { teamId: submitted.teamId }, submitted.pendingLimit, submitted, jobs);
    const userPending =
      submitted.userId === null ? 0 : await checkPending(trx, { userId: submitted.userId }, submitted.userPendingLimit, submitted, jobs);
    if (existing) {
      if (existing.task_id && !existing.complete) await jobs.dequeue(trx, existing.task_id);
      await cancelRunnerStatement(trx, existing);
      await trx('query_statuses').where(key).delete();
    }
    const [row] = (await trx.raw(
      `insert into query_statuses (team_id, id, query, start_time, expiration_time, task_id, user_id)
       values (?, ?, ?::json, now(), now() + ${STATUS_TTL}, ?, ?)
       returning ${STATUS_COLUMNS}`,
      [submitted.teamId, submitted.id, stringifyExact(submitted.query), submitted.jobId, submitted.userId],
    )).rows as StatusRow[];
    const priority = -Math.max(environmentPending, userPending);
    await jobs.enqueue(trx, { jobId: submitted.jobId, teamId: submitted.teamId, userId: submitted.userId, priority });
    await wakeQueryRunners(trx);
    return statusOf(row!);
  });
}

export interface RunnerSession {
  runner_pid: number | null;
  runner_backend_start: string | null;
}

/**
 * Cancels the statement of the session that runs a query, if that very session is still there: the pid is
 * matched with its backend_start, so that a pid PostgreSQL has since given to another session is never hit.
 */
export async function cancelRunnerStatement(db: Knex | Knex.Transaction, session: RunnerSession): Promise<void> {
  if (session.runner_pid === null || session.runner_backend_start === null) return;
  await db.raw('select pg_cancel_backend(pid) from pg_stat_activity where pid = ? and backend_start = ?::timestamptz', [
    session.runner_pid,
    session.runner_backend_start,
  ]);
}

/**
 * The live status of query `id` of the environment, or null (unknown, expired, another environment's). A status
 * not complete whose runner is gone is first taken over (takeOverStoppedRuns).
 */
export async function readQueryStatus(db: Db, teamId: number, id: string, jobs: QueryJobQueue): Promise<QueryStatus | null> {
  const read = async () =>
    ((await db.raw(`select ${STATUS_COLUMNS} from query_statuses where team_id = ? and id = ? and expiration_time > now()`, [teamId, id])).rows as StatusRow[])[0];
  const row = await read();
  if (!row || row.complete) return row ? statusOf(row) : null;
  if ((await takeOverStoppedRuns(db, { teamId }, id, jobs)) === 0) return statusOf(row);
  const after = await read();
  return after ? statusOf(after) : null;
}

/** Bytes of a status's stored results (0 without them, or without the status): about what reading it costs. */
export async function storedResultsBytes(db: Db, teamId: number, id: string): Promise<number> {
  const { rows } = (await db.raw(
    `select coalesce(octet_length(results::text), 0)::bigint as bytes from query_statuses where team_id = ? and id = ? and expiration_time > now()`,
    [teamId, id],
  )) as { rows: Array<{ bytes: string }> };
  return rows[0] ? Number(rows[0].bytes) : 0;
}

/** An array bound as one value: Knex's types do not list arrays that hold nulls. */
const arrayValue = (values: readonly unknown[]) => values as Knex.Value;

/** A status not complete and what tells whether its runner is still there. */
interface PendingRun extends RunnerSession {
  team_id: number;
  id: string;
  task_id: string | null;
  takeovers: number;
}

/**
 * Takes over the runs not complete of the environment or user (query `id`'s only, unless null), or of every
 * environment (`everyone`, for the engine's upkeep), whose runner is gone: its session has left
 * pg_stat_activity, or, before a session was recorded, its job is no longer waiting nor active in pg-boss. Each
 * is given a new job (startOver), or, once taken over MAX_TAKEOVERS times, marked failed, complete. How many
 * statuses changed.
 *
 * The statuses are read, the runners looked for, and the stopped runs changed, in separate statements: on Citus a
 * statement over the statuses runs on the node that holds them, where neither the sessions (the coordinator's)
 * nor pg-boss's queue is. Each change is conditioned on the runner being the one found gone, so a run that
 * records its session or is started over meanwhile is left as it is.
 */
export async function takeOverStoppedRuns(
  db: Knex | Knex.Transaction,
  of: PendingOf | 'everyone',
  id: string | null,
  jobs: QueryJobQueue,
): Promise<number> {
  const [whose, bindings] =
    of === 'everyone' ? ['true', []] : 'teamId' in of ? ['team_id = ?', [of.teamId]] : ['user_id = ?', [of.userId]];
  const runs = (await db.raw(
    `select team_id, id, task_id, takeovers, runner_pid, runner_backend_start::text as runner_backend_start from query_statuses
     where ${whose} and (?::text is null or id = ?) and not complete and expiration_time > now()
       and (runner_pid is not null or task_id is not null)`,
    [...bindings, id, id],
  )).rows as PendingRun[];
  if (runs.length === 0) return 0;
  const stopped = (await db.raw(
    `select r.n::int as n
     from unnest(?::int[], ?::timestamptz[], ?::text[]) with ordinality as r(pid, backend_start, task_id, n)
     where case
       when r.pid is not null then not exists (
         select 1 from pg_stat_activity a where a.pid = r.pid and a.backend_start = r.backend_start)
       else not exists (
         select 1 from ${jobs.queue.schema}.job j
         where j.name = ? and j.id = r.task_id::uuid and j.state in ('created', 'retry', 'active'))
     end`,
    [arrayValue(runs.map((run) => run.runner_pid)), arrayValue(runs.map((run) => run.runner_backend_start)), arrayValue(runs.map((run) => run.task_id)), jobs.queue.name],
  )).rows as Array<{ n: number }>;
  let changed = 0;
  for (const { n } of stopped) {
    const run = runs[n - 1]!;
    const key = { teamId: run.team_id, id: run.id, taskId: run.task_id };
    if (run.takeovers < MAX_TAKEOVERS) {
      if (await startOver(db, key, run, jobs)) changed += 1;
      continue;
    }
    const result = await db.raw(
      `update query_statuses
       set complete = true, error = true, error_message = ?, end_time = now(), expiration_time = now() + ${STATUS_TTL}
       where team_id = ? and id = ? and not complete and expiration_time > now()
         and runner_pid is not distinct from ? and runner_backend_start is not distinct from ?::timestamptz
         and task_id is not distinct from ?`,
      [RUNNER_STOPPED_MESSAGE, run.team_id, run.id, run.runner_pid, run.runner_backend_start, run.task_id],
    );
    changed += result.rowCount ?? 0;
  }
  return changed;
}

/** A run as its status names it: the environment, the query id, and the job it is now (task_id). */
interface RunKey {
  teamId: number;
  id: string;
  taskId: string | null;
}

/**
 * Gives a run not complete a new job, which any engine process runs from the start, if the run is still job
 * `taskId`'s and, when `runner` is given (a takeover, counted), still has the runner found gone. Its job goes
 * first in the queue: the run had its turn already. False when the run had moved on.
 */
async function startOver(db: Knex | Knex.Transaction, run: RunKey, runner: RunnerSession | null, jobs: QueryJobQueue): Promise<boolean> {
  const work = async (trx: Knex.Transaction) => {
    const jobId = crypto.randomUUID();
    const takeover = runner !== null;
    const [restarted] = (await trx.raw(
      `update query_statuses
       set task_id = ?, pickup_time = null, runner_pid = null, runner_backend_start = null,
         takeovers = takeovers + ?, expiration_time = now() + ${STATUS_TTL}
       where team_id = ? and id = ? and not complete and expiration_time > now() and task_id is not distinct from ?
         and (not ? or (runner_pid is not distinct from ? and runner_backend_start is not distinct from ?::timestamptz))
       returning user_id`,
      [jobId, takeover ? 1 : 0, run.teamId, run.id, run.taskId, takeover, runner?.runner_pid ?? null, runner?.runner_backend_start ?? null],
    )).rows as Array<{ user_id: number | null }>;
    if (!restarted) return false;
    await jobs.enqueue(trx, { jobId, teamId: run.teamId, userId: restarted.user_id, priority: 0 });
    await wakeQueryRunners(trx);
    return true;
  };
  return db.isTransaction ? work(db as Knex.Transaction) : db.transaction(work);
}

/**
 * Puts an active job of the runs back in the queue, its place kept, to be fetched again from `delayMs` on: for a
 * runner that fetched the job of an environment already running its share. pg-boss then completes nothing (it
 * completes only an active job). The engines are told (QUERY_PUT_BACK with `runnerId`), so that the runners of
 * other processes, which may have room, look for it as it comes back, before the runner that put it back polls
 * again. False when the job is no longer active (cancelled meanwhile).
 */
export async function deferQueryJob(db: Db, queue: QueryQueue, jobId: string, delayMs: number, runnerId: string): Promise<boolean> {
  const { rows } = await db.raw(
    `with put_back as (
       update ${queue.schema}.job set state = 'created', started_on = null, start_after = now() + make_interval(secs => ?)
       where name = ? and id = ? and state = 'active'
       returning id)
     select pg_notify(?, ?) from put_back`,
    [delayMs / 1000, queue.name, jobId, ENGINE_CHANNEL, `${QUERY_PUT_BACK}${runnerId}`],
  );
  return rows.length > 0;
}

/**
 * Cancels query `id` of the environment if it is not complete: its status says so at once, its job is dequeued
 * if it has not started, and its statement is cancelled if it runs. A finished, expired or unknown query is left
 * as it is. True when a query was cancelled.
 */
export async function cancelQuery(db: Db, teamId: number, id: string, jobs: QueryJobQueue): Promise<boolean> {
  return db.transaction(async (trx) => {
    // Read, locked, before it is written: Citus runs no cast to text (which depends on the session's settings) in
    // the RETURNING of a write, and the runner's session start is matched to the microsecond as text.
    const [row] = (await trx.raw(
      `select task_id, runner_pid, runner_backend_start::text as runner_backend_start from query_statuses
       where team_id = ? and id = ? and not complete and expiration_time > now()
       for update`,
      [teamId, id],
    )).rows as Array<RunnerSession & { task_id: string | null }>;
    if (!row) return false;
    await trx.raw(
      `update query_statuses
       set complete = true, error = true, error_message = ?, end_time = now(), expiration_time = now() + ${STATUS_TTL}
       where team_id = ? and id = ?`,
      [CANCELLED_MESSAGE, teamId, id],
    );
    if (row.task_id) await jobs.dequeue(trx, row.task_id);
    await cancelRunnerStatement(trx, row);
    return true;
  });
}

// ---- the runner's side ------------------------------------------------------------------------------------------

export interface PickedUpQuery {
  teamId: number;
  id: string;
  query: unknown;
  environment: EnvironmentRow;
}

/**
 * Marks the run of job `jobId` of environment `teamId` picked up; null when there is nothing to run (cancelled,
 * expired, started over for another job, or already picked up: a job runs once).
 */
export async function pickUpQuery(db: Db, teamId: number, jobId: string): Promise<PickedUpQuery | null> {
  const [row] = (await db.raw(
    `update query_statuses set pickup_time = now(), expiration_time = now() + ${STATUS_TTL}
     where team_id = ? and task_id = ? and not complete and pickup_time is null and expiration_time > now()
     returning team_id, id, query::text as query_text`,
    [teamId, jobId],
  )).rows as Array<{ team_id: number; id: string; query_text: string }>;
  if (!row) return null;
  const environment = await db<EnvironmentRow>('environments').where({ id: row.team_id }).first();
  // The environment was deleted meanwhile, and its statuses with it.
  if (!environment) return null;
  return { teamId: row.team_id, id: row.id, query: parseJson(row.query_text, MAX_JSON_DEPTH), environment };
}

/** The session the statement runs on, as pg_stat_activity knows it (backend_start as text: microseconds kept). */
export const RUNNER_SESSION_SQL = 'select pid, backend_start::text as backend_start from pg_stat_activity where pid = pg_backend_pid()';

/** Records the session that runs the statement; false when the run was cancelled or taken away meanwhile. */
export async function recordRunnerSession(db: Db, teamId: number, id: string, jobId: string, session: { pid: number; backendStart: string }): Promise<boolean> {
  const result = await db.raw(
    `update query_statuses set runner_pid = ?, runner_backend_start = ?::timestamptz, expiration_time = now() + ${STATUS_TTL}
     where team_id = ? and id = ? and task_id = ? and not complete`,
    [session.pid, session.backendStart, teamId, id, jobId],
  );
  return (result.rowCount ?? 0) > 0;
}

/**
 * Forgets the session once its statement is over, while the runner still holds it: the session goes back to its
 * pool and may run another query, which a late cancel must not hit. A cancel that already holds the row has sent
 * its signal before this returns (this waits for its lock), and a signal to a session between statements is
 * ignored by PostgreSQL.
 */
export async function forgetRunnerSession(db: Db, teamId: number, id: string, jobId: string): Promise<void> {
  await db.raw('update query_statuses set runner_pid = null, runner_backend_start = null where team_id = ? and id = ? and task_id = ?', [teamId, id, jobId]);
}

export type QueryOutcome = { results: unknown } | { errorMessage: string | null };

/** Records how the run of job `jobId` ended, unless it was cancelled or taken away meanwhile. */
export async function finishQuery(db: Db, teamId: number, id: string, jobId: string, outcome: QueryOutcome): Promise<boolean> {
  const failed = !('results' in outcome);
  const result = await db.raw(
    `update query_statuses
     set complete = true, error = ?, error_message = ?, results = ?::json, end_time = now(), expiration_time = now() + ${STATUS_TTL}
     where team_id = ? and id = ? and task_id = ? and not complete`,
    // PostgreSQL text cannot hold NUL, which a message quoting the query may.
    [failed, failed && outcome.errorMessage !== null ? cleanText(outcome.errorMessage) : null, failed ? null : stringifyExact(outcome.results), teamId, id, jobId],
  );
  return (result.rowCount ?? 0) > 0;
}

/** A run a runner has picked up and not yet finished. */
export interface RunningQuery {
  teamId: number;
  id: string;
  jobId: string;
}

/**
 * Hands the run of job `jobId` over to any engine process, for a runner whose process is stopping (not counted
 * as a takeover); false when the run was cancelled, finished or taken away meanwhile.
 */
export async function handOverQuery(db: Db, run: RunningQuery, jobs: QueryJobQueue): Promise<boolean> {
  return startOver(db, { teamId: run.teamId, id: run.id, taskId: run.jobId }, null, jobs);
}

/**
 * Keeps the statuses of the runs in flight alive (20 minutes from now): a query may run longer than a status
 * lives, and its status must still be read and cancelled until it finishes. Only a run still the status's own and
 * not complete is renewed.
 */
export async function renewRunningQueries(db: Db, runs: readonly RunningQuery[]): Promise<number> {
  if (runs.length === 0) return 0;
  const result = await db.raw(
    `update query_statuses s set expiration_time = now() + ${STATUS_TTL}
     from unnest(?::int[], ?::text[], ?::text[]) as r(team_id, id, task_id)
     where s.team_id = r.team_id and s.id = r.id and s.task_id = r.task_id and not s.complete and s.expiration_time > now()`,
    [runs.map((run) => run.teamId), runs.map((run) => run.id), runs.map((run) => run.jobId)],
  );
  return result.rowCount ?? 0;
}

/** Deletes expired statuses, a batch at a time; how many were deleted. */
export async function deleteExpiredQueryStatuses(db: Db, batchSize = 1000): Promise<number> {
  let deleted = 0;
  for (;;) {
    const result = await db.raw(
      `delete from query_statuses where (team_id, id) in (
         select team_id, id from query_statuses where expiration_time <= now() limit ?)`,
      [batchSize],
    );
    deleted += result.rowCount ?? 0;
    if ((result.rowCount ?? 0) < batchSize) return deleted;
  }
}
