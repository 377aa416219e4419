/**
 * Batch exports, runs and backfills as the API answers them: secrets stripped from the destination's config,
 * the stored interval_offset shown as offset_day/offset_hour, bigint counters as numbers.
 */
import type { components } from '../../generated/api.js';
import type { BackfillWithProgress } from '../../db/queries/batch-exports/exports.js';
import { INTERVAL_SECONDS, type BatchExportRow, type BatchExportRunRow } from '../../db/queries/batch-exports/rows.js';
import { offsetsOf, publicConfig } from './validation.js';

type BatchExport = components['schemas']['BatchExport'];
type BatchExportRun = components['schemas']['BatchExportRun'];
type BatchExportBackfill = components['schemas']['BatchExportBackfill'];

const iso = (date: Date | null): string | null => (date ? date.toISOString() : null);
const count = (value: string | number | null): number | null => (value === null ? null : Number(value));

export function presentRun(run: BatchExportRunRow): BatchExportRun {
  return {
    id: run.id,
    status: run.status,
    records_completed: count(run.records_completed),
    records_failed: count(run.records_failed),
    latest_error: run.latest_error,
    data_interval_start: iso(run.data_interval_start),
    data_interval_end: run.data_interval_end.toISOString(),
    cursor: run.cursor,
    created_at: run.created_at.toISOString(),
    finished_at: iso(run.finished_at),
    last_updated_at: run.last_updated_at.toISOString(),
    records_total_count: count(run.records_total_count),
    bytes_exported: count(run.bytes_exported),
    batch_export: run.batch_export_id,
    backfill: run.backfill_id,
  };
}

export function presentExport(row: BatchExportRow, runs: readonly BatchExportRunRow[]): BatchExport {
  return {
    id: row.id,
    team_id: row.team_id,
    name: row.name,
    model: row.model,
    destination: { type: row.destination_type, config: publicConfig(row.destination_type, row.destination_config) },
    interval: row.interval,
    paused: row.paused,
    created_at: row.created_at.toISOString(),
    last_updated_at: row.last_updated_at.toISOString(),
    last_paused_at: iso(row.last_paused_at),
    start_at: iso(row.start_at),
    end_at: iso(row.end_at),
    latest_runs: runs.map(presentRun),
    hogql_query: row.hogql_query ?? '',
    schema: row.schema ?? null,
    filters: row.filters ?? null,
    timezone: row.timezone,
    ...offsetsOf(row.interval, row.interval_offset),
  };
}

/**
 * A backfill with its progress: the runs its window holds (one when it has no start) and how many of them
 * have Completed or Failed; null while the window has no end, so that the number of runs is not known.
 */
export function presentBackfill(row: BackfillWithProgress, interval: BatchExportRow['interval']): BatchExportBackfill {
  const start = row.adjusted_start_at ?? row.start_at;
  let progress: BatchExportBackfill['progress'] = null;
  if (row.end_at) {
    const totalRuns = start
      ? Math.max(0, Math.ceil((row.end_at.getTime() - start.getTime()) / (INTERVAL_SECONDS[interval] * 1000)))
      : 1;
    const finishedRuns = Math.min(row.finished_runs, totalRuns);
    progress = { total_runs: totalRuns, finished_runs: finishedRuns, progress: totalRuns === 0 ? 1 : finishedRuns / totalRuns };
  }
  return {
    id: row.id,
    batch_export: row.batch_export_id,
    team: row.team_id,
    start_at: iso(row.start_at),
    end_at: iso(row.end_at),
    adjusted_start_at: iso(row.adjusted_start_at),
    status: row.status,
    total_records_count: count(row.total_records_count),
    created_at: row.created_at.toISOString(),
    finished_at: iso(row.finished_at),
    last_updated_at: row.last_updated_at.toISOString(),
    progress,
  };
}
