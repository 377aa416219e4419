/**
 * The batch export API's statements: exports (create, read, change, pause, soft delete), their backfills and
 * their runs. Every write that the engine (handlers/jobs/) must react to calls notifyEngine in its transaction;
 * the API never runs anything itself.
 */
import type { Knex } from 'knex';
import type { Db } from '../../pg/client.js';
import { keysetPage, paginate, type KeysetPosition, type Page, type Positioned } from '../../pagination.js';
import { uuidv7 } from '../../core/uuid.js';
import { UUID_PATTERN } from '../../core/text.js';
import { translated } from '../../pg/errors.js';
import { errors } from '../../core/errors.js';
import { notifyEngine } from './notify.js';
import { exportRecordsQuery } from './records.js';
import { InvalidExportSettingsError } from './records-query.js';
import type {
  BatchExportBackfillRow,
  BatchExportInterval,
  BatchExportRow,
  BatchExportRunRow,
  RunStatus,
} from './rows.js';
import { INTERVAL_SECONDS } from './rows.js';

/** Where an export is looked for: one environment, or every environment of an organization the caller may see. */
export type ExportScope = { teamId: number } | { organizationId: string; teamIds: readonly number[] | null };

/** How many runs an export shows as latest_runs. */
export const LATEST_RUNS = 10;

const UNFINISHED: readonly RunStatus[] = ['Starting', 'Running'];

/** An export, a backfill or a run as its statements find it: by its environment (Citus's distribution key) and id. */
export type TenantRow = Pick<BatchExportRow, 'id' | 'team_id'>;

function scoped(db: Db | Knex.Transaction, scope: ExportScope): Knex.QueryBuilder {
  const query = db('batch_exports as b').where('b.deleted', false);
  if ('teamId' in scope) return query.where('b.team_id', scope.teamId);
  query.whereIn('b.team_id', db('environments').select('id').where('organization_id', scope.organizationId));
  if (scope.teamIds) query.whereIn('b.team_id', [...scope.teamIds]);
  return query;
}

export async function listExports(db: Db, scope: ExportScope, page: Page): Promise<{ rows: BatchExportRow[]; count: number }> {
  const query = scoped(db, scope).select('b.*').orderBy([{ column: 'b.created_at', order: 'desc' }, { column: 'b.id', order: 'desc' }]);
  return paginate<BatchExportRow>(query, page);
}

/** The export, unless it is deleted or outside the scope. */
export async function findExport(db: Db | Knex.Transaction, scope: ExportScope, id: string): Promise<BatchExportRow | null> {
  if (!UUID_PATTERN.test(id)) return null;
  const row = (await scoped(db, scope).select('b.*').where('b.id', id).first()) as BatchExportRow | undefined;
  return row ?? null;
}

/**
 * The 10 most recent runs of each export, newest (by created_at) first. The window is partitioned by team_id too
 * (an export's runs are all of its environment): Citus pushes a window down to the shards only then.
 */
export async function latestRuns(db: Db, exports: readonly TenantRow[]): Promise<Map<string, BatchExportRunRow[]>> {
  const byExport = new Map<string, BatchExportRunRow[]>(exports.map((row) => [row.id, []]));
  if (exports.length === 0) return byExport;
  const rows = (await db
    .select('*')
    .from(
      db('batch_export_runs')
        .select('*', db.raw('row_number() over (partition by team_id, batch_export_id order by created_at desc, id desc) as position'))
        .whereIn('team_id', [...new Set(exports.map((row) => row.team_id))])
        .whereIn('batch_export_id', exports.map((row) => row.id))
        .as('ranked'),
    )
    .where('position', '<=', LATEST_RUNS)
    .orderBy([{ column: 'batch_export_id' }, { column: 'position' }])) as (BatchExportRunRow & { position: string })[];
  for (const ranked of rows) {
    const run: Partial<typeof ranked> = { ...ranked };
    delete run.position;
    byExport.get(ranked.batch_export_id)?.push(run as BatchExportRunRow);
  }
  return byExport;
}

/** The environments of an organization, oldest first. */
export async function environmentIdsOf(db: Db, organizationId: string): Promise<number[]> {
  const rows = await db('environments').select('id').where('organization_id', organizationId).orderBy('id');
  return rows.map((row: { id: number }) => row.id);
}

