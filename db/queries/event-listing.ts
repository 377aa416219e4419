/**
 * Reading stored events for the deprecated event listing: one page (events, or the rows of a `select`), one event
 * by UUID, and recent values of a property. Request parameters are parsed and checked here; a bad one is a 400
 * whose `attr` names it. Every query runs on a read-only session with the query timeout (db/pg/client.ts createReadDb).
 */
import type { components } from '../../generated/api.js';
import { ApiError, errors } from '../core/errors.js';
import { parseJson as parseExactJson } from '../core/exact-json.js';
import { MAX_JSON_DEPTH } from '../core/json-limits.js';
import { escapeLike, UUID_PATTERN } from '../core/text.js';
import type { ClientBase } from 'pg';
import { discardConnection, type ReadDb } from '../pg/client.js';
import { parseElementsChain } from '../elements-chain.js';
import { translatePgError } from '../pg/errors.js';
import { runQuery } from '../pg/query.js';
import { runCachedStatement, type StatementOptions } from '../pg/prepared.js';
import {
  compileEventsQuery,
  type CompiledEventsQuery,
  compilePersonLookup,
  LISTED_EVENT_COLUMNS,
  HogQLError,
  inParameter,
  outputValue,
  parseDateTimeInput,
  parseExpression,
  parsePropertyFilters,
  parseSelectItem,
  PERSON_LOOKUP_LIMIT,
  splitPersonFilters,
  type DateTimeText,
  type EventsQuerySpec,
  type HogQLType,
  type Keyset,
} from '../hogql/index.js';
import type { EnvironmentRow } from '../rows.js';

export type LegacyEvent = components['schemas']['LegacyEvent'];
export type PropertyValue = components['schemas']['PropertyValue'];

/** The listing's parameters as the request carries them. */
export interface EventListRequest {
  after?: string;
  before?: string;
  distinct_id?: string;
  event?: string;
  person_id?: string;
  properties?: string;
  select?: string;
  where?: string;
  orderBy?: string;
  cursor?: string;
  limit: number;
  offset: number;
}

/** One event of the listing as JSON text: what the JSON answer is made of. */
export type EventJson = string & { readonly __legacyEvent: true };

export type EventPage =
  | { kind: 'events'; results: EventJson[]; nextCursor: string | null }
  | { kind: 'rows'; columns: string[]; results: unknown[][]; nextCursor: string | null };

const KEYSET_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

function invalid(attr: string, detail: string): ApiError {
  return errors.validation(detail, attr);
}

function parseJson(attr: string, text: string, detail: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw invalid(attr, detail);
  }
}

/** `properties` as JSON, its integers beyond 2^53 exact, so that a filter matches what capture stored. */
function parseFilterJson(text: string): unknown {
  try {
    return parseExactJson(text, MAX_JSON_DEPTH);
  } catch {
    throw invalid('properties', 'Properties are unparsable!');
  }
}

/** `select` and `where` are JSON lists of expressions; a single JSON string is one expression. */
function expressionList(attr: string, text: string | undefined): string[] {
  if (text === undefined) return [];
  const value = parseJson(attr, text, `${attr} must be a JSON list of HogQL expressions, such as ["event", "count()"].`);
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || !list.every((item) => typeof item === 'string')) {
    throw invalid(attr, `${attr} must be a JSON list of HogQL expressions, such as ["event", "count()"].`);
  }
  if (attr === 'select' && list.length === 0) throw invalid(attr, 'select must name at least one expression.');
  if (list.length > 100) throw invalid(attr, `${attr} may hold at most 100 expressions.`);
  return list;
}

function dateTime(attr: string, text: string | undefined, timezone: string): DateTimeText | null {
  if (text === undefined || text === '') return null;
  const parsed = parseDateTimeInput(text, undefined, timezone);
  if (!parsed) throw invalid(attr, `"${text}" is not an ISO 8601 date-time or a relative date such as -7d.`);
  return parsed;
}

