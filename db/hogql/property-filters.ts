/**
 * PostHog's property filters (the `properties` parameter): a list of filters, all of which must hold, or a group
 * `{type: AND|OR, values: [...]}` nested to any depth. Each filter is validated here and compiled through the
 * HogQL compiler, so that filters and `where` expressions share one set of type and null rules.
 */
import { ExactInteger } from '../core/exact-json.js';
import { escapeLike } from '../core/text.js';
import type { Compiler } from './compiler.js';
import { parseDateTimeInput } from './datetime.js';
import { elementCondition, type ElementOperator } from './elements.js';
import { HogQLError } from './errors.js';
import { parseExpression } from './parser.js';
import { postgresRegex } from './regex.js';
import { join, keyword, param, sql, type Fragment } from './sql.js';
import { coerce, constant, datetimeConstant, typed, type Typed } from './types.js';

export const OPERATORS = [
  'exact',
  'is_not',
  'icontains',
  'not_icontains',
  'regex',
  'not_regex',
  'gt',
  'lt',
  'gte',
  'lte',
  'is_set',
  'is_not_set',
  'is_date_exact',
  'is_date_before',
  'is_date_after',
  'in',
  'not_in',
] as const;
export type PropertyOperator = (typeof OPERATORS)[number];

export const FILTER_TYPES = ['event', 'person', 'element', 'group', 'hogql', 'event_metadata'] as const;
/** `session` filters are read only where a query's `{filters}` can reach the sessions table (select/placeholders.ts). */
export type FilterType = (typeof FILTER_TYPES)[number] | 'session';

/** Types PostHog knows that Hedgerow has no data for. */
const UNSUPPORTED_TYPES = [
  'cohort',
  'static-cohort',
  'dynamic-cohort',
  'precalculated-cohort',
  'session',
  'recording',
  'log_entry',
  'behavioral',
  'data_warehouse',
  'data_warehouse_person_property',
  'error_tracking_issue',
  'log',
  'revenue_analytics',
  'flag',
  'feature',
];

type Scalar = string | number | boolean;

export interface PropertyFilter {
  kind: 'filter';
  type: FilterType;
  key: string;
  operator: PropertyOperator;
  /** One or more values (a list means any of them); empty for is_set, is_not_set and hogql. */
  values: Scalar[];
  groupTypeIndex?: number;
}

export interface PropertyGroup {
  kind: 'group';
  type: 'AND' | 'OR';
  values: (PropertyGroup | PropertyFilter)[];
}

const MAX_DEPTH = 100;
const MAX_FILTERS = 1000;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isScalar(value: unknown): value is Scalar {
  return typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

function parseFilter(raw: Record<string, unknown>, sessions: boolean): PropertyFilter {
  const type = raw.type === undefined || raw.type === null || raw.type === '' ? 'event' : raw.type;
  const known = (FILTER_TYPES as readonly string[]).includes(type as string) || (sessions && type === 'session');
  if (typeof type !== 'string' || !known) {
    if (typeof type === 'string' && UNSUPPORTED_TYPES.includes(type)) {
      throw new HogQLError(`Property filters of type "${type}" are not supported.`);
    }
    throw new HogQLError(`Invalid property type: ${String(type)}.`);
  }
  if (typeof raw.key !== 'string' || raw.key === '') throw new HogQLError('Each property filter needs a "key" string.');
  const operator = raw.operator === undefined || raw.operator === null || raw.operator === '' ? 'exact' : raw.operator;
  if (typeof operator !== 'string' || !(OPERATORS as readonly string[]).includes(operator)) {
    throw new HogQLError(`"${String(operator)}" is not a valid operator.`);
  }
  const filter: PropertyFilter = { kind: 'filter', type: type as FilterType, key: raw.key, operator: operator as PropertyOperator, values: [] };
  if (type === 'group') {
    const index = raw.group_type_index;
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index > 4) {
      throw new HogQLError('A group property filter needs "group_type_index", an integer from 0 to 4.');
    }
    filter.groupTypeIndex = index;
  }
  if (type === 'hogql' || operator === 'is_set' || operator === 'is_not_set') return filter;
  const value = raw.value;
  // An integer beyond 2^53 (read exactly: db/core/exact-json.ts) is compared as its digits, which is how a value
  // given as text matches a stored number.
  const values = (Array.isArray(value) ? value : [value]).map((item: unknown) => (item instanceof ExactInteger ? item.text : item));
  if (value === undefined || value === null || !values.every(isScalar)) {
    throw new HogQLError(`The filter on "${raw.key}" needs a "value": a string, a number, a boolean or a list of them.`);
  }
  filter.values = values;
  if (values.length === 0 && !['exact', 'is_not', 'in', 'not_in'].includes(operator)) {
    throw new HogQLError(`The filter on "${raw.key}" needs at least one value.`);
  }
  return filter;
}

