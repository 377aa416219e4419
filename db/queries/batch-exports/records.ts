/**
 * The records a batch export run exports: the rows of its model (events, persons, sessions; each model's SQL in
 * event-records.ts, person-records.ts, session-records.ts) in its window, as one parameterised SELECT.
 * Destinations read them either in batches through a server-side cursor (readExportRecords: bounded memory
 * whatever the window holds) or as that SELECT itself, for a destination that streams it with COPY
 * (exportRecordsQuery), or as JSON lines PostgreSQL writes itself (readJsonLines).
 */
import type { Knex } from 'knex';
import type { Readable } from 'node:stream';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { PRECISE_TIME_TYPES } from '../../pg/precise-time.js';
import { connectionStringOf, type Db } from '../../pg/client.js';
import { eventsQuery } from './event-records.js';
import { personsQuery } from './person-records.js';
import { InvalidExportSettingsError, type RecordsQuery, type RecordsRequest } from './records-query.js';
import type { ExportRecord } from './rows.js';
import { sessionsQuery } from './session-records.js';

/**
 * The application_name of every session or transaction that reads a run's records (all read-only): the wait
 * for transactions that might still write into an interval leaves them out.
 */
export const EXPORT_READER_NAME = 'hedgerow batch export reader';

/** Rows per batch when the caller does not say. */
export const DEFAULT_BATCH_SIZE = 10_000;

/** How long one fetch of records may run when the caller does not say. */
export const RECORDS_STATEMENT_TIMEOUT_MS = 600_000;

/**
 * The same selection as one parameterised SELECT, for COPY (…) TO STDOUT fast paths. `ordered: false` leaves out
 * the ORDER BY, for a reader that loads the whole window at once and would only pay for the sort.
 */
export function exportRecordsQuery(_db: Db, request: RecordsRequest, options: { ordered?: boolean } = {}): RecordsQuery {
  const ordered = options.ordered ?? true;
  switch (request.batchExport.model) {
    case 'events':
      return eventsQuery(request, ordered);
    case 'persons':
      return personsQuery(request, ordered);
    case 'sessions':
      return sessionsQuery(request, ordered);
    default:
      throw new InvalidExportSettingsError(`Batch exports of the model "${String(request.batchExport.model)}" are not supported.`);
  }
}

/** How many records the window holds: a run's `records_total_count`, known before it writes anything. */
export async function countExportRecords(db: Db, request: RecordsRequest): Promise<number> {
  const query = exportRecordsQuery(db, request, { ordered: false });
  const result = await db.raw<{ rows: Array<{ total: string }> }>(`select count(*) as total from (${query.sql}) records`, query.bindings as Knex.RawBinding[]);
  return Number(result.rows[0]!.total);
}

/** A binding of a records query as a literal of its text, for COPY (which takes no parameters). */
function literal(client: { escapeLiteral(text: string): string }, value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (value instanceof Date) return client.escapeLiteral(value.toISOString());
  if (Array.isArray(value)) {
    // PostgreSQL's array literal: each element double-quoted, with \ and " escaped.
    const elements = value.map((item) => (item === null ? 'NULL' : `"${String(item).replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`));
    return client.escapeLiteral(`{${elements.join(',')}}`);
  }
  if (typeof value === 'object') return client.escapeLiteral(JSON.stringify(value));
  return client.escapeLiteral(String(value));
}

/** A records query with its bindings written in as literals. */
export function inlineRecordsQuery(db: Db, query: RecordsQuery, client: { escapeLiteral(text: string): string }): string {
  const literals = query.bindings.map((value) => db.raw(literal(client, value)));
  return db.raw(query.sql, literals).toQuery();
}

export interface JsonLinesCopy {
  /** The lines, each ending in `\n`, exactly as the query's one text column holds them. */
  lines: Readable;
  /** Ends the session; a COPY still running is cut off. */
  close(): Promise<void>;
}

/**
 * Streams a one-text-column query (exportJsonLinesQuery) with COPY … TO STDOUT in a session of its own: one
 * statement, so one snapshot of the window, with the socket's backpressure bounding what is held. CSV with a
 * quote and a delimiter that JSON text never holds raw (PostgreSQL escapes every control character in JSON
 * strings) leaves each value unquoted and unescaped: the bytes are PostgreSQL's text, a line per row.
 */
export async function readJsonLines(db: Db, query: RecordsQuery): Promise<JsonLinesCopy> {
  if (query.columns.length !== 1) throw new Error('JSON lines are read from a query of one column');
  // Named as every records reader is, so that runs waiting for open writers leave this session out (runs.ts).
  const client = new pg.Client({ connectionString: connectionStringOf(db), application_name: EXPORT_READER_NAME });
  // A failure of the session surfaces through the COPY stream; without a listener it would crash the process.
  client.on('error', () => undefined);
  await client.connect();
  try {
    const select = inlineRecordsQuery(db, query, client);
    const lines = client.query(copyTo(`copy (${select}) to stdout with (format csv, quote e'\\x01', delimiter e'\\x02')`));
    return { lines, close: () => client.end().catch(() => undefined) };
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
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
  options: { batchSize?: number; signal?: AbortSignal; statementTimeoutMs?: number } = {},
): AsyncIterable<ExportRecord[]> {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const timeoutMs = options.statementTimeoutMs ?? RECORDS_STATEMENT_TIMEOUT_MS;
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1) throw new Error(`a statement timeout must be a positive integer: ${timeoutMs}`);
  if (!Number.isSafeInteger(batchSize) || batchSize < 1) throw new Error(`a batch size must be a positive integer: ${batchSize}`);
  const { signal } = options;
  if (signal?.aborted) throw abortReason(signal);
  const query = exportRecordsQuery(db, request);
  const trx: Knex.Transaction = await db.transaction(undefined, { readOnly: true });
  try {
    // The API's statement deadline is for requests; a run's first fetch may have to sort or group the window.
    await trx.raw(`set local statement_timeout = ${timeoutMs}`);
    // Named, so that runs waiting for open writers know this read-only transaction can never write (runs.ts).
    await trx.raw(`set local application_name = '${EXPORT_READER_NAME}'`);
    await trx.raw(`declare export_records no scroll cursor for ${query.sql}`, query.bindings as Knex.RawBinding[]);
    for (;;) {
      if (signal?.aborted) throw abortReason(signal);
      // Timestamps to the microsecond: the files written from these records show them, as PostHog's do.
      const result = await trx
        .raw(`fetch forward ${batchSize} from export_records`)
        .options({ query_timeout: timeoutMs + 1_000, types: PRECISE_TIME_TYPES });
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
