/**
 * What every model's records query shares: the run's request (its export and window), the query it becomes, the
 * error of settings a retry cannot mend, and the window's condition.
 *
 * Values from the export (team, window, filters, the HogQL select list) are always bound parameters, never text.
 */
import { keyword, param, sql, type Fragment } from '../../hogql/sql.js';
import type { BatchExportRow } from './rows.js';

export interface RecordsRequest {
  batchExport: BatchExportRow;
  /** null = from the beginning (an earliest backfill). */
  start: Date | null;
  end: Date;
  /** Scheduled runs select by ingestion time, backfills by event time. */
  selectBy: 'inserted_at' | 'timestamp';
}

export interface RecordsQuery {
  /** Knex `?` placeholders, in text order. */
  sql: string;
  bindings: unknown[];
  /** The record's columns, in the order the SELECT lists them. */
  columns: string[];
}

/** Export settings that are not the export's shape: wrong ones fail the run, and retrying cannot mend them. */
export class InvalidExportSettingsError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'InvalidExportSettingsError';
  }
}

export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** The window's condition on `column`: [start, end), or everything before end when there is no start. */
export function windowCondition(column: string, request: RecordsRequest): Fragment {
  const end = param(request.end.toISOString(), 'timestamptz');
  const on = keyword(column);
  if (request.start === null) return sql`${on} < ${end}`;
  return sql`${on} >= ${param(request.start.toISOString(), 'timestamptz')} and ${on} < ${end}`;
}

export function asQuery(fragment: Fragment, columns: string[]): RecordsQuery {
  return { sql: fragment.text, bindings: [...fragment.params], columns };
}