function order(text: string | undefined): 'asc' | 'desc' {
  if (text === undefined || text === '') return 'desc';
  const value = parseJson('orderBy', text, 'orderBy must be ["timestamp"] or ["-timestamp"].');
  if (Array.isArray(value) && value.length === 1 && value[0] === '-timestamp') return 'desc';
  if (Array.isArray(value) && value.length === 1 && value[0] === 'timestamp') return 'asc';
  throw invalid('orderBy', 'orderBy must be ["timestamp"] or ["-timestamp"].');
}

type Cursor = { keyset: Keyset } | { offset: number };

/** The largest offset a cursor may carry; no page is ever that deep. */
const MAX_CURSOR_OFFSET = 2 ** 40;

export function encodeCursor(cursor: Cursor): string {
  const value = 'keyset' in cursor ? { t: cursor.keyset.timestamp, u: cursor.keyset.uuid } : { o: cursor.offset };
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

function decodeCursor(text: string | undefined): Cursor | null {
  if (text === undefined || text === '') return null;
  let value: unknown = null;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    // reported below
  }
  const record = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  if (typeof record.t === 'string' && KEYSET_TIME.test(record.t) && typeof record.u === 'string' && UUID_PATTERN.test(record.u)) {
    return { keyset: { timestamp: record.t, uuid: record.u.toLowerCase() } };
  }
  // (Bounded so that the offset and the page's rows stay a safe integer: they are written into the query.)
  if (typeof record.o === 'number' && Number.isSafeInteger(record.o) && record.o >= 0 && record.o <= MAX_CURSOR_OFFSET) {
    return { offset: record.o };
  }
  throw invalid('cursor', 'The cursor is not valid; use the next link of a previous page.');
}

/** Rows as `pg` returns them. */
type QueryRows = Record<string, unknown>[];

/**
 * Runs one statement: SQL text with `?` placeholders (and no other "?"), and its parameters. A session's
 * statements run one after another, prepared from their second use unless `prepare: false`, and without
 * parallel workers with `parallel: false` (db/pg/prepared.ts).
 */
export type Reader = <Row = Record<string, unknown>>(
  text: string,
  params: readonly unknown[],
  options?: StatementOptions,
) => Promise<{ rows: Row[] }>;

function positional(text: string): string {
  let index = 0;
  return text.replace(/\?/g, () => `$${++index}`);
}

/**
 * Runs read-only work on a session of the read pool (db/pg/client.ts createReadDb: read-only, with the query
 * timeout), translating what PostgreSQL refuses. The session's settings bound each statement, so the work needs
 * no transaction: a page costs its query's round trip and nothing else. Statements run prepared, so that the
 * session plans a recurring one only until PostgreSQL settles on a plan for it (db/pg/prepared.ts). `timeoutMs` is
 * the pool's timeout: the deadline of the whole work, waiting for the session included (a 504 past it).
 */
export async function onReadSession<T>(
  reader: ReadDb,
  timeoutMs: number,
  work: (read: Reader) => Promise<T>,
  dataErrorParameter: string | null = null,
): Promise<T> {
  const started = performance.now();
  const connection = await lendSession(reader, timeoutMs);
  const session = connection as ClientBase;
  // The timeout bounds the page, not each of its statements: the wait for a session and the statements before
  // count. A statement that would have noticeably less left than the session's timeout runs with what is left
  // (a round trip more, paid only by pages that have already spent that long), and the session's own timeout
  // comes back before it returns to the pool.
  let sessionTimeoutMs = timeoutMs;
  const keepWithinPageDeadline = async () => {
    const left = Math.trunc(timeoutMs - (performance.now() - started));
    if (left <= 0) throw queryTimeout(timeoutMs);
    if (sessionTimeoutMs - left <= PAGE_DEADLINE_SLACK_MS) return;
    await runQuery(session, `set statement_timeout = ${left}`);
    sessionTimeoutMs = left;
  };
  try {
    return await work(async <Row>(text: string, params: readonly unknown[], options?: StatementOptions) => {
      await keepWithinPageDeadline();
      return { rows: (await runCachedStatement(connection, positional(text), [...params], options)) as Row[] };
    });
  } catch (error) {
    throw translateQueryError(error, timeoutMs, dataErrorParameter);
  } finally {
    if (sessionTimeoutMs !== timeoutMs) {
      await runQuery(session, 'reset statement_timeout').catch(() => discardConnection(connection, 'its timeout could not be reset'));
    }
    await reader.client.releaseConnection(connection);
  }
}

