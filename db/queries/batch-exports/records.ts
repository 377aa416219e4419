/**
 * The records a batch export run exports: the rows of its model (events, persons, sessions) in its window, as one
 * parameterised SELECT. Destinations read them either in batches through a server-side cursor
 * (readExportRecords: bounded memory whatever the window holds) or as that SELECT itself, for a destination
 * that streams it with COPY (exportRecordsQuery), or as JSON lines PostgreSQL writes itself (readJsonLines).
 *
 * Values from the export (team, window, filters, the HogQL select list) are always bound parameters, never text.
 */
import type { Knex } from 'knex';
import type { Readable } from 'node:stream';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { PRECISE_TIME_TYPES } from '../../pg/precise-time.js';
import { connectionStringOf, type Db } from '../../pg/client.js';
import { Compiler, compilePropertyGroup, HogQLError, parsePropertyFilters, parseSelectItem, type SelectItem } from '../../hogql/index.js';
import { tokenize, withoutComments } from '../../hogql/parser.js';
import { join, keyword, param, sql, textArrayParam, type Fragment } from '../../hogql/sql.js';
import type { Expr } from '../../hogql/ast.js';
import type { Typed } from '../../hogql/types.js';
import type { BatchExportRow, ExportRecord } from './rows.js';

/**
 * The application_name of every session or transaction that reads a run's records (all read-only): the wait
 * for transactions that might still write into an interval leaves them out.
 */
export const EXPORT_READER_NAME = 'hedgerow batch export reader';

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

/** How long one fetch of records may run when the caller does not say. */
export const RECORDS_STATEMENT_TIMEOUT_MS = 600_000;

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

/** The SQL of each default events column over `events e`. */
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
  // As stored at capture (HogQL's `poe.properties` reads the same), not the person's properties of today.
  person_properties: 'e.person_properties',
  set: "e.properties -> '$set'",
  set_once: "e.properties -> '$set_once'",
};

/** The export source's columns that only exist here, and not among HogQL's fields of events. */
const EXPORT_ONLY_COLUMNS = ['_inserted_at', 'inserted_at', 'created_at', 'team_id', 'set', 'set_once', 'person_properties'] as const;

function exportOnlyColumn(expr: Expr): (typeof EVENT_RECORD_COLUMNS)[number] | null {
  if (expr.kind !== 'field' || expr.chain.length !== 1) return null;
  const name = expr.chain[0];
  if (!(EXPORT_ONLY_COLUMNS as readonly unknown[]).includes(name)) return null;
  return name === 'inserted_at' ? '_inserted_at' : (name as (typeof EVENT_RECORD_COLUMNS)[number]);
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** The window's condition on `column`: [start, end), or everything before end when there is no start. */
function windowCondition(column: string, request: RecordsRequest): Fragment {
  const end = param(request.end.toISOString(), 'timestamptz');
  const on = keyword(column);
  if (request.start === null) return sql`${on} < ${end}`;
  return sql`${on} >= ${param(request.start.toISOString(), 'timestamptz')} and ${on} < ${end}`;
}

function asQuery(fragment: Fragment, columns: string[]): RecordsQuery {
  return { sql: fragment.text, bindings: [...fragment.params], columns };
}

/** Export settings that are not the export's shape: wrong ones fail the run, and retrying cannot mend them. */
export class InvalidExportSettingsError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'InvalidExportSettingsError';
  }
}

function eventNames(config: Record<string, unknown>, key: 'include_events' | 'exclude_events'): string[] {
  const value = config[key];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((name) => typeof name === 'string')) {
    throw new InvalidExportSettingsError(`${key} must be a list of event names.`);
  }
  return value as string[];
}

/**
 * The items of a stored `SELECT <items> FROM events`, each parsed by the HogQL parser. The API validated the text
 * when it was written; it is read again here because the text, not a compiled form, is what is stored.
 */