function parseNode(raw: unknown, depth: number, count: { filters: number; sessions: boolean }): PropertyGroup | PropertyFilter {
  if (depth > MAX_DEPTH) throw new HogQLError(`Property groups may be nested at most ${MAX_DEPTH} deep.`);
  if (Array.isArray(raw)) return { kind: 'group', type: 'AND', values: raw.map((item) => parseNode(item, depth + 1, count)) };
  if (!isObject(raw)) throw new HogQLError('Each property filter must be an object.');
  if ('values' in raw) {
    const type = raw.type === undefined ? 'AND' : raw.type;
    if ((type !== 'AND' && type !== 'OR') || !Array.isArray(raw.values)) {
      throw new HogQLError('A property group is {"type": "AND" or "OR", "values": [...]}.');
    }
    return { kind: 'group', type, values: raw.values.map((item) => parseNode(item, depth + 1, count)) };
  }
  count.filters += 1;
  if (count.filters > MAX_FILTERS) throw new HogQLError(`At most ${MAX_FILTERS} property filters are allowed.`);
  return parseFilter(raw, count.sessions);
}

/**
 * PostHog's old style, still accepted there: an object of `<key>` or `<key>__<operator>` to values, each an event
 * property filter (`{"$browser__icontains": "chr"}`).
 */
function fromOldStyle(raw: Record<string, unknown>): Array<Record<string, unknown>> {
  return Object.entries(raw).map(([name, value]) => {
    const [key, operator] = name.split('__');
    return operator === undefined ? { key, value } : { key, value, operator };
  });
}

/**
 * Reads the parsed JSON of a `properties` parameter: a list, a group, a single filter, or filters in PostHog's old
 * style (an object that is neither a group nor a filter).
 */
export function parsePropertyFilters(raw: unknown, options: { sessions?: boolean } = {}): PropertyGroup {
  const oldStyle = isObject(raw) && !('values' in raw) && !('key' in raw);
  const node = parseNode(oldStyle ? fromOldStyle(raw) : raw, 0, { filters: 0, sessions: options.sessions === true });
  return node.kind === 'group' ? node : { kind: 'group', type: 'AND', values: [node] };
}

/** The value a filter looks at. */
function subject(filter: PropertyFilter, c: Compiler): Typed {
  switch (filter.type) {
    case 'person':
      return c.field(['person', 'properties', filter.key]);
    case 'group': {
      const column = keyword(`e.group_${filter.groupTypeIndex!}`);
      const team = c.scope.teamId === undefined ? keyword('e.team_id') : param(c.scope.teamId, 'int');
      return typed(
        sql`(select g.group_properties -> ${param(filter.key, 'text')} from groups g where g.team_id = ${team} and g.group_type_index = ${param(filter.groupTypeIndex!, 'smallint')} and g.group_key = ${column})`,
        'json',
        true,
      );
    }
    case 'event_metadata':
      if (filter.key === 'properties' || filter.key.includes('.')) {
        throw new HogQLError(`"${filter.key}" is not an event field; filter properties with type "event".`);
      }
      return c.field([filter.key]);
    case 'session':
      throw new HogQLError('Property filters of type "session" are not supported.');
    default:
      return c.field(['properties', filter.key]);
  }
}