/** How much of the page's timeout may already be spent before a statement runs with less than all of it. */
const PAGE_DEADLINE_SLACK_MS = 100;

/** A session of the read pool, or a 504 when none is free within `timeoutMs` (one lent later goes back). */
async function lendSession(reader: ReadDb, timeoutMs: number): Promise<unknown> {
  const acquiring: Promise<unknown> = reader.client.acquireConnection();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(queryTimeout(timeoutMs)), timeoutMs);
  });
  try {
    return await Promise.race([acquiring, late]);
  } catch (error) {
    acquiring.then((connection) => reader.client.releaseConnection(connection)).catch(() => undefined);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The rows of a probe run on a second session, or null for none. A probe that failed there runs again on the
 * page's own session (which reports the error, if it was the query's), except when it ran out of time: that
 * would only double the wait for the same answer.
 */
async function probeRows(probe: Promise<QueryRows> | null): Promise<QueryRows | null> {
  if (!probe) return null;
  return probe.catch((error: unknown) => {
    if (isQueryTimeout(error)) throw error;
    return null;
  });
}

/** Whether the read pool can lend a session at once (one is idle, or may be opened), with nobody waiting. */
function sessionFreeNow(reader: ReadDb): boolean {
  const pool = (reader.client as unknown as { pool?: TarnPool }).pool;
  if (!pool) return false;
  if (pool.numPendingAcquires() > 0) return false;
  return pool.numFree() > 0 || pool.numUsed() + pool.numPendingCreates() < pool.max;
}

interface TarnPool {
  max: number;
  numFree(): number;
  numUsed(): number;
  numPendingAcquires(): number;
  numPendingCreates(): number;
}

/**
 * Runs a compiled listing query. Aggregates run unnamed: they read every event of the project, so planning is a
 * negligible part of them, and a plan kept from other values could cost more than planning again.
 */
async function readQuery(read: Reader, query: CompiledEventsQuery): Promise<QueryRows> {
  return (await read(query.text, query.params, { prepare: query.mode !== 'aggregate' })).rows;
}

/** SQLSTATE of a statement cancelled, here by the session's statement timeout. */
const QUERY_CANCELED = '57014';

/**
 * The parameter that an error PostgreSQL raises on the data (a value out of range, a pattern it cannot run)
 * comes from, when only one parameter holds expressions or filters; otherwise none is named.
 */
function dataErrorParameterOf(request: EventListRequest): string | null {
  const given = (['select', 'where', 'properties'] as const).filter((name) => request[name] !== undefined && request[name] !== '');
  return given.length === 1 ? given[0]! : null;
}

/** The code of the 504 a query cancelled by the statement timeout answers. */
const QUERY_TIMEOUT = 'query_timeout';

/** Whether a read failed for the statement timeout (as onReadSession reports it). */
function isQueryTimeout(error: unknown): boolean {
  return error instanceof ApiError && error.code === QUERY_TIMEOUT;
}

function queryTimeout(timeoutMs: number): ApiError {
  return new ApiError(
    504,
    'server_error',
    QUERY_TIMEOUT,
    `The query ran longer than ${timeoutMs} ms and was cancelled. Narrow it with after and before, or more selective filters.`,
  );
}

function translateQueryError(error: unknown, timeoutMs: number, dataErrorParameter: string | null): unknown {
  const pg = error as { code?: string; message?: string };
  switch (pg.code) {
    case QUERY_CANCELED:
      return queryTimeout(timeoutMs);
    case '2201B':
      return errors.validation(`A regular expression is not valid: ${pg.message ?? ''}`.trim(), dataErrorParameter);
    case '22025': // invalid_escape_sequence: a like pattern that ends with its escape character
      return errors.validation('A like pattern cannot end with a backslash; write \\\\ for one.', dataErrorParameter);
    case '22003':
    case '22008':
      return errors.validation('A number or date in the query is out of range.', dataErrorParameter);
    case '42803':
      return errors.validation(
        'With aggregates, every other selected expression is grouped by: it cannot use a field outside an aggregate inside a larger expression.',
        'select',
      );
    case '54001':
      return errors.validation('The query is too deeply nested.');
    case '54023':
      return errors.validation('A function is given more than 100 arguments.', dataErrorParameter);
    // An operator or function PostgreSQL has for none of the types the expression gives it.
    case '42883':
      return errors.validation(`An expression combines values of types that cannot be combined: ${pg.message ?? ''}`.trim(), dataErrorParameter);
    case '22012':
    case '2201E':
    case '2201F':
    case '22023':
    case '22019':
      return errors.validation(`A value in the query is not valid: ${pg.message ?? ''}`.trim(), dataErrorParameter);
    default:
      return translatePgError(error);
  }
}

