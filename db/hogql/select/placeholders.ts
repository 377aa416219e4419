/**
 * A HogQLQuery's `{filters}` and `{variables.name}`, filled as PostHog fills them (posthog/hogql/filters.py and
 * variables.py): `{filters}` is the condition of the request's `filters` on the table the SELECT holding it reads,
 * `{variables.<code_name>}` the value the request gives that variable. Both become trees of constants and fields,
 * so every value stays a bound parameter and every field is read through the table's own compiler.
 *
 * `{filters}`: the property filters (as elsewhere: property-filters.ts; `session` filters read the sessions table's
 * column, or `session.<key>` from events, and are the only ones a query of sessions alone takes), then `timestamp < date_to`, then
 * `timestamp >= date_from` (unless "all"), ANDed; `true` when there are none. The timestamp is the events' `timestamp`,
 * the sessions' `$start_timestamp` when only sessions are read, the groups' `created_at` for groups. Dates are ISO
 * 8601 (without an offset: in the environment's timezone) or PostHog's relative forms (`-7d`, `-1mStart`).
 * `filterTestAccounts`: PostHog applies the team's test-account filters, a setting of the team; environments here
 * have no such setting, which is PostHog's default (none), so it filters nothing.
 */
import type { Expr } from '../ast.js';
import { escapeLike } from '../../core/text.js';
import { parseDateTimeInput } from '../datetime.js';
import { HogQLError } from '../errors.js';
import { parseExpression } from '../parser.js';
import { parsePropertyFilters, type PropertyFilter, type PropertyGroup } from '../property-filters.js';
import type { FilterTable, QueryPlaceholders } from './parser.js';

/** PostHog's HogQLFilters. */
export interface HogQLFilters {
  properties?: unknown;
  dateRange?: { date_from?: string | null; date_to?: string | null; explicitDate?: boolean | null } | null;
  filterTestAccounts?: boolean | null;
}

/** PostHog's HogQLVariable, by its id. */
export interface HogQLVariable {
  variableId: string;
  code_name: string;
  value?: unknown;
  isNull?: boolean;
}

/** The most values a list variable may hold (each one a bound parameter). */
const MAX_VARIABLE_ITEMS = 1000;

const constant = (value: string | number | boolean | null): Expr => ({ kind: 'constant', value });
const field = (...chain: string[]): Expr => ({ kind: 'field', chain });
const call = (name: string, ...args: Expr[]): Expr => ({ kind: 'call', name, args });

function dateText(value: string, timezone: string, what: string): string {
  const parsed = parseDateTimeInput(value, new Date(), timezone);
  if (!parsed) throw new HogQLError(`${what} "${value}" is not a date: write an ISO 8601 date or time or a relative one such as -7d.`);
  return parsed.text;
}

function numberValue(filter: PropertyFilter, value: string | number | boolean): number {
  const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  if (!Number.isFinite(number)) throw new HogQLError(`The "${filter.operator}" filter on "${filter.key}" needs a number, got ${JSON.stringify(value)}.`);
  return number;
}

/**
 * What `{filters}` applies to: events, groups, sessions alone, or events beside sessions (where PostHog reads
 * session filters on the sessions table and the others on events).
 */
type FilterScope = 'events' | 'groups' | 'sessions' | 'eventsAndSessions';

/** The value a filter reads, on the table `{filters}` applies to. */
function subject(filter: PropertyFilter, table: FilterScope): Expr {
  if (table === 'groups') {
    if (filter.type !== 'group') throw new HogQLError(`In {filters} over the groups table only group property filters apply, not "${filter.type}".`);
    return field('properties', filter.key);
  }
  if (table === 'sessions' && filter.type !== 'session') {
    throw new HogQLError('Can only use session properties in a filter when selecting from only the sessions table.');
  }
  switch (filter.type) {
    case 'session':
      // A session property is a column of the sessions table; from events it is read through `session`.
      if (table === 'sessions') return field(filter.key);
      return table === 'eventsAndSessions' ? field('sessions', filter.key) : field('session', filter.key);
    case 'person':
      return field('person', 'properties', filter.key);
    case 'group':
      return field(`group_${filter.groupTypeIndex!}`, 'properties', filter.key);
    case 'event_metadata':
      if (filter.key === 'properties' || filter.key.includes('.')) {
        throw new HogQLError(`"${filter.key}" is not an event field; filter properties with type "event".`);
      }
      return field(filter.key);
    case 'element':
      throw new HogQLError('Element filters are not supported in {filters}; write the condition on elements_chain in the query.');
    default:
      return field('properties', filter.key);
  }
}