export function hogqlSelectItems(stored: string): SelectItem[] {
  try {
    // The items are cut out of the text by position, so comments go first.
    const query = withoutComments(stored);
    const tokens = tokenize(query);
    const first = tokens[0]!;
    if (first.type !== 'ident' || first.quoted || first.value.toLowerCase() !== 'select') {
      throw new HogQLError('The query must begin with SELECT.');
    }
    const itemStarts = [tokens[1]!.pos];
    const itemEnds: number[] = [];
    let depth = 0;
    let fromIndex = -1;
    for (let index = 1; index < tokens.length && fromIndex === -1; index += 1) {
      const token = tokens[index]!;
      if (token.type === 'op' && (token.value === '(' || token.value === '[')) depth += 1;
      else if (token.type === 'op' && (token.value === ')' || token.value === ']')) depth -= 1;
      else if (depth === 0 && token.type === 'op' && token.value === ',') {
        itemEnds.push(token.pos);
        itemStarts.push(tokens[index + 1]!.pos);
      } else if (depth === 0 && token.type === 'ident' && !token.quoted && token.value.toLowerCase() === 'from') {
        itemEnds.push(token.pos);
        fromIndex = index;
      }
    }
    // Only the select list defines what is exported, as in PostHog: what follows the table (a WHERE, a LIMIT) is
    // checked when the export is written and not applied.
    const table = tokens[fromIndex + 1];
    if (fromIndex === -1 || table?.type !== 'ident' || table.value !== 'events') {
      throw new HogQLError('The query must be SELECT … FROM events.');
    }
    return itemStarts.map((start, index) => parseSelectItem(query.slice(start, itemEnds[index])));
  } catch (error) {
    if (error instanceof HogQLError) throw new InvalidExportSettingsError(`Invalid HogQL query: ${error.message}`, { cause: error });
    throw error;
  }
}

/** A compiled select item as a record value: timestamps stay timestamps, uuids and intervals become text. */
function recordValue(value: Typed): Fragment {
  switch (value.type) {
    case 'uuid':
    case 'interval':
      return sql`(${value.sql})::text`;
    case 'date':
      return sql`to_char(${value.sql}, 'YYYY-MM-DD')`;
    default:
      return value.sql;
  }
}

function eventColumns(batchExport: BatchExportRow): { select: Fragment; columns: string[] } {
  if (batchExport.hogql_query === null || batchExport.hogql_query.trim() === '') {
    const select = EVENT_RECORD_COLUMNS.map((column) => keyword(`${EVENT_COLUMN_SQL[column]} as ${quoteIdentifier(column)}`));
    return { select: join(select, ', '), columns: [...EVENT_RECORD_COLUMNS] };
  }
  const items = hogqlSelectItems(batchExport.hogql_query);
  const compiler = new Compiler({ timezone: batchExport.timezone, allowAggregates: false, clause: 'select' });
  const columns: string[] = [];
  const select: Fragment[] = [];
  for (const item of items) {
    if (columns.includes(item.name)) throw new InvalidExportSettingsError(`Invalid HogQL query: the column "${item.name}" is selected twice.`);
    // The columns of PostHog's export source that HogQL's events table does not have (its `_inserted_at`, `set`,
    // `team_id`…), named on their own: the record's column as the default export writes it.
    const exportOnly = exportOnlyColumn(item.expr);
    if (exportOnly) {
      columns.push(item.name);
      select.push(sql`${keyword(EVENT_COLUMN_SQL[exportOnly])} as ${keyword(quoteIdentifier(item.name))}`);
      continue;
    }
    let value: Typed;
    try {
      value = compiler.compile(item.expr);
    } catch (error) {
      if (error instanceof HogQLError) throw new InvalidExportSettingsError(`Invalid HogQL query: ${error.message}`, { cause: error });
      throw error;
    }
    columns.push(item.name);
    select.push(sql`${recordValue(value)} as ${keyword(quoteIdentifier(item.name))}`);
  }
  if (!columns.includes('_inserted_at')) {
    columns.push('_inserted_at');
    select.push(keyword('e.inserted_at as "_inserted_at"'));
  }
  return { select: join(select, ', '), columns };
}

