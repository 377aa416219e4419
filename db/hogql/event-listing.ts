/**
 * Builds the SQL of one page of the event listing: the project filter (always, from the caller's project, never
 * from an expression), the time window, the simple filters, property filters, `where` expressions, the keyset
 * position and the order. With `select`, the page is rows of the selected values; aggregates group by the
 * selected expressions that are not aggregates.
 */
import type { Expr, SelectItem } from './ast.js';
import { Compiler } from './compiler.js';
import type { DateTimeText } from './datetime.js';
import { inParameter } from './errors.js';
import { compilePropertyGroup, containmentPrefilter, type PropertyFilter, type PropertyGroup } from './property-filters.js';
import { join, keyword, param, rowCount, sql, textArrayParam, type Fragment } from './sql.js';
import { datetimeConstant, outputColumn, type HogQLType } from './types.js';

/** A position in the listing: the last event of the previous page. The timestamp keeps its microseconds. */
export interface Keyset {
  timestamp: string;
  uuid: string;
}

/**
 * Person filters that every event must pass (splitPersonFilters), when their persons have too many distinct ids
 * to look up first (with them in `properties` instead, each event's person is read until the page is full):
 * - probe: the same, among only the first `scan` events in page order that pass the other conditions (all but
 *   those reading the person). With aggregates, which need every event, the bound does not apply.
 * - subquery: each event's distinct id is looked up in the set of the matching persons' distinct ids, hashed
 *   once: for filters that few events pass, cheaper than reading the person of each event until enough do.
 */
export type PersonFiltersSpec =
  | { strategy: 'probe'; filters: readonly PropertyFilter[]; scan: number }
  | { strategy: 'subquery'; filters: readonly PropertyFilter[] };

export interface EventsQuerySpec {
  teamId: number;
  timezone: string;
  after: DateTimeText | null;
  before: DateTimeText | null;
  event: string | null;
  distinctId: string | null;
  /** All distinct ids of a person (the `person_id` parameter); an empty list matches nothing. */
  distinctIds: readonly string[] | null;
  properties: PropertyGroup | null;
  personFilters?: PersonFiltersSpec | null;
  where: readonly Expr[];
  select: readonly SelectItem[] | null;
  order: 'asc' | 'desc';
  keyset: Keyset | null;
  /** Rows to read (one more than the page, to know whether another follows). */
  limit: number;
  offset: number;
}

export interface CompiledEventsQuery {
  text: string;
  params: readonly unknown[];
  /**
   * events: rows of stored events; rows: selected values in event order (paged by keyset); aggregate: grouped
   * rows (paged by offset).
   */
  mode: 'events' | 'rows' | 'aggregate';
  /** With select: the columns' names and types, in order (result columns c0, c1, …). */
  columns: { name: string; type: HogQLType }[];
  /** A probe that read only part of the events: fewer rows than the limit do not mean that no more match. */
  partial: boolean;
}