/** The user's current environment, if it belongs to this organization (null when it has none or another's). */
export async function currentEnvironmentIn(db: Db, userId: number, organizationId: string): Promise<number | null> {
  const row = (await db('users')
    .join('environments', 'environments.id', 'users.current_team_id')
    .where({ 'users.id': userId, 'environments.organization_id': organizationId })
    .first('environments.id')) as { id: number } | undefined;
  return row?.id ?? null;
}

export type NewExport = Omit<BatchExportRow, 'id' | 'deleted' | 'created_at' | 'last_updated_at' | 'schedule_from'>;

/** What PostgreSQL refuses of the caller's values (a name too long, a NUL in the config) is a 400, not a 500. */
export async function createExport(db: Db, values: NewExport): Promise<BatchExportRow> {
  return translated(() => db.transaction(async (trx) => {
    const [row] = (await trx('batch_exports')
      .insert({ ...jsonColumns(values), id: uuidv7() })
      .returning('*')) as BatchExportRow[];
    await assertRunnable(trx, row!);
    await notifyEngine(trx);
    return row!;
  }));
}

export type ExportChanges = Partial<Omit<NewExport, 'team_id' | 'created_by'>>;

export async function updateExport(db: Db, batchExport: TenantRow, changes: ExportChanges): Promise<BatchExportRow> {
  return translated(() => db.transaction(async (trx) => {
    const now = await transactionNow(trx);
    const [row] = (await trx('batch_exports')
      .where({ team_id: batchExport.team_id, id: batchExport.id })
      .update({ ...jsonColumns(changes), schedule_from: scheduleRestart(trx, changes, now), last_updated_at: trx.fn.now() })
      .returning('*')) as BatchExportRow[];
    await assertRunnable(trx, row!);
    await notifyEngine(trx);
    return row!;
  }));
}

/**
 * Refuses, before it is stored, an export that no run could carry out: the validation of its fields passed, but
 * its records query does not compile (an exported column or a filter the compiler refuses), or PostgreSQL does
 * not know its time zone (the engine's clock and backfills compute intervals in it).
 */
async function assertRunnable(trx: Knex.Transaction, row: BatchExportRow): Promise<void> {
  try {
    exportRecordsQuery(trx, { batchExport: row, start: null, end: row.created_at, selectBy: 'inserted_at' });
  } catch (error) {
    if (error instanceof InvalidExportSettingsError) {
      throw errors.validation(error.message, error.message.startsWith('Invalid HogQL') ? 'hogql_query' : error.message.startsWith('Invalid filters') ? 'filters' : 'destination');
    }
    if (row.hogql_query) throw errors.validation('Unsupported HogQL query', 'hogql_query');
    throw error;
  }
  const known = await trx.raw<{ rows: Array<{ known: boolean }> }>('select exists (select 1 from pg_timezone_names where name = ?) as known', [row.timezone]);
  if (!known.rows[0]!.known) throw errors.validation(`"${row.timezone}" is not a valid choice.`, 'timezone', 'invalid_choice');
}

/**
 * The transaction's now(), read apart: Citus refuses now() inside a CASE of an UPDATE, and the value is the one
 * now() has for the rest of the transaction.
 */
async function transactionNow(trx: Knex.Transaction): Promise<string> {
  // As text: a Date would lose the microseconds.
  const { rows } = (await trx.raw('select now()::text as now')) as { rows: Array<{ now: string }> };
  return rows[0]!.now;
}

/**
 * The export's schedule_from after an update: `now` when the update unpauses it or changes its grid of intervals
 * (interval, timezone, offset), else as it was. Written as one expression of the UPDATE, which reads the row's
 * values before the update.
 */
function scheduleRestart(trx: Knex.Transaction, changes: ExportChanges, now: string): Knex.Raw {
  return trx.raw(
    `case when (paused and not coalesce(?::boolean, paused)) or "interval" <> coalesce(?::text, "interval")
       or timezone <> coalesce(?::text, timezone) or interval_offset <> coalesce(?::integer, interval_offset)
     then ?::timestamptz else schedule_from end`,
    [changes.paused ?? null, changes.interval ?? null, changes.timezone ?? null, changes.interval_offset ?? null, now],
  );
}