function eventFilters(batchExport: BatchExportRow): Fragment[] {
  const conditions: Fragment[] = [];
  const include = eventNames(batchExport.destination_config, 'include_events');
  const exclude = eventNames(batchExport.destination_config, 'exclude_events');
  if (include.length > 0) conditions.push(sql`e.event = any(${textArrayParam(include)})`);
  if (exclude.length > 0) conditions.push(sql`e.event <> all(${textArrayParam(exclude)})`);
  const filters = batchExport.filters;
  if (filters !== null && filters !== undefined && !(Array.isArray(filters) && filters.length === 0)) {
    try {
      const compiler = new Compiler({ timezone: batchExport.timezone, allowAggregates: false, clause: 'filters' });
      conditions.push(compilePropertyGroup(parsePropertyFilters(filters), compiler));
    } catch (error) {
      if (error instanceof HogQLError) throw new InvalidExportSettingsError(`Invalid filters: ${error.message}`, { cause: error });
      throw error;
    }
  }
  return conditions;
}

/** The events of the window with their current person, as `FROM … WHERE … [ORDER BY …]` after a select list. */
function eventsSource(request: RecordsRequest, ordered: boolean): Fragment {
  const { batchExport } = request;
  const selected = request.selectBy === 'inserted_at' ? 'e.inserted_at' : 'e."timestamp"';
  const conditions = [sql`e.team_id = ${param(batchExport.team_id, 'int')}`, windowCondition(selected, request), ...eventFilters(batchExport)];
  return sql`from events e
    left join person_distinct_ids pdi on pdi.team_id = e.team_id and pdi.distinct_id = e.distinct_id
    left join persons p on p.id = pdi.person_id
    where ${join(conditions, ' and ')}
    ${keyword(ordered ? `order by ${selected}, e.uuid` : '')}`;
}

function eventsQuery(request: RecordsRequest, ordered: boolean): RecordsQuery {
  const { select, columns } = eventColumns(request.batchExport);
  return asQuery(sql`select ${select} ${eventsSource(request, ordered)}`, columns);
}

const TIMESTAMP_EVENT_COLUMNS: ReadonlySet<string> = new Set(['timestamp', '_inserted_at', 'created_at']);

/**
 * A timestamptz as the record path's files show it (pg's value read to the microsecond, PRECISE_TIME_TYPES):
 * RFC 3339 in UTC with `+00:00`, the fraction as six digits and only when not zero, as PostHog writes them. One
 * to_char and one replace: date arithmetic per row would cost more than the COPY. Null stays null.
 */
function datetimeText(expression: string): string {
  return `replace(to_char((${expression}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"'), '.000000+', '+')`;
}

/**
 * The events records of the window as one JSON object per row, written by PostgreSQL with the given columns in
 * their order (json_build_object keeps it), timestamps as text, JSON columns as objects, in the record path's
 * order. The text is PostgreSQL's (spaces after `:` and `,`, numbers as stored); the reader makes it
 * JSON.stringify's. Null when the records are not the default events columns (other models, a HogQL query): they
 * are read as records.
 */
export function exportJsonLinesQuery(request: RecordsRequest, columns: readonly string[]): RecordsQuery | null {
  const { batchExport } = request;
  if (batchExport.model !== 'events' || (batchExport.hogql_query !== null && batchExport.hogql_query.trim() !== '')) return null;
  const pairs = columns.map((column) => {
    if (!(EVENT_RECORD_COLUMNS as readonly string[]).includes(column)) throw new Error(`${column} is not an events record column`);
    const expression = EVENT_COLUMN_SQL[column as (typeof EVENT_RECORD_COLUMNS)[number]];
    return `'${column}', ${TIMESTAMP_EVENT_COLUMNS.has(column) ? datetimeText(expression) : expression}`;
  });
  const query = sql`select json_build_object(${keyword(pairs.join(', '))})::text as line ${eventsSource(request, true)}`;
  return asQuery(query, ['line']);
}

export const PERSON_RECORD_COLUMNS = [
  'team_id',
  'distinct_id',
  'person_id',
  'properties',
  'person_distinct_id_version',
  'person_version',
  'created_at',
  '_inserted_at',
  'is_deleted',
] as const;