/** The event's timestamp with all its microseconds (the keyset of the next page, and what the listing shows). */
const KEYSET_TIMESTAMP = `to_char(e.timestamp at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * The person of event `e` through its distinct id. Every tenant table a statement reads is pinned to the
 * environment, and each join equates the environment's column: a distributed PostgreSQL (Citus) then runs the
 * statement on the one node that holds the environment.
 */
function personJoin(teamId: Fragment): Fragment {
  return sql`left join person_distinct_ids pdi on pdi.team_id = e.team_id and pdi.team_id = ${teamId} and pdi.distinct_id = e.distinct_id
  left join persons p on p.team_id = pdi.team_id and p.team_id = ${teamId} and p.id = pdi.person_id`;
}

/**
 * The columns of one stored event `e` and of its person `person` (left-joined through its distinct id) that the
 * listing shows. The JSON columns come as text: the listing splices them into its answer as PostgreSQL sends
 * them, instead of parsing every event's properties into objects and serialising them again
 * (handlers/events/shape.ts). Of the person's properties only those the listing shows are read, each as its JSON text
 * (null when the person does not have it). A person reached through a distinct id has at least one, so
 * `person_distinct_id` (the person's first distinct id, as PostHog shows it) is set whenever the person is. The
 * timestamp is formatted once, with its microseconds, for the keyset of the next page; the listing shows it
 * from that text. `person` is read from the environment `teamId` (as is every table, see personJoin).
 */
export function listedEventColumns(teamId: number): Fragment {
  return sql`e.uuid::text as id, e.event, e.distinct_id, e.properties::text as properties_json, e.elements_chain,
    ${keyword(KEYSET_TIMESTAMP)} as keyset_timestamp, person.is_identified as person_is_identified,
    (person.properties -> 'email')::text as person_email_json, (person.properties -> 'name')::text as person_name_json,
    (person.properties -> 'username')::text as person_username_json,
    (select d.distinct_id from person_distinct_ids d where d.team_id = ${param(teamId, 'int')} and d.person_id = person.id order by d.id limit 1) as person_distinct_id`;
}

export function compileEventsQuery(spec: EventsQuerySpec): CompiledEventsQuery {
  const c = new Compiler({ timezone: spec.timezone, teamId: spec.teamId, allowAggregates: false, clause: 'where' });
  const scope = { timezone: spec.timezone };
  const conditions: Fragment[] = [sql`e.team_id = ${param(spec.teamId, 'int')}`];
  if (spec.after) conditions.push(sql`e.timestamp > ${datetimeConstant(spec.after.text, scope)!}`);
  if (spec.before) conditions.push(sql`e.timestamp < ${datetimeConstant(spec.before.text, scope)!}`);
  if (spec.event !== null) conditions.push(sql`e.event = ${param(spec.event, 'text')}`);
  if (spec.distinctId !== null) conditions.push(sql`e.distinct_id = ${param(spec.distinctId, 'text')}`);
  const filters: Fragment[] = [];
  if (spec.properties) filters.push(inParameter('properties', () => compilePropertyGroup(spec.properties!, c)));
  inParameter('where', () => spec.where.forEach((expr) => filters.push(c.condition(expr))));
  const filtersReadPerson = c.usesPerson;
  const persons = spec.personFilters ?? null;
  if (persons?.strategy === 'subquery') {
    // `is true` keeps the planner from making a join of the IN, so that it scans the events in page order and
    // tests each one against the hashed set, stopping at the end of the page.
    const matched = personConditions(spec.timezone, persons.filters, 'all');
    filters.push(sql`(e.distinct_id in (select pdi.distinct_id from person_distinct_ids pdi join persons p on p.team_id = pdi.team_id and p.id = pdi.person_id
      where pdi.team_id = ${param(spec.teamId, 'int')} and p.team_id = ${param(spec.teamId, 'int')} and ${matched}) is true)`);
  }
  const personCondition =
    persons?.strategy === 'probe'
      ? inParameter('properties', () => compilePropertyGroup({ kind: 'group', type: 'AND', values: [...persons.filters] }, c))
      : null;

  const select = spec.select
    ? inParameter('select', () => {
        const selecting = new Compiler({ timezone: spec.timezone, allowAggregates: true, clause: 'select' });
        const compiled = spec.select!.map((item) => ({ name: item.name, value: selecting.compile(item.expr) }));
        if (selecting.usesPerson) c.usesPerson = true;
        return compiled;
      })
    : null;
  const aggregate = select?.some((item) => item.value.aggregate) ?? false;
  const position: Fragment[] = [];
  if (spec.keyset && !aggregate) {
    const keyset = sql`(${param(spec.keyset.timestamp, 'timestamptz')}, ${param(spec.keyset.uuid, 'uuid')})`;
    position.push(sql`(e.timestamp, e.uuid) ${keyword(spec.order === 'desc' ? '<' : '>')} ${keyset}`);
  }
  // A few distinct ids (a person's): each id's newest events come from its own range of the (team,
  // distinct_id, timestamp, uuid) index, at most a page per id, merged; rather than all their events, sorted.
  const ids = spec.distinctIds;
  const perId = ids !== null && ids.length > 0 && !aggregate;
  if (ids !== null && ids.length === 0) position.push(keyword('false'));
  else if (ids !== null) position.push(perId ? keyword('e.distinct_id = ids.distinct_id') : sql`e.distinct_id = any(${textArrayParam(ids)})`);

  const direction = keyword(spec.order);
  const order = sql`order by e.timestamp ${direction}, e.uuid ${direction}`;
  const eventPerson = c.usesPerson ? personJoin(param(spec.teamId, 'int')) : keyword('');
  const probe = persons?.strategy === 'probe' && !aggregate ? persons : null;
  let matching: Fragment;
  if (probe) {
    if (ids !== null) throw new Error('A probe of person filters does not read by distinct ids.');
    // The scan is bounded after every condition that reads no person, so that it holds as many matches as it can.
    const before = filtersReadPerson ? [...conditions, ...position] : [...conditions, ...filters, ...position];
    const after = filtersReadPerson ? [...filters, personCondition!] : [personCondition!];
    matching = sql`(select e.* from events e where ${join(before, ' and ')} ${order} limit ${rowCount(probe.scan)}) e
      ${eventPerson} where ${join(after, ' and ')}`;
  } else {
    const all = [...conditions, ...filters, ...(personCondition ? [personCondition] : []), ...position];
    matching = sql`events e ${eventPerson} where ${join(all, ' and ')}`;
  }
  const page = sql`limit ${rowCount(spec.limit)} offset ${rowCount(spec.offset)}`;
  /** The page's events as `e`, when read id by id. */
  const pageEvents = perId
    ? sql`(select k.* from unnest(${textArrayParam(ids!)}) as ids(distinct_id)
        cross join lateral (select e.* from ${matching} ${order} limit ${rowCount(spec.limit + spec.offset)}) k
        order by k.timestamp ${direction}, k.uuid ${direction} ${page}) e`
    : null;

  if (select) {
    const columns = select.map((item) => ({ name: item.name, type: item.value.type }));
    const outputs = select.map((item, index) => sql`${outputColumn(item.value)} as ${keyword(`c${index}`)}`);
    if (!aggregate) {
      const rows = sql`select ${join(outputs, ', ')}, ${keyword(KEYSET_TIMESTAMP)} as keyset_timestamp, e.uuid::text as keyset_uuid`;
      const query = pageEvents ? sql`${rows} from ${pageEvents} ${eventPerson} ${order}` : sql`${rows} from ${matching} ${order} ${page}`;
      return { text: query.text, params: query.params, mode: 'rows', columns, partial: probe !== null };
    }
    const ordinals = select.map((item, index) => ({ aggregate: item.value.aggregate, ordinal: String(index + 1) }));
    const groups = ordinals.filter((item) => !item.aggregate).map((item) => item.ordinal);
    const firstAggregate = ordinals.find((item) => item.aggregate)!.ordinal;
    const groupBy = groups.length > 0 ? `group by ${groups.join(', ')}` : '';
    const orderBy = `order by ${[`${firstAggregate} desc nulls last`, ...groups].join(', ')}`;
    const query = sql`select ${join(outputs, ', ')} from ${matching} ${keyword(groupBy)} ${keyword(orderBy)} ${page}`;
    return { text: query.text, params: query.params, mode: 'aggregate', columns, partial: false };
  }

  const columns = keyword('e.uuid, e.event, e.distinct_id, e.properties, e.elements_chain, e.timestamp');
  const inner = pageEvents ? sql`select ${columns} from ${pageEvents}` : sql`select ${columns} from ${matching} ${order} ${page}`;
  const teamId = param(spec.teamId, 'int');
  const query = sql`select ${listedEventColumns(spec.teamId)}
    from (${inner}) e
    left join person_distinct_ids mapping on mapping.team_id = ${teamId} and mapping.distinct_id = e.distinct_id
    left join persons person on person.team_id = mapping.team_id and person.team_id = ${teamId} and person.id = mapping.person_id
    ${order}`;
  return { text: query.text, params: query.params, mode: 'events', columns: [], partial: probe !== null };
}

/**
 * At most this many distinct ids are looked up first for person filters; with more, the listing tests the
 * events' persons another way (PersonFilterTuning in db/queries/events/listing.ts).
 */
export const PERSON_LOOKUP_LIMIT = 1000;

/**
 * Person filters as conditions on `persons p` alone. An exact filter on texts gets the containment prefilter
 * that the GIN index of persons' properties serves (persons_properties_path), ANDed with the exact test. How the
 * exact test is written steers the planner, which has no statistics of a property's expression:
 * - `first` (the lookup of the first distinct ids): as the listing compiles it, `coalesce(… in (…), false)`,
 *   estimated to hold for one person in two. A plain equality, estimated at 0.005 and multiplied by the index's
 *   good estimate of the containment, made a filter that most persons pass look rare, and the planner read all
 *   persons (in parallel, which is slow to start) to find the first thousand.
 * - `all` (the set of every matching distinct id): plainly. The low estimate then keeps the join to the
 *   persons' distinct ids on their index, which for the few thousand persons of the filters this set is used
 *   for is faster than the hash join of all the project's distinct ids that a higher estimate chooses.
 * Without a prefilter the text equality is written plainly, so that an index on the property's expression,
 * such as persons_team_email, can serve it (in a WHERE clause, NULL is false anyway).
 */
function personConditions(timezone: string, filters: readonly PropertyFilter[], wanted: 'first' | 'all'): Fragment {
  const c = new Compiler({ timezone, allowAggregates: false, clause: 'where' });
  return join(
    filters.map((filter) => {
      const prefilter = containmentPrefilter(filter, keyword('p.properties'));
      const texts =
        (filter.operator === 'exact' || filter.operator === 'in') &&
        filter.values.length > 0 &&
        filter.values.every((value) => typeof value === 'string');
      if (texts && !(prefilter && wanted === 'first')) {
        const values = filter.values.map((value) => param(value as string, 'text'));
        const plain = sql`(p.properties ->> ${param(filter.key, 'text')}) in (${join(values, ', ')})`;
        return prefilter ? sql`${prefilter} and ${plain}` : plain;
      }
      const compiled = inParameter('properties', () => compilePropertyGroup({ kind: 'group', type: 'AND', values: [filter] }, c));
      return prefilter ? sql`${prefilter} and ${compiled}` : compiled;
    }),
    ' and ',
  );
}

/**
 * The distinct ids (at most `limit` + 1) of the project's persons that pass `filters`. Few: the page reads
 * those ids' events through the (team, distinct_id, timestamp, uuid) index instead of scanning the project's
 * events in time order until enough match (which, for a filter naming one person, is all of them).
 */
export function compilePersonLookup(
  teamId: number,
  timezone: string,
  filters: readonly PropertyFilter[],
  limit = PERSON_LOOKUP_LIMIT,
): { text: string; params: readonly unknown[] } {
  const query = sql`select pdi.distinct_id from person_distinct_ids pdi join persons p on p.team_id = pdi.team_id and p.id = pdi.person_id
    where pdi.team_id = ${param(teamId, 'int')} and p.team_id = ${param(teamId, 'int')} and ${personConditions(timezone, filters, 'first')}
    limit ${rowCount(limit + 1)}`;
  return { text: query.text, params: query.params };
}