function toApiError(error: unknown): unknown {
  if (error instanceof HogQLError) return errors.validation(error.message, error.parameter);
  return error;
}

/** The distinct ids of the person named by `person_id` (its numeric id or UUID). */
async function distinctIdsOfPerson(read: Reader, teamId: number, personId: string): Promise<string[]> {
  const byId = /^\d{1,18}$/.test(personId);
  if (!byId && !UUID_PATTERN.test(personId)) throw invalid('person_id', 'person_id must be a person’s id or UUID.');
  const { rows } = await read<{ distinct_id: string }>(
    `select pdi.distinct_id from person_distinct_ids pdi join persons p on p.id = pdi.person_id
      where p.team_id = ?::int and ${byId ? 'p.id = ?::bigint' : 'p.uuid = ?::uuid'} order by pdi.distinct_id`,
    [teamId, byId ? personId : personId.toLowerCase()],
  );
  return rows.map((row) => row.distinct_id);
}

/** A row of LISTED_EVENT_COLUMNS (db/hogql/events-query.ts). */
export interface EventRow {
  id: string;
  event: string;
  distinct_id: string;
  /** JSON text, as stored. */
  properties_json: string;
  elements_chain: string;
  /** `YYYY-MM-DDTHH:MI:SS.ffffffZ`, in UTC. */
  keyset_timestamp: string;
  person_is_identified: boolean | null;
  /** The person's property of that name as JSON text, or null when the person has none. */
  person_email_json: string | null;
  person_name_json: string | null;
  person_username_json: string | null;
  person_distinct_id: string | null;
}

/** The person properties the listing shows, as PostHog does, and the row's column of each. */
const PERSON_PROPERTIES = [
  ['email', 'person_email_json'],
  ['name', 'person_name_json'],
  ['username', 'person_username_json'],
] as const;

function personJson(row: EventRow): string {
  if (row.person_is_identified === null) return 'null';
  let shown = '';
  for (const [key, column] of PERSON_PROPERTIES) {
    const json = row[column];
    if (json !== null) shown += `${shown === '' ? '' : ','}"${key}":${json}`;
  }
  const distinctIds = row.person_distinct_id === null ? '[]' : `[${JSON.stringify(row.person_distinct_id)}]`;
  return `{"is_identified":${row.person_is_identified},"distinct_ids":${distinctIds},"properties":{${shown}}}`;
}

/**
 * Autocapture sends the same few element chains over and over (the same button, the same link): their JSON
 * is remembered, up to this many chains, rather than parsed again for every event.
 */
const ELEMENTS_CACHE_SIZE = 2000;
const elementsCache = new Map<string, string>();

function elementsJson(chain: string): string {
  if (chain === '') return '[]';
  let json = elementsCache.get(chain);
  if (json === undefined) {
    json = JSON.stringify(parseElementsChain(chain));
    if (elementsCache.size >= ELEMENTS_CACHE_SIZE) elementsCache.clear();
    elementsCache.set(chain, json);
  }
  return json;
}

/**
 * A timestamp as the listing shows it (as hogql_format_datetime does in SQL): milliseconds when its microseconds
 * are whole milliseconds, all six digits otherwise.
 */
function shownTimestamp(micros: string): string {
  return micros.endsWith('000Z') ? `${micros.slice(0, -4)}Z` : micros;
}