/**
 * One record per distinct id whose person or mapping changed in the window (persons.updated_at,
 * person_distinct_ids.updated_at, kept by triggers); `_inserted_at` is the change in the window, the earlier when
 * both changed. Backfills select by the same columns: persons have no other time. A merged-away person is deleted
 * and its distinct ids now point at the person they joined, so `is_deleted` is always false here.
 */
function personsQuery(request: RecordsRequest, ordered: boolean): RecordsQuery {
  const team = request.batchExport.team_id;
  const personChanged = windowCondition('p.updated_at', request);
  const mappingChanged = windowCondition('pdi.updated_at', request);
  const query = sql`select * from (
      select pdi.team_id, pdi.distinct_id, p.uuid::text as person_id, p.properties,
             pdi.version as person_distinct_id_version, p.version as person_version, p.created_at,
             least(case when ${personChanged} then p.updated_at end,
                   case when ${mappingChanged} then pdi.updated_at end) as _inserted_at,
             false as is_deleted
        from person_distinct_ids pdi
        join persons p on p.id = pdi.person_id
       where pdi.team_id = ${param(team, 'int')} and p.team_id = ${param(team, 'int')}
         and ((${personChanged}) or (${mappingChanged}))
    ) changed
    ${keyword(ordered ? 'order by _inserted_at, distinct_id' : '')}`;
  return asQuery(query, [...PERSON_RECORD_COLUMNS]);
}

/** The session's first and last non-empty values of an event property, by event time. */
function firstValue(property: string): string {
  return `(array_agg(nullif(e.properties ->> '${property}', '') order by e."timestamp", e.uuid) filter (where nullif(e.properties ->> '${property}', '') is not null))[1]`;
}
function lastValue(property: string, onlyEvents = ''): string {
  return `(array_agg(nullif(e.properties ->> '${property}', '') order by e."timestamp" desc, e.uuid desc) filter (where nullif(e.properties ->> '${property}', '') is not null${onlyEvents}))[1]`;
}

/** PostHog's entry_* click ids and campaign parameters, each the session's first value of the property. */
const ENTRY_PROPERTIES: ReadonlyArray<readonly [string, string]> = [
  ['entry_utm_source', 'utm_source'],
  ['entry_utm_campaign', 'utm_campaign'],
  ['entry_utm_medium', 'utm_medium'],
  ['entry_utm_term', 'utm_term'],
  ['entry_utm_content', 'utm_content'],
  ['entry_referring_domain', '$referring_domain'],
  ['entry_gclid', 'gclid'],
  ['entry_fbclid', 'fbclid'],
  ['entry_gad_source', 'gad_source'],
  ['entry_gclsrc', 'gclsrc'],
  ['entry_dclid', 'dclid'],
  ['entry_gbraid', 'gbraid'],
  ['entry_wbraid', 'wbraid'],
  ['entry_msclkid', 'msclkid'],
  ['entry_twclid', 'twclid'],
  ['entry_li_fat_id', 'li_fat_id'],
  ['entry_mc_cid', 'mc_cid'],
  ['entry_igshid', 'igshid'],
  ['entry_ttclid', 'ttclid'],
  ['entry__kx', '_kx'],
  ['entry_irclid', 'irclid'],
];

const PAGE_OR_SCREEN = ` and e.event in ('$pageview', '$screen')`;

/**
 * The columns of PostHog's sessions records that events alone determine, over the events `e` of one session.
 * Left out, because Hedgerow has nothing to compute them from: session_id_v7 (ClickHouse's numeric form of the
 * id), channel_type (PostHog's channel rules and its lists of search and social domains) and vitals_lcp (read
 * from web-vitals events Hedgerow does not interpret).
 */
