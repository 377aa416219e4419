/**
 * The records a batch export run exports: the rows of its model (events, persons, sessions) in its window, as one
 * parameterised SELECT. Destinations read them either in batches through a server-side cursor
 * (readExportRecords: bounded memory whatever the window holds) or as that SELECT itself, for a destination
 * that streams it with COPY (exportRecordsQuery).
 *
 * Values from the export (team, window, filters, the HogQL select list) are always bound parameters, never text.
 */
import type { Knex } from 'knex';
import type { Db } from '../../pg/client.js';
import type { BatchExportRow, ExportRecord } from './rows.js';

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

/** Rows per batch when the caller does not say. */
export const DEFAULT_BATCH_SIZE = 10_000;

/** The events model's columns without a hogql_query, in PostHog's order plus Hedgerow's own team_id. */
export const EVENT_RECORD_COLUMNS = [
  'uuid',
  'team_id',
  'timestamp',
  '_inserted_at',
  'created_at',
  'event',
  'properties',
  'distinct_id',
  'elements_chain',
  'person_id',
  'person_properties',
  'set',
  'set_once',
] as const;

/** The SQL of each default events column over `events e` and the current person `p`. */
const EVENT_COLUMN_SQL: Readonly<Record<(typeof EVENT_RECORD_COLUMNS)[number], string>> = {
  uuid: 'e.uuid::text',
  team_id: 'e.team_id',
  timestamp: 'e."timestamp"',
  _inserted_at: 'e.inserted_at',
  created_at: 'e.inserted_at',
  event: 'e.event',
  properties: 'e.properties',
  distinct_id: 'e.distinct_id',
  elements_chain: 'e.elements_chain',
  person_id: 'e.person_id::text',
  person_properties: 'p.properties',
  set: "e.properties -> '$set'",
  set_once: "e.properties -> '$set_once'",
};

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** The window's condition on `column`: [start, end), or everything before end when there is no start. */
function windowCondition(column: string, request: RecordsRequest): { text: string; bindings: unknown[] } {
  const end = request.end.toISOString();
  if (request.start === null) return { text: `${column} < ?::timestamptz`, bindings: [end] };
  return { text: `${column} >= ?::timestamptz and ${column} < ?::timestamptz`, bindings: [request.start.toISOString(), end] };
}

function eventsQuery(request: RecordsRequest): RecordsQuery {
  const { batchExport } = request;
  const selected = request.selectBy === 'inserted_at' ? 'e.inserted_at' : 'e."timestamp"';
  const window = windowCondition(selected, request);
  const select = EVENT_RECORD_COLUMNS.map((column) => `${EVENT_COLUMN_SQL[column]} as ${quoteIdentifier(column)}`).join(', ');
  const sql = `select ${select}
    from events e
    left join person_distinct_ids pdi on pdi.team_id = e.team_id and pdi.distinct_id = e.distinct_id
    left join persons p on p.id = pdi.person_id
    where e.team_id = ?::int and ${window.text}
    order by ${selected}, e.uuid`;
  return { sql, bindings: [batchExport.team_id, ...window.bindings], columns: [...EVENT_RECORD_COLUMNS] };
}

/** The same selection as one parameterised SELECT, for COPY (…) TO STDOUT fast paths. */
export function exportRecordsQuery(_db: Db, request: RecordsRequest): RecordsQuery {
  switch (request.batchExport.model) {
    case 'events':
      return eventsQuery(request);
    default:
      throw new Error(`batch exports of the ${request.batchExport.model} model cannot be read yet`);
  }
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new Error('The batch export run was aborted');
}

/**
 * The records of the window in batches of at most `batchSize`, read through a cursor in one read-only
 * transaction: a consistent snapshot of the window, never more than one batch in memory. Stopping the iteration
 * early (break, an error, the signal) closes the cursor and ends the transaction.
 */
export async function* readExportRecords(
  db: Db,
  request: RecordsRequest,
  options: { batchSize?: number; signal?: AbortSignal } = {},
): AsyncIterable<ExportRecord[]> {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  if (!Number.isSafeInteger(batchSize) || batchSize < 1) throw new Error(`a batch size must be a positive integer: ${batchSize}`);
  const { signal } = options;
  if (signal?.aborted) throw abortReason(signal);
  const query = exportRecordsQuery(db, request);
  const trx: Knex.Transaction = await db.transaction(undefined, { readOnly: true });
  try {
    await trx.raw(`declare export_records no scroll cursor for ${query.sql}`, query.bindings as Knex.RawBinding[]);
    for (;;) {
      if (signal?.aborted) throw abortReason(signal);
      const result = await trx.raw(`fetch forward ${batchSize} from export_records`);
      const rows = (result as { rows: ExportRecord[] }).rows;
      if (rows.length === 0) break;
      yield rows;
      if (rows.length < batchSize) break;
    }
    await trx.commit();
  } finally {
    if (!trx.isCompleted()) await trx.rollback().catch(() => undefined);
  }
}