/** JSON columns are written as JSON text: a bare array would otherwise be taken for a PostgreSQL array. */
function jsonColumns<T extends Partial<NewExport>>(values: T): Record<string, unknown> {
  const out: Record<string, unknown> = { ...values };
  for (const column of ['destination_config', 'schema', 'filters'] as const) {
    if (column in values) out[column] = values[column] === null ? null : JSON.stringify(values[column]);
  }
  return out;
}

/** Soft-deletes the export and cancels its unfinished backfills and their unfinished runs. */
export async function deleteExport(db: Db, batchExport: TenantRow): Promise<void> {
  const { team_id: teamId, id } = batchExport;
  await db.transaction(async (trx) => {
    await trx('batch_exports').where({ team_id: teamId, id }).update({ deleted: true, last_updated_at: trx.fn.now() });
    // Locked first, as in cancelBackfill: the engine may be starting a run of one of them.
    await trx('batch_export_backfills').where({ team_id: teamId, batch_export_id: id }).whereIn('status', UNFINISHED).forUpdate().select('id');
    const backfills = trx('batch_export_backfills').select('id').where({ team_id: teamId, batch_export_id: id }).whereIn('status', UNFINISHED);
    await trx('batch_export_runs')
      .where('team_id', teamId)
      .whereIn('backfill_id', backfills)
      .whereIn('status', UNFINISHED)
      .update({ status: 'Cancelled', finished_at: trx.fn.now(), last_updated_at: trx.fn.now() });
    await trx('batch_export_backfills')
      .where({ team_id: teamId, batch_export_id: id })
      .whereIn('status', UNFINISHED)
      .update({ status: 'Cancelled', finished_at: trx.fn.now(), last_updated_at: trx.fn.now() });
    await notifyEngine(trx);
  });
}

/** Pauses the export, recording when; an export already paused is left as it is. */
export async function pauseExport(db: Db, batchExport: TenantRow): Promise<void> {
  await db.transaction(async (trx) => {
    const changed = await trx('batch_exports')
      .where({ team_id: batchExport.team_id, id: batchExport.id, paused: false })
      .update({ paused: true, last_paused_at: trx.fn.now(), last_updated_at: trx.fn.now() });
    if (changed > 0) await notifyEngine(trx);
  });
}

/**
 * Unpauses the export. With `backfill`, what the pause missed is backfilled: from last_paused_at to now, both
 * floored to the interval, when that window is not empty.
 */
export async function unpauseExport(db: Db, row: BatchExportRow, backfill: boolean): Promise<void> {
  await db.transaction(async (trx) => {
    const changed = await trx('batch_exports')
      .where({ team_id: row.team_id, id: row.id, paused: true })
      .update({ paused: false, schedule_from: trx.fn.now(), last_updated_at: trx.fn.now() });
    if (changed === 0) return;
    if (backfill && row.last_paused_at) {
      const start = await alignToInterval(trx, row, row.last_paused_at);
      const end = await alignToInterval(trx, row, 'now');
      if (start.getTime() < end.getTime()) await insertBackfillRow(trx, row, { start, end, adjustedStart: start });
    }
    await notifyEngine(trx);
  });
}

/**
 * The instant floored to the export's interval: minutes and hours to the epoch's multiples; days and weeks
 * (Sunday first) in the export's time zone, after its offset.
 */
export async function alignToInterval(
  db: Db | Knex.Transaction,
  row: Pick<BatchExportRow, 'interval' | 'timezone' | 'interval_offset'>,
  at: Date | 'now',
): Promise<Date> {
  const instant = at === 'now' ? db.raw('now()') : db.raw('?::timestamptz', [at.toISOString()]);
  const step = INTERVAL_SECONDS[row.interval as BatchExportInterval];
  let expression: Knex.Raw;
  if (row.interval === 'day' || row.interval === 'week') {
    const local = db.raw("((? at time zone ?) - make_interval(secs => ?))", [instant, row.timezone, row.interval_offset]);
    const floored =
      row.interval === 'day'
        ? db.raw("date_trunc('day', ?)", [local])
        : db.raw("date_trunc('day', ?) - make_interval(days => extract(dow from ?)::int)", [local, local]);
    expression = db.raw('((? + make_interval(secs => ?)) at time zone ?)', [floored, row.interval_offset, row.timezone]);
  } else {
    expression = db.raw('to_timestamp(floor(extract(epoch from ?) / ?) * ?)', [instant, step, step]);
  }
  const { rows } = (await db.raw('select ? as aligned', [expression])) as { rows: { aligned: Date }[] };
  return rows[0]!.aligned;
}