const SESSION_COLUMN_SQL: ReadonlyArray<readonly [string, string]> = [
  ['session_id', "e.properties ->> '$session_id'"],
  ['team_id', 'min(e.team_id)'],
  ['distinct_id', '(array_agg(e.distinct_id order by e."timestamp", e.uuid))[1]'],
  ['start_timestamp', 'min(e."timestamp")'],
  ['end_timestamp', 'max(e."timestamp")'],
  ['urls', "coalesce(array_agg(distinct nullif(e.properties ->> '$current_url', '')) filter (where nullif(e.properties ->> '$current_url', '') is not null), '{}')"],
  ['num_uniq_urls', "count(distinct nullif(e.properties ->> '$current_url', ''))::int"],
  ['entry_current_url', firstValue('$current_url')],
  ['entry_pathname', firstValue('$pathname')],
  ['entry_hostname', firstValue('$host')],
  ['end_current_url', lastValue('$current_url')],
  ['end_pathname', lastValue('$pathname')],
  ['end_hostname', lastValue('$host')],
  ...ENTRY_PROPERTIES.map(([column, property]) => [column, firstValue(property)] as const),
  ['pageview_count', "(count(*) filter (where e.event = '$pageview'))::int"],
  ['autocapture_count', "(count(*) filter (where e.event = '$autocapture'))::int"],
  ['screen_count', "(count(*) filter (where e.event = '$screen'))::int"],
  ['session_duration', 'extract(epoch from max(e."timestamp") - min(e."timestamp"))::int'],
  ['duration', 'extract(epoch from max(e."timestamp") - min(e."timestamp"))::int'],
  [
    'page_screen_autocapture_count_up_to',
    "least(count(*) filter (where e.event in ('$pageview', '$screen', '$autocapture')), 2)::int",
  ],
  // A bounce: a single page, screen or autocapture event, in a session shorter than 10 seconds; no such event, no verdict.
  [
    'is_bounce',
    `case when count(*) filter (where e.event in ('$pageview', '$screen', '$autocapture')) = 0 then null
          else count(*) filter (where e.event in ('$pageview', '$screen', '$autocapture')) = 1
               and max(e."timestamp") - min(e."timestamp") < interval '10 seconds' end`,
  ],
  ['last_external_click_url', lastValue('$external_click_url')],
  ['exit_current_url', lastValue('$current_url', PAGE_OR_SCREEN)],
  ['exit_pathname', lastValue('$pathname', PAGE_OR_SCREEN)],
  ['_inserted_at', 'max(e.inserted_at)'],
];

export const SESSION_RECORD_COLUMNS = SESSION_COLUMN_SQL.map(([column]) => column);

/** How far before the window a session's earlier events are looked for. */
const SESSION_LOOKBACK = '3 days';

/**
 * One record per `$session_id` whose latest event arrived in the window (a backfill: whose last event happened
 * in it), computed over all the session's events.
 */
function sessionsQuery(request: RecordsRequest, ordered: boolean): RecordsQuery {
  const team = request.batchExport.team_id;
  const byInsertion = request.selectBy === 'inserted_at';
  const selected = byInsertion ? 'e.inserted_at' : 'e."timestamp"';
  const latest = byInsertion ? 'max(e.inserted_at)' : 'max(e."timestamp")';
  const select = SESSION_COLUMN_SQL.map(([column, expression]) => `${expression} as ${quoteIdentifier(column)}`).join(',\n      ');
  // The sessions' other events are read from SESSION_LOOKBACK before the earliest event of the window on (by
  // event time, which the events' index serves), as PostHog looks back: a session is far shorter than that.
  const query = sql`with touched as (
      select e.properties ->> '$session_id' as session_id, min(e."timestamp") as first_seen
        from events e
       where e.team_id = ${param(team, 'int')} and ${windowCondition(selected, request)}
         and nullif(e.properties ->> '$session_id', '') is not null
       group by 1
    )
    select * from (
    select ${keyword(select)}
      from events e
     where e.team_id = ${param(team, 'int')}
       and e."timestamp" >= (select min(first_seen) from touched) - ${keyword(`interval '${SESSION_LOOKBACK}'`)}
       and e.properties ->> '$session_id' in (select session_id from touched)
     group by e.properties ->> '$session_id'
    having ${windowCondition(latest, request)}
    ) sessions
    ${keyword(ordered ? 'order by _inserted_at, session_id' : '')}`;
  return asQuery(query, [...SESSION_RECORD_COLUMNS]);
}

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
