/**
 * The records of the events model: PostHog's default columns, or the columns of the export's HogQL select list,
 * of the window's events with the filters of the export; and the same rows as JSON lines PostgreSQL writes itself.
 */
import { Compiler, compilePropertyGroup, HogQLError, parsePropertyFilters, parseSelectItem, type SelectItem } from '../../hogql/index.js';
import { tokenize, withoutComments } from '../../hogql/parser.js';
import { join, keyword, param, sql, textArrayParam, type Fragment } from '../../hogql/sql.js';
import type { Expr } from '../../hogql/ast.js';
import type { Typed } from '../../hogql/types.js';
import { asQuery, InvalidExportSettingsError, quoteIdentifier, windowCondition, type RecordsQuery, type RecordsRequest } from './records-query.js';
import type { BatchExportRow } from './rows.js';

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
      const compiler = new Compiler({ timezone: batchExport.timezone, teamId: batchExport.team_id, allowAggregates: false, clause: 'filters' });
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
    left join persons p on p.team_id = pdi.team_id and p.id = pdi.person_id
    where ${join(conditions, ' and ')}
    ${keyword(ordered ? `order by ${selected}, e.uuid` : '')}`;
}

export function eventsQuery(request: RecordsRequest, ordered: boolean): RecordsQuery {
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