/** The time of the environment's earliest data of the export's model, or null when it has none. */
export async function earliestData(db: Db, row: BatchExportRow): Promise<Date | null> {
  let query: Knex.QueryBuilder;
  if (row.model === 'persons') query = db('persons').min('created_at as earliest').where('team_id', row.team_id);
  else if (row.model === 'sessions') {
    query = db('events').min('timestamp as earliest').where('team_id', row.team_id).whereRaw("properties ->> '$session_id' is not null");
  } else query = db('events').min('timestamp as earliest').where('team_id', row.team_id);
  const result = (await query.first()) as { earliest: Date | null } | undefined;
  return result?.earliest ?? null;
}

async function insertBackfillRow(
  trx: Knex.Transaction,
  row: BatchExportRow,
  window: { start: Date | null; end: Date | null; adjustedStart: Date | null },
): Promise<string> {
  const id = uuidv7();
  await trx('batch_export_backfills').insert({
    id,
    batch_export_id: row.id,
    team_id: row.team_id,
    start_at: window.start,
    end_at: window.end,
    adjusted_start_at: window.adjustedStart,
    status: 'Starting',
  });
  return id;
}

/** Inserts a `Starting` backfill for the engine to split and run; returns its id. */
export async function createBackfill(
  db: Db,
  row: BatchExportRow,
  window: { start: Date | null; end: Date | null; adjustedStart: Date | null },
): Promise<string> {
  return db.transaction(async (trx) => {
    const id = await insertBackfillRow(trx, row, window);
    await notifyEngine(trx);
    return id;
  });
}

export interface BackfillWithProgress extends BatchExportBackfillRow {
  finished_runs: number;
}

function backfillsOf(db: Db, batchExport: TenantRow): Knex.QueryBuilder {
  const finished = db('batch_export_runs as r')
    .count('*')
    .whereRaw('r.team_id = f.team_id and r.backfill_id = f.id')
    .whereIn('r.status', ['Completed', 'Failed']);
  return db('batch_export_backfills as f')
    .select('f.*', finished.as('finished_runs'))
    .where({ 'f.team_id': batchExport.team_id, 'f.batch_export_id': batchExport.id });
}

const withCount = (row: BatchExportBackfillRow & { finished_runs: string | number }): BackfillWithProgress => ({
  ...row,
  finished_runs: Number(row.finished_runs),
});

/** One page of the export's backfills, newest first, keyed on (created_at, id) as the runs are. */
export async function listBackfillsPage(
  db: Db,
  batchExport: TenantRow,
  page: { position: KeysetPosition | null; limit: number },
): Promise<{ rows: Positioned<BackfillWithProgress>[]; more: boolean }> {
  const order = { column: 'f.created_at', idColumn: 'f.id', descending: true };
  const { rows, more } = await translated(() =>
    keysetPage<BatchExportBackfillRow & { finished_runs: string }>(db, backfillsOf(db, batchExport), order, page.position, page.limit),
  );
  return { rows: rows.map((row) => ({ ...withCount(row), position_value: row.position_value })), more };
}

export async function findBackfill(db: Db, batchExport: TenantRow, id: string): Promise<BackfillWithProgress | null> {
  if (!UUID_PATTERN.test(id)) return null;
  const row = (await backfillsOf(db, batchExport).where('f.id', id).first()) as (BatchExportBackfillRow & { finished_runs: string }) | undefined;
  return row ? withCount(row) : null;
}