/**
 * The event as the listing's JSON (LegacyEvent), its properties spliced in as the text PostgreSQL sent: parsing
 * every event's properties into objects and serialising them again was most of the listing's time in Node.
 */
export function eventJson(row: EventRow): EventJson {
  return (
    `{"id":"${row.id}","distinct_id":${JSON.stringify(row.distinct_id)},"properties":${row.properties_json},` +
    `"event":${JSON.stringify(row.event)},"timestamp":"${shownTimestamp(row.keyset_timestamp)}","person":${personJson(row)},` +
    `"elements":${elementsJson(row.elements_chain)},"elements_chain":${JSON.stringify(row.elements_chain)}}`
  ) as EventJson;
}

/** An event of the listing as an object (for csv, and for one event), its integers exact (exact-json.ts). */
export function parseEventJson(json: EventJson): LegacyEvent {
  return parseExactJson(json, MAX_JSON_DEPTH + 2) as LegacyEvent;
}

/** The ways person filters are applied; see PersonFilterTuning. */
export type PersonFilterStrategy = 'lookup' | 'probe' | 'join' | 'subquery';

/**
 * How the listing applies the person filters that every event must pass (splitPersonFilters). The persons'
 * distinct ids are looked up first, at most `lookupLimit` + 1 of them: if that is all, the page reads only
 * those ids' events (lookup). Otherwise it reads the person of each event, in page order, among the first
 * `probeEvents` events (probe), a query that runs meanwhile on a second session when the pool has one free: a
 * full page from them is the answer, and it comes within a few hundred events when most events match.
 * Otherwise the matches the probe found tell how many events a full page would take:
 * up to `joinEvents`, the person of each event is read on until the page is full (join); beyond, the events
 * are matched against the hashed set of all the matching persons' distinct ids instead (subquery), which costs
 * by the number of those ids rather than by the number of events read.
 */
export interface PersonFilterTuning {
  lookupLimit: number;
  probeEvents: number;
  joinEvents: number;
  /** Told which way answered (for tests). */
  trace?: (strategy: PersonFilterStrategy) => void;
}

/**
 * Measured on 10 M events of 240 k distinct ids: reading the person of an event costs about 10 µs, so the probe
 * 2 to 4 ms; the hashed set costs about 4 µs a distinct id. The two ways after the probe cost about the same for
 * a filter whose full page takes some 3,000 events (3 % of persons): the join is chosen below that with a margin,
 * as its cost grows with every event more that the probe's rough estimate missed, and the set's does not.
 */
export const PERSON_FILTER_TUNING: PersonFilterTuning = { lookupLimit: PERSON_LOOKUP_LIMIT, probeEvents: 200, joinEvents: 2000 };

