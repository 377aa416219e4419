/**
 * Batch export rows as the tables hold them, for tests that hand a destination or the records source a run
 * without going through the API or the engine. Neither is inserted: callers that need the rows stored insert them.
 */
import { randomUUID } from 'node:crypto';
import type { BatchExportRow, BatchExportRunRow } from '../../db/queries/batch-exports/rows.js';

/** An hourly events export of the environment `teamId` to NoOp, changed by `overrides`. */
export function exportRow(teamId: number, overrides: Partial<BatchExportRow> = {}): BatchExportRow {
  const now = new Date();
  return {
    id: randomUUID(),
    team_id: teamId,
    name: 'export',
    model: 'events',
    destination_type: 'NoOp',
    destination_config: {},
    interval: 'hour',
    interval_offset: 0,
    timezone: 'UTC',
    paused: false,
    deleted: false,
    created_at: now,
    last_updated_at: now,
    last_paused_at: null,
    schedule_from: null,
    start_at: null,
    end_at: null,
    hogql_query: null,
    schema: null,
    filters: null,
    created_by: null,
    ...overrides,
  };
}

/** A run of `batchExport` over the window, Running its first attempt under a backfill, changed by `overrides`. */
export function runRow(
  batchExport: BatchExportRow,
  window: { start: Date | null; end: Date },
  overrides: Partial<BatchExportRunRow> = {},
): BatchExportRunRow {
  const now = new Date();
  return {
    id: randomUUID(),
    team_id: batchExport.team_id,
    batch_export_id: batchExport.id,
    backfill_id: randomUUID(),
    status: 'Running',
    data_interval_start: window.start,
    data_interval_end: window.end,
    records_completed: null,
    records_failed: null,
    records_total_count: null,
    bytes_exported: null,
    latest_error: null,
    cursor: null,
    attempts: 1,
    job_id: null,
    created_at: now,
    finished_at: null,
    last_updated_at: now,
    ...overrides,
  };
}