/** One property filter as the expression it stands for, read as property-filters.ts reads it. */
function filterExpr(filter: PropertyFilter, table: FilterScope, timezone: string): Expr {
  if (filter.type === 'hogql') return parseExpression(filter.key);
  const value = subject(filter, table);
  const anyOf = (parts: Expr[], negative: boolean): Expr => (parts.length === 1 ? parts[0]! : { kind: negative ? 'and' : 'or', exprs: parts });
  switch (filter.operator) {
    case 'exact':
    case 'in':
    case 'is_not':
    case 'not_in':
      return { kind: 'in', negated: filter.operator === 'is_not' || filter.operator === 'not_in', expr: value, list: filter.values.map(constant) };
    case 'icontains':
    case 'not_icontains': {
      const negative = filter.operator === 'not_icontains';
      return anyOf(
        filter.values.map((item) => ({ kind: 'compare', op: negative ? 'not ilike' : 'ilike', left: value, right: constant(`%${escapeLike(String(item))}%`) })),
        negative,
      );
    }
    case 'regex':
    case 'not_regex': {
      const negative = filter.operator === 'not_regex';
      return anyOf(
        filter.values.map((item) => {
          const match = call('match', value, constant(String(item)));
          return negative ? { kind: 'not', expr: match } : match;
        }),
        negative,
      );
    }
    case 'gt':
    case 'lt':
    case 'gte':
    case 'lte': {
      const op = ({ gt: '>', lt: '<', gte: '>=', lte: '<=' } as const)[filter.operator];
      return anyOf(filter.values.map((item) => ({ kind: 'compare', op, left: value, right: constant(numberValue(filter, item)) })), false);
    }
    case 'is_set':
    case 'is_not_set':
      return { kind: 'isNull', negated: filter.operator === 'is_set', expr: value };
    default: {
      const what = `The "${filter.operator}" filter on "${filter.key}"`;
      return anyOf(
        filter.values.map((item): Expr => {
          const parsed = typeof item === 'string' ? parseDateTimeInput(item, new Date(), timezone) : null;
          if (!parsed) throw new HogQLError(`${what} needs a date, got ${JSON.stringify(item)}.`);
          if (filter.operator === 'is_date_exact' && parsed.kind === 'date') {
            return { kind: 'compare', op: '=', left: call('toDate', value), right: call('toDate', constant(parsed.text)) };
          }
          const at = call('toDateTime', value);
          const moment = call('toDateTime', constant(parsed.text));
          if (filter.operator === 'is_date_before') return { kind: 'compare', op: '<', left: at, right: moment };
          if (filter.operator === 'is_date_after') return { kind: 'compare', op: '>', left: at, right: moment };
          return { kind: 'compare', op: '=', left: call('dateTrunc', constant('second'), at), right: call('dateTrunc', constant('second'), moment) };
        }),
        false,
      );
    }
  }
}

function groupExpr(group: PropertyGroup, table: FilterScope, timezone: string): Expr | null {
  const parts = group.values.map((node) => (node.kind === 'group' ? groupExpr(node, table, timezone) : filterExpr(node, table, timezone)));
  const present = parts.filter((part): part is Expr => part !== null);
  if (present.length === 0) return null;
  return present.length === 1 ? present[0]! : { kind: group.type === 'AND' ? 'and' : 'or', exprs: present };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A variable's value as a constant of the tree: a scalar, or a list of scalars as an array. */
function variableValue(variable: HogQLVariable): Expr {
  const value = variable.value;
  if (variable.isNull === true || value === null || value === undefined) return constant(null);
  const scalar = (item: unknown): item is string | number | boolean =>
    typeof item === 'string' || typeof item === 'boolean' || (typeof item === 'number' && Number.isFinite(item));
  if (scalar(value)) return constant(value);
  if (Array.isArray(value) && value.length <= MAX_VARIABLE_ITEMS && value.every((item) => item === null || scalar(item))) {
    return { kind: 'array', items: value.map((item) => constant(item as string | number | boolean | null)) };
  }
  throw new HogQLError(
    `The value of the variable ${variable.code_name} must be a string, a number, a boolean, null or a list of at most ${MAX_VARIABLE_ITEMS} of them.`,
  );
}

/** What a request's `filters` and `variables` make of a query's `{filters}` and `{variables.name}`. */
export function requestPlaceholders(filters: HogQLFilters | null | undefined, variables: unknown, timezone: string): QueryPlaceholders {
  const given = isObject(filters) ? filters : {};
  const dateRange = isObject(given.dateRange) ? given.dateRange : {};
  const dateFrom = typeof dateRange.date_from === 'string' && dateRange.date_from !== 'all' ? dateRange.date_from : null;
  const dateTo = typeof dateRange.date_to === 'string' ? dateRange.date_to : null;
  const properties = given.properties === undefined || given.properties === null ? null : parsePropertyFilters(given.properties, { sessions: true });
  const byCodeName = new Map<string, HogQLVariable>();
  if (isObject(variables)) {
    for (const variable of Object.values(variables)) {
      if (!isObject(variable) || typeof variable.code_name !== 'string') throw new HogQLError('Each variable needs a "code_name" string.');
      if (!byCodeName.has(variable.code_name)) byCodeName.set(variable.code_name, variable as unknown as HogQLVariable);
    }
  }
  return {
    filters(tables: ReadonlySet<FilterTable>): Expr {
      const exprs: Expr[] = [];
      const events = tables.has('events');
      if (properties && properties.values.length > 0) {
        const sessions = tables.has('sessions');
        const scope: FilterScope = sessions ? (events ? 'eventsAndSessions' : 'sessions') : events ? 'events' : 'groups';
        const condition = groupExpr(properties, scope, timezone);
        if (condition) exprs.push(condition);
      }
      const timestamp = tables.has('groups') ? field('created_at') : events ? field('timestamp') : field('$start_timestamp');
      if (dateTo !== null) exprs.push({ kind: 'compare', op: '<', left: timestamp, right: constant(dateText(dateTo, timezone, 'date_to')) });
      if (dateFrom !== null) exprs.push({ kind: 'compare', op: '>=', left: timestamp, right: constant(dateText(dateFrom, timezone, 'date_from')) });
      if (exprs.length === 0) return constant(true);
      return exprs.length === 1 ? exprs[0]! : { kind: 'and', exprs };
    },
    dateBound(which: 'from' | 'to'): Expr | null {
      const value = which === 'from' ? dateFrom : dateTo;
      return value === null ? null : constant(dateText(value, timezone, `date_${which}`));
    },
    variable(codeName: string): Expr {
      const variable = byCodeName.get(codeName);
      if (!variable) throw new HogQLError(`Variable ${codeName} is missing from query.`);
      return variableValue(variable);
    },
  };
}