/** One page of the listing. `request.limit` is the page size, already capped by the caller. */
export async function listEvents(
  reader: ReadDb,
  environment: EnvironmentRow,
  request: EventListRequest,
  timeoutMs: number,
  tuning: PersonFilterTuning = PERSON_FILTER_TUNING,
): Promise<EventPage> {
  try {
    const cursor = decodeCursor(request.cursor);
    const propertiesText = request.properties;
    const properties =
      propertiesText === undefined || propertiesText === ''
        ? null
        : inParameter('properties', () => parsePropertyFilters(parseFilterJson(propertiesText)));
    const where = inParameter('where', () => expressionList('where', request.where).map(parseExpression));
    const selectTexts = expressionList('select', request.select);
    const select = selectTexts.length > 0 ? inParameter('select', () => selectTexts.map(parseSelectItem)) : null;
    const direction = order(request.orderBy);
    const after = dateTime('after', request.after, environment.timezone);
    const before = dateTime('before', request.before, environment.timezone);

    // The probe, compiled once: started beside the lookup (its rows), used if the lookup finds too many ids.
    const probed: { query: CompiledEventsQuery | null; rows: Promise<QueryRows> | null } = { query: null, rows: null };
    const keyset = cursor && 'keyset' in cursor ? cursor.keyset : null;
    const offset = cursor && 'offset' in cursor ? cursor.offset : request.offset;
    const specWith = (narrowing: Pick<EventsQuerySpec, 'distinctIds' | 'properties' | 'personFilters'>): EventsQuerySpec => ({
      teamId: environment.id,
      timezone: environment.timezone,
      after,
      before,
      event: request.event ?? null,
      distinctId: request.distinct_id ?? null,
      ...narrowing,
      where,
      select,
      order: direction,
      keyset,
      limit: request.limit + 1,
      offset: keyset ? 0 : offset,
    });

    return await onReadSession(reader, timeoutMs, async (read) => {
      let distinctIds =
        request.person_id === undefined ? null : await distinctIdsOfPerson(read, environment.id, request.person_id);
      let filters = properties;
      let personFilters: EventsQuerySpec['personFilters'] = null;
      let strategy: PersonFilterStrategy | null = null;
      if (properties) {
        // Person filters that select few persons: read their distinct ids first, then only those ids' events.
        const { person, rest } = splitPersonFilters(properties);
        if (person.length > 0) {
          const probe = { strategy: 'probe' as const, filters: person, scan: tuning.probeEvents };
          // Meanwhile, on a second session, the probe that answers when they are too many: the two cost about
          // the same, and running them side by side saves the second's time in that case (and a few
          // milliseconds of the database's time otherwise: a probe reads a bounded number of events, and one
          // not needed is left to finish on its own). Only a bounded probe (aggregates read every event), and
          // only on a session free now: waiting for one while holding this one could leave concurrent pages
          // waiting for each other.
          const probeQuery =
            distinctIds === null ? compileEventsQuery(specWith({ distinctIds: null, properties: rest, personFilters: probe })) : null;
          probed.query = probeQuery;
          if (probeQuery?.partial && sessionFreeNow(reader)) {
            probed.rows = onReadSession(reader, timeoutMs, (second) => readQuery(second, probeQuery));
            probed.rows.catch(() => undefined); // its failure is handled where it is used, if it is
          }
          // (Without parallel workers: they took longer to start than the thousand ids take to read.)
          const lookup = compilePersonLookup(environment.id, environment.timezone, person, tuning.lookupLimit);
          const { rows } = await read<{ distinct_id: string }>(lookup.text, lookup.params, { parallel: false });
          if (rows.length <= tuning.lookupLimit) {
            const ids = new Set(rows.map((row) => row.distinct_id));
            distinctIds = distinctIds === null ? [...ids] : distinctIds.filter((id) => ids.has(id));
            filters = rest;
            strategy = 'lookup';
          } else if (distinctIds === null) {
            // (With person_id, the page reads that person's ids one by one and tests the filters on them.)
            filters = rest;
            personFilters = probe;
            strategy = 'probe';
          }
        }
      }
      const spec = specWith({ distinctIds, properties: filters, personFilters });
      // (The probe's spec is this spec: only without person_id does the page take it, and then distinctIds is null.)
      let query = strategy === 'probe' && probed.query ? probed.query : compileEventsQuery(spec);
      let rows = (strategy === 'probe' ? await probeRows(probed.rows) : null) ?? (await readQuery(read, query));
      if (query.partial && rows.length < spec.limit && personFilters) {
        // The probe's events held too few matches: from those it found, how many events would a full page take?
        const wanted = spec.limit + spec.offset;
        const events = rows.length === 0 ? Infinity : (wanted * tuning.probeEvents) / rows.length;
        query = compileEventsQuery(
          events <= tuning.joinEvents
            ? { ...spec, properties, personFilters: null }
            : { ...spec, personFilters: { strategy: 'subquery', filters: personFilters.filters } },
        );
        strategy = events <= tuning.joinEvents ? 'join' : 'subquery';
        rows = await readQuery(read, query);
      } else if (strategy === 'probe' && !query.partial) {
        strategy = 'join'; // with aggregates, which read every event
      }
      if (strategy) tuning.trace?.(strategy);
      const more = rows.length > request.limit;
      const page = more ? rows.slice(0, request.limit) : rows;
      const last = page[page.length - 1];
      if (query.mode === 'events') {
        const events = page as unknown as EventRow[];
        const nextCursor = more && last ? encodeCursor({ keyset: { timestamp: (last as unknown as EventRow).keyset_timestamp, uuid: String(last.id) } }) : null;
        return { kind: 'events', results: events.map(eventJson), nextCursor };
      }
      const types: HogQLType[] = query.columns.map((column) => column.type);
      const results = page.map((row) => types.map((type, index) => outputValue(type, row[`c${index}`])));
      let nextCursor: string | null = null;
      if (more && last) {
        nextCursor =
          query.mode === 'rows'
            ? encodeCursor({ keyset: { timestamp: String(last.keyset_timestamp), uuid: String(last.keyset_uuid) } })
            : encodeCursor({ offset: (keyset ? 0 : offset) + request.limit });
      }
      return { kind: 'rows', columns: query.columns.map((column) => column.name), results, nextCursor };
    }, dataErrorParameterOf(request));
  } catch (error) {
    throw toApiError(error);
  }
}

