/**
 * Reading stored events for the deprecated event listing: one page (events, or the rows of a `select`), one event
 * by UUID, and recent values of a property. The request is parsed by handlers/events/request.ts, events are
 * shaped as the answer shows them by handlers/events/shape.ts; every query runs on a read-only session with the
 * query timeout (db/pg/read-session.ts).
 */
import type { components } from '../../../generated/api.js';
import { errors } from '../../core/errors.js';
import { stringifyExact } from '../../core/exact-json.js';
import { escapeLike, UUID_PATTERN } from '../../core/text.js';
import type { ReadDb } from '../../pg/client.js';
import { isQueryTimeout } from '../../pg/errors.js';
import { onReadSession, sessionFreeNow, type Reader } from '../../pg/read-session.js';
import {
  compileEventsQuery,
  type CompiledEventsQuery,
  compilePersonLookup,
  listedEventColumns,
  HogQLError,
  outputValue,
  type DateTimeText,
  PERSON_LOOKUP_LIMIT,
  splitPersonFilters,
  type EventsQuerySpec,
  type HogQLType,
} from '../../hogql/index.js';
import type { EnvironmentRow } from '../../rows.js';
import { DEFAULT_RESULT_MAX_BYTES, guardedByBudget, isOverBudget, pageTooLarge, type QueryBounds } from '../query/execute.js';
import { encodeCursor, type Cursor } from './cursor.js';

export type PropertyValue = components['schemas']['PropertyValue'];

/** One page of the listing as asked for, its parameters parsed and checked (handlers/events/request.ts). */
export interface EventListQuery {
  cursor: Cursor | null;
  properties: EventsQuerySpec['properties'];
  where: EventsQuerySpec['where'];
  select: EventsQuerySpec['select'];
  direction: 'asc' | 'desc';
  after: DateTimeText | null;
  before: DateTimeText | null;
  event: string | null;
  distinctId: string | null;
  /** A person's id or UUID, checked when it is looked up. */
  personId: string | null;
  /** The page size, already capped by the caller. */
  limit: number;
  offset: number;
  /** The parameter a data error comes from, when only one could hold it (db/pg/errors.ts QueryParameters). */
  dataErrorParameter: string | null;
}