function numberValue(filter: PropertyFilter, value: Scalar): number {
  const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  if (!Number.isFinite(number)) throw new HogQLError(`The "${filter.operator}" filter on "${filter.key}" needs a number, got ${JSON.stringify(value)}.`);
  return number;
}

/** The filter's pattern as PostgreSQL runs it (regex.ts). */
function checkRegex(filter: PropertyFilter, value: Scalar): string {
  try {
    return postgresRegex(String(value));
  } catch (error) {
    if (error instanceof HogQLError) throw new HogQLError(`The filter on "${filter.key}": ${error.message}`);
    throw error;
  }
}

function anyOf(parts: Fragment[], negative: boolean): Fragment {
  return sql`(${join(parts, negative ? ' and ' : ' or ')})`;
}

function filterCondition(filter: PropertyFilter, c: Compiler): Fragment {
  if (filter.type === 'hogql') return c.condition(parseExpression(filter.key));
  if (filter.type === 'element') {
    const supported = ['exact', 'is_not', 'in', 'not_in', 'icontains', 'not_icontains', 'regex', 'not_regex', 'is_set', 'is_not_set'];
    if (!supported.includes(filter.operator)) throw new HogQLError(`Element filters do not take the operator "${filter.operator}".`);
    const operator = (filter.operator === 'in' ? 'exact' : filter.operator === 'not_in' ? 'is_not' : filter.operator) as ElementOperator;
    if (operator.includes('regex')) filter.values.forEach((value) => checkRegex(filter, value));
    return elementCondition(filter.key, operator, filter.values.map(String));
  }
  const value = subject(filter, c);
  const scope = c.scope;
  switch (filter.operator) {
    case 'exact':
    case 'in':
      return c.membership(false, value, filter.values.map(constant)).sql;
    case 'is_not':
    case 'not_in':
      return c.membership(true, value, filter.values.map(constant)).sql;
    case 'icontains':
    case 'not_icontains': {
      const negative = filter.operator === 'not_icontains';
      return anyOf(
        filter.values.map((item) => c.comparison(negative ? 'not ilike' : 'ilike', value, constant(`%${escapeLike(String(item))}%`)).sql),
        negative,
      );
    }
    case 'regex':
    case 'not_regex': {
      const negative = filter.operator === 'not_regex';
      const text = coerce(value, 'string', scope);
      return anyOf(
        filter.values.map((item) => {
          const pattern = param(checkRegex(filter, item), 'text');
          return negative ? sql`coalesce(${text.sql} !~ ${pattern}, true)` : sql`coalesce(${text.sql} ~ ${pattern}, false)`;
        }),
        negative,
      );
    }
    case 'gt':
    case 'lt':
    case 'gte':
    case 'lte': {
      const op = ({ gt: '>', lt: '<', gte: '>=', lte: '<=' } as const)[filter.operator];
      return anyOf(
        filter.values.map((item) => c.comparison(op, value, constant(numberValue(filter, item))).sql),
        false,
      );
    }
    case 'is_set':
      return c.nullTest(value, true);
    case 'is_not_set':
      return c.nullTest(value, false);
    default:
      return anyOf(filter.values.map((item) => dateCondition(filter, value, item, c)), false);
  }
}

function dateCondition(filter: PropertyFilter, value: Typed, item: Scalar, c: Compiler): Fragment {
  const parsed = typeof item === 'string' ? parseDateTimeInput(item, undefined, c.scope.timezone) : null;
  if (!parsed) throw new HogQLError(`The "${filter.operator}" filter on "${filter.key}" needs a date, got ${JSON.stringify(item)}.`);
  if (filter.operator === 'is_date_exact' && parsed.kind === 'date') {
    const day = coerce(value, 'date', c.scope);
    return sql`coalesce(${day.sql} = ${param(parsed.text, 'date')}, false)`;
  }
  const at = coerce(value, 'datetime', c.scope);
  const moment = datetimeConstant(parsed.text, c.scope)!;
  switch (filter.operator) {
    case 'is_date_before':
      return sql`coalesce(${at.sql} < ${moment}, false)`;
    case 'is_date_after':
      return sql`coalesce(${at.sql} > ${moment}, false)`;
    default:
      return sql`coalesce(date_trunc('second', ${at.sql}) = date_trunc('second', ${moment}), false)`;
  }
}