/** One event by UUID, or null. */
export async function getEvent(reader: ReadDb, environment: EnvironmentRow, id: string, timeoutMs: number): Promise<LegacyEvent | null> {
  return onReadSession(reader, timeoutMs, async (read) => {
    const { rows } = await read<EventRow>(
      `select ${LISTED_EVENT_COLUMNS}
        from events e
        left join person_distinct_ids pdi on pdi.team_id = e.team_id and pdi.distinct_id = e.distinct_id
        left join persons person on person.id = pdi.person_id
        where e.team_id = ?::int and e.uuid = ?::uuid`,
      [environment.id, id.toLowerCase()],
    );
    return rows[0] ? parseEventJson(eventJson(rows[0])) : null;
  });
}

/** Event columns whose values `is_column=true` may list. */
const VALUE_COLUMNS: Readonly<Record<string, string>> = {
  event: 'e.event',
  distinct_id: 'e.distinct_id',
  elements_chain: 'e.elements_chain',
};

/** How many of the newest events of the last 7 days the values are read from. */
export const VALUES_SAMPLE = 100_000;

export interface PropertyValuesRequest {
  key: string;
  value?: string;
  eventNames: readonly string[];
  isColumn: boolean;
}

/**
 * Up to 10 distinct values of a property (or, with isColumn, of an event column) among the newest events of the
 * last 7 days, most frequent first; with `value`, only values containing it, shortest first.
 */
export async function listPropertyValues(
  reader: ReadDb,
  environment: EnvironmentRow,
  request: PropertyValuesRequest,
  timeoutMs: number,
): Promise<PropertyValue[]> {
  let source: string;
  const sourceParams: unknown[] = [];
  const conditions = ['e.team_id = ?::int', "e.timestamp > now() - interval '7 days'"];
  const params: unknown[] = [environment.id];
  if (request.isColumn) {
    const column = VALUE_COLUMNS[request.key];
    if (!column) throw invalid('key', `With is_column, key must be one of ${Object.keys(VALUE_COLUMNS).join(', ')}.`);
    source = `to_jsonb(${column})`;
  } else if (request.key === 'custom_event') {
    source = 'to_jsonb(e.event)';
    conditions.push("e.event not like '$%'");
  } else {
    source = '(e.properties -> ?::text)';
    sourceParams.push(request.key);
    conditions.push("coalesce(jsonb_typeof(e.properties -> ?::text), 'null') <> 'null'");
    params.push(request.key);
  }
  if (request.eventNames.length > 0) {
    conditions.push(`e.event in (${request.eventNames.map(() => '?::text').join(', ')})`);
    params.push(...request.eventNames);
  }
  if (request.value !== undefined && request.value !== '') {
    conditions.push(`(${source} #>> '{}') ilike ?::text`);
    params.push(...sourceParams, `%${escapeLike(request.value)}%`);
  }
  const ordering = request.value ? "length(v #>> '{}'), count(*) desc, v #>> '{}'" : "count(*) desc, v #>> '{}'";
  return onReadSession(reader, timeoutMs, async (read) => {
    const { rows } = await read<PropertyValue>(
      `select v as name from (
          select ${source} as v from events e where ${conditions.join(' and ')}
          order by e.timestamp desc limit ${VALUES_SAMPLE}
        ) recent
        group by v order by ${ordering} limit 10`,
      [...sourceParams, ...params],
    );
    return rows;
  });
}