/** A row of listedEventColumns (db/hogql/event-listing.ts). */
export interface ListedEventRow {
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

/** A page of the listing: events as their rows (shaped by the caller), or the rows of a `select` as values. */
export type EventPage =
  | { kind: 'events'; rows: ListedEventRow[]; nextCursor: string | null }
  | { kind: 'rows'; columns: string[]; results: unknown[][]; nextCursor: string | null };

/** Rows as `pg` returns them. */
type QueryRows = Record<string, unknown>[];

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

/**
 * Runs a compiled listing query. Aggregates run unnamed: they read every event of the project, so planning is a
 * negligible part of them, and a plan kept from other values could cost more than planning again.
 */
async function readQuery(read: Reader, query: CompiledEventsQuery, maxBytes: number): Promise<QueryRows> {
  // Counted as PostgreSQL sends them, so that no number of rows, nor one huge row, reaches this process past the budget.
  try {
    return (await read(guardedByBudget(query.text, maxBytes), query.params, { prepare: query.mode !== 'aggregate' })).rows;
  } catch (error) {
    if (isOverBudget(error)) throw pageTooLarge(maxBytes);
    throw error;
  }
}

/**
 * The page's rows shaped as the answer shows them, their JSON counted as they are: past the budget (an answer
 * may show a row larger than PostgreSQL wrote it, such as properties as JSON text), the page is refused.
 */
export function shapeWithinBudget<R, S>(rows: readonly R[], shape: (row: R) => S, size: (shaped: S) => number, bounds: QueryBounds): S[] {
  let bytes = 2; // the results array's brackets, and a comma between rows
  return rows.map((row, index) => {
    const shaped = shape(row);
    bytes += size(shaped) + (index > 0 ? 1 : 0);
    if (bytes > bounds.maxResultBytes) throw pageTooLarge(bounds.maxResultBytes);
    bounds.onAnswerBytes?.(bytes);
    return shaped;
  });
}

function toApiError(error: unknown): unknown {
  if (error instanceof HogQLError) return errors.validation(error.message, error.parameter);
  return error;
}

/** The distinct ids of the person named by `person_id` (its numeric id or UUID). */
async function distinctIdsOfPerson(read: Reader, teamId: number, personId: string): Promise<string[]> {
  const byId = /^\d{1,18}$/.test(personId);
  if (!byId && !UUID_PATTERN.test(personId)) throw errors.validation('person_id must be a person’s id or UUID.', 'person_id');
  const { rows } = await read<{ distinct_id: string }>(
    `select pdi.distinct_id from person_distinct_ids pdi join persons p on p.team_id = pdi.team_id and p.id = pdi.person_id
      where p.team_id = ?::int and ${byId ? 'p.id = ?::bigint' : 'p.uuid = ?::uuid'} order by pdi.distinct_id`,
    [teamId, byId ? personId : personId.toLowerCase()],
  );
  return rows.map((row) => row.distinct_id);
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
 * Reading the person of an event costs two to three times what adding a distinct id to the hashed set does, so
 * the probe stays short (a couple of hundred events). The two ways after the probe cost about the same for a
 * filter whose full page takes some 3,000 events (3 % of persons): the join is chosen below that with a margin,
 * as its cost grows with every event more that the probe's rough estimate missed, and the set's does not.
 */
export const PERSON_FILTER_TUNING: PersonFilterTuning = { lookupLimit: PERSON_LOOKUP_LIMIT, probeEvents: 200, joinEvents: 2000 };

/**
 * One page of the listing. `request.limit` is the page size, already capped by the caller; the page is held to the
 * answer budget as the query endpoint's answers are (a 400 past it).
 */
export async function listEvents(
  reader: ReadDb,
  environment: EnvironmentRow,
  request: EventListQuery,
  bounds: QueryBounds | number,
  tuning: PersonFilterTuning = PERSON_FILTER_TUNING,
): Promise<EventPage> {
  // (A number: the timeout, with the default answer budget.)
  const limits: QueryBounds = typeof bounds === 'number' ? { timeoutMs: bounds, maxResultBytes: DEFAULT_RESULT_MAX_BYTES } : bounds;
  const { timeoutMs, maxResultBytes } = limits;
  try {
    const { cursor, properties, where, select, direction, after, before } = request;

    // The probe, compiled once: started beside the lookup (its rows), used if the lookup finds too many ids.
    const probed: { query: CompiledEventsQuery | null; rows: Promise<QueryRows> | null } = { query: null, rows: null };
    const keyset = cursor && 'keyset' in cursor ? cursor.keyset : null;
    const offset = cursor && 'offset' in cursor ? cursor.offset : request.offset;
    const specWith = (narrowing: Pick<EventsQuerySpec, 'distinctIds' | 'properties' | 'personFilters'>): EventsQuerySpec => ({
      teamId: environment.id,
      timezone: environment.timezone,
      after,
      before,
      event: request.event,
      distinctId: request.distinctId,
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
        request.personId === null ? null : await distinctIdsOfPerson(read, environment.id, request.personId);
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
            probed.rows = onReadSession(reader, timeoutMs, (second) => readQuery(second, probeQuery, maxResultBytes));
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
      let rows = (strategy === 'probe' ? await probeRows(probed.rows) : null) ?? (await readQuery(read, query, maxResultBytes));
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
        rows = await readQuery(read, query, maxResultBytes);
      } else if (strategy === 'probe' && !query.partial) {
        strategy = 'join'; // with aggregates, which read every event
      }
      if (strategy) tuning.trace?.(strategy);
      const more = rows.length > request.limit;
      const page = more ? rows.slice(0, request.limit) : rows;
      const last = page[page.length - 1];
      if (query.mode === 'events') {
        const events = page as unknown as ListedEventRow[];
        const nextCursor = more && last ? encodeCursor({ keyset: { timestamp: (last as unknown as ListedEventRow).keyset_timestamp, uuid: String(last.id) } }) : null;
        return { kind: 'events', rows: events, nextCursor };
      }
      const types: HogQLType[] = query.columns.map((column) => column.type);
      const results = shapeWithinBudget(
        page,
        (row) => types.map((type, index) => outputValue(type, row[`c${index}`])),
        (values) => Buffer.byteLength(stringifyExact(values)),
        limits,
      );
      let nextCursor: string | null = null;
      if (more && last) {
        nextCursor =
          query.mode === 'rows'
            ? encodeCursor({ keyset: { timestamp: String(last.keyset_timestamp), uuid: String(last.keyset_uuid) } })
            : encodeCursor({ offset: (keyset ? 0 : offset) + request.limit });
      }
      return { kind: 'rows', columns: query.columns.map((column) => column.name), results, nextCursor };
    }, { data: request.dataErrorParameter, selectedExpressions: 'select' });
  } catch (error) {
    throw toApiError(error);
  }
}

/** One event's row by UUID, or null. */
export async function getEvent(reader: ReadDb, environment: EnvironmentRow, id: string, timeoutMs: number): Promise<ListedEventRow | null> {
  return onReadSession(reader, timeoutMs, async (read) => {
    const columns = listedEventColumns(environment.id);
    const { rows } = await read<ListedEventRow>(
      `select ${columns.text}
        from events e
        left join person_distinct_ids pdi on pdi.team_id = e.team_id and pdi.team_id = ?::int and pdi.distinct_id = e.distinct_id
        left join persons person on person.team_id = pdi.team_id and person.team_id = ?::int and person.id = pdi.person_id
        where e.team_id = ?::int and e.uuid = ?::uuid`,
      [...columns.params, environment.id, environment.id, environment.id, id.toLowerCase()],
    );
    return rows[0] ?? null;
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
    if (!column) throw errors.validation(`With is_column, key must be one of ${Object.keys(VALUE_COLUMNS).join(', ')}.`, 'key');
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