/** The condition of a whole group; an empty group holds for every event. */
export function compilePropertyGroup(group: PropertyGroup, c: Compiler): Fragment {
  const parts = group.values.map((node) => (node.kind === 'group' ? compilePropertyGroup(node, c) : filterCondition(node, c)));
  if (parts.length === 0) return keyword('true');
  return sql`(${join(parts, group.type === 'AND' ? ' and ' : ' or ')})`;
}

/** How PostgreSQL prints a JSON number (`->>`): plain decimals, never an exponent or a sign other than minus. */
const PRINTED_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;
/** Longer texts of numbers get no prefilter, rather than mirroring the limits of PostgreSQL's numeric here. */
const MAX_NUMBER_TEXT = 100;
/** More values than this get no prefilter: each is one more index scan of the OR. */
const MAX_CONTAINMENT_VALUES = 20;

/** The text PostgreSQL receives for a JS string: the driver sends UTF-8, with U+FFFD for a lone surrogate. */
function sentText(text: string): string {
  return text.replace(/\p{Cs}/gu, '\uFFFD');
}

/**
 * A wider test than an exact (or in) filter with text values, that a GIN index of the JSON `document` serves:
 * `document @> {key: value}` for each JSON value that `->>` prints as one of the texts — the string itself, the
 * number when the text is how PostgreSQL prints a number, the boolean for "true" and "false". JSON null prints
 * as NULL, which never equals a text. An object or an array prints as text beginning with { or [: a value that
 * does gets no prefilter (null), as do number and boolean values, which the filter compares after converting.
 * The exact condition stays beside it (containment of 1 also holds for 1.0, printed "1.0").
 *
 * Each object is one jsonb parameter, its JSON text made here: built in SQL (jsonb_build_object), it was built
 * again for each person that the index's lossy matches are rechecked on, a third of the time of finding the
 * six thousand persons of a filter.
 */
export function containmentPrefilter(filter: PropertyFilter, document: Fragment): Fragment | null {
  if (filter.operator !== 'exact' && filter.operator !== 'in') return null;
  if (filter.values.length === 0 || filter.values.length > MAX_CONTAINMENT_VALUES) return null;
  const key = JSON.stringify(sentText(filter.key));
  const objects: string[] = [];
  for (const value of filter.values) {
    if (typeof value !== 'string' || value.startsWith('{') || value.startsWith('[')) return null;
    objects.push(`{${key}:${JSON.stringify(sentText(value))}}`);
    if (PRINTED_NUMBER.test(value)) {
      if (value.length > MAX_NUMBER_TEXT) return null;
      objects.push(`{${key}:${value}}`);
    }
    if (value === 'true' || value === 'false') objects.push(`{${key}:${value}}`);
  }
  return sql`(${join(
    objects.map((object) => sql`${document} @> ${param(object, 'jsonb')}`),
    ' or ',
  )})`;
}

/** Operators that only hold for an event whose person has the property (so a person must exist). */
const NEEDS_PERSON: readonly PropertyOperator[] = [
  'exact',
  'in',
  'icontains',
  'regex',
  'gt',
  'lt',
  'gte',
  'lte',
  'is_set',
  'is_date_exact',
  'is_date_before',
  'is_date_after',
];

/**
 * Splits the person filters that every event must pass (top-level, ANDed, and only true when the person has
 * the property) from the rest. Those select a set of persons, whose distinct ids can be looked up first.
 */
export function splitPersonFilters(group: PropertyGroup): { person: PropertyFilter[]; rest: PropertyGroup } {
  if (group.type !== 'AND') return { person: [], rest: group };
  const person: PropertyFilter[] = [];
  const rest: (PropertyGroup | PropertyFilter)[] = [];
  for (const node of group.values) {
    if (node.kind === 'filter' && node.type === 'person' && NEEDS_PERSON.includes(node.operator)) person.push(node);
    else rest.push(node);
  }
  return { person, rest: { kind: 'group', type: 'AND', values: rest } };
}