/** Cancels the backfill and its unfinished runs. */
export async function cancelBackfill(db: Db, backfill: TenantRow): Promise<void> {
  const { team_id: teamId, id } = backfill;
  await db.transaction(async (trx) => {
    // The engine advances a backfill under this row's lock: taken first, no run it starts meanwhile is missed.
    await trx('batch_export_backfills').where({ team_id: teamId, id }).forUpdate().first('id');
    await trx('batch_export_runs')
      .where({ team_id: teamId, backfill_id: id })
      .whereIn('status', UNFINISHED)
      .update({ status: 'Cancelled', finished_at: trx.fn.now(), last_updated_at: trx.fn.now() });
    await trx('batch_export_backfills')
      .where({ team_id: teamId, id })
      .update({ status: 'Cancelled', finished_at: trx.fn.now(), last_updated_at: trx.fn.now() });
    await notifyEngine(trx);
  });
}

/**
 * A moment bounding a runs listing: an instant, a wall-clock time in a time zone, or a span before now (an
 * interval PostgreSQL reads, so that months and years keep their calendar length).
 */
export type RunsBound =
  | { kind: 'instant'; at: string }
  | { kind: 'local'; at: string; timezone: string }
  | { kind: 'ago'; interval: string };

/** The orders runs can be listed in, as PostHog's ordering_fields: by when they were created or their interval. */
export type RunsOrderColumn = 'created_at' | 'data_interval_start';

export interface RunsQuery {
  orderBy: RunsOrderColumn;
  descending: boolean;
  /** Bounds of created_at when ordered by it; of data_interval_start and data_interval_end otherwise. */
  after: RunsBound;
  before: RunsBound | null;
  statuses: readonly RunStatus[] | null;
  position: KeysetPosition | null;
  limit: number;
}

/** One page of runs in the query's window, keyed on (ordering column, id). */
export async function listRunsPage(
  db: Db,
  batchExport: TenantRow,
  query: RunsQuery,
): Promise<{ rows: Positioned<BatchExportRunRow>[]; more: boolean }> {
  const bound = (value: RunsBound) => {
    if (value.kind === 'instant') return db.raw('?::timestamptz', [value.at]);
    if (value.kind === 'local') return db.raw('(?::timestamp at time zone ?)', [value.at, value.timezone]);
    return db.raw('(now() - ?::interval)', [value.interval]);
  };
  const builder = db('batch_export_runs').select('*').where({ team_id: batchExport.team_id, batch_export_id: batchExport.id });
  const end = query.before ? bound(query.before) : db.fn.now();
  if (query.orderBy === 'created_at') builder.where('created_at', '>=', bound(query.after)).where('created_at', '<=', end);
  else builder.where('data_interval_start', '>=', bound(query.after)).where('data_interval_end', '<=', end);
  if (query.statuses) builder.whereIn('status', [...query.statuses]);
  const order = { column: query.orderBy, idColumn: 'id', descending: query.descending };
  return translated(() => keysetPage<BatchExportRunRow>(db, builder, order, query.position, query.limit));
}

export async function findRun(db: Db, batchExport: TenantRow, id: string): Promise<BatchExportRunRow | null> {
  if (!UUID_PATTERN.test(id)) return null;
  const row = (await db('batch_export_runs').where({ team_id: batchExport.team_id, batch_export_id: batchExport.id, id }).first()) as BatchExportRunRow | undefined;
  return row ?? null;
}

/**
 * Marks the run Cancelled if it is still Starting or Running; the engine sees it and aborts the run. Answers the
 * status the run was in when that was not so.
 */
export async function cancelRun(db: Db, run: TenantRow): Promise<{ cancelled: true } | { cancelled: false; status: RunStatus }> {
  const { team_id: teamId, id } = run;
  return db.transaction(async (trx) => {
    const current = (await trx('batch_export_runs').select('status').where({ team_id: teamId, id }).forUpdate().first()) as { status: RunStatus };
    if (!UNFINISHED.includes(current.status)) return { cancelled: false, status: current.status };
    await trx('batch_export_runs')
      .where({ team_id: teamId, id })
      .update({ status: 'Cancelled', finished_at: trx.fn.now(), last_updated_at: trx.fn.now() });
    await notifyEngine(trx);
    return { cancelled: true };
  });
}
