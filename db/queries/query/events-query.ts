/**
 * Running an EventsQuery of the query endpoint: the node's parts (select items, where expressions, order, time
 * window, event names, person) are parsed by the HogQL parser into one SELECT tree over `events`, which the
 * SELECT compiler (db/hogql/select/) compiles for the caller's environment, so no text of the request is ever
 * SQL. The property filters are the event listing's (db/hogql/property-filters.ts), compiled into the same
 * statement's WHERE. Answered as PostHog answers an EventsQuery: rows, the select strings as columns, type
 * names, and a page (`hasMore`, `limit`, `offset`) always.
 */
import type { components } from '../../../generated/api.js';
import { parseJson } from '../../core/exact-json.js';
import { MAX_JSON_DEPTH } from '../../core/json-limits.js';
import { errors } from '../../core/errors.js';
import type { ReadDb } from '../../pg/client.js';
import { childrenOf, type Expr } from '../../hogql/ast.js';
import { parseDateTimeInput } from '../../hogql/datetime.js';
import { HogQLError, inParameter } from '../../hogql/errors.js';
import { compilePropertyGroup, parsePropertyFilters } from '../../hogql/property-filters.js';
import { parseExpression, parseSelectItem, withoutComments } from '../../hogql/parser.js';
import { compileSelect, type CompiledSelect, type SelectQuery } from '../../hogql/select/index.js';
import { functionDefinition } from '../../hogql/select/functions.js';
import type { SelectColumn } from '../../hogql/select/parser.js';
import type { EnvironmentRow } from '../../rows.js';
import { runCompiledSelect, seconds, type QueryBounds, type SessionHook } from './execute.js';
import { DEFAULT_RETURNED_ROWS, MAX_SELECT_RETURNED_ROWS } from './hogql-query.js';

/** The EventsQuery node as the spec defines it (and the request's validation has checked). */
export type EventsQueryInput = components['schemas']['EventsQuery'];

export interface EventsQueryResult {
  results: unknown[][];
  columns: string[];
  types: string[];
  hogql: string;
  timings: { k: string; t: number }[];
  hasMore: boolean;
  limit: number;
  offset: number;
}

/** The lower bound of the time window when none is given, as PostHog. */
export const DEFAULT_AFTER = '-24h';
/** The upper bound when none is given: a little past now, so that events stored this instant are in. */
const BEFORE_SLACK_MS = 5_000;

/** The fields `*` comes back with (as a dict), read from the event; `team_id` is the environment's. */
const STAR_FIELDS = ['uuid', 'event', 'properties', 'timestamp', 'distinct_id', 'elements_chain', 'created_at'] as const;
/** The fields `person` comes back with: the event's person, or only its distinct id when it has none. */
const PERSON_FIELDS: Record<string, Expr> = {
  uuid: { kind: 'field', chain: ['person', 'id'] },
  created_at: { kind: 'field', chain: ['person', 'created_at'] },
  properties: { kind: 'field', chain: ['person', 'properties'] },
  distinct_id: { kind: 'field', chain: ['distinct_id'] },
};

/** Fields the node's own conditions read (the window, `event`, `events`, `personId`). */
const FILTERED_FIELDS = ['timestamp', 'event', 'person'];

/** One entry of `select`, and the columns of the statement it reads. */
type Item =
  | { kind: 'expr'; name: string; alias: string | null; expr: Expr; aggregate: boolean }
  | { kind: 'star'; name: string }
  | { kind: 'person'; name: string };

const field = (name: string): Expr => ({ kind: 'field', chain: [name] });
const text = (value: string): Expr => ({ kind: 'constant', value });

/** Whether the expression aggregates rows (outside a nested query, whose aggregates are its own). */
function aggregates(expr: Expr): boolean {
  if (expr.kind === 'call' && !expr.over && functionDefinition(expr.name)?.aggregate === true) return true;
  return childrenOf(expr).some(aggregates);
}

/** An entry of `select`; a comment in it (PostHog's clients label entries with a `-- comment`) is only echoed. */
function parseItem(raw: string, index: number): Item {
  const text = inParameter(`select__${index}`, () => withoutComments(raw)).trim();
  if (text === '*') return { kind: 'star', name: raw };
  if (text === 'person') return { kind: 'person', name: raw };
  return inParameter(`select__${index}`, () => {
    const item = parseSelectItem(text);
    // The parser names an entry without an alias by its own text.
    const alias = item.name === text ? null : item.name;
    // An alias names its expression in every clause: one shadowing a field the window or event filters read
    // would change what they filter.
    const shadows = alias !== null && FILTERED_FIELDS.includes(alias) && !(item.expr.kind === 'field' && item.expr.chain.join('.') === alias);
    if (shadows) throw new HogQLError(`The alias "${alias}" is the name of a field that the query filters on; choose another.`);
    return { kind: 'expr' as const, name: alias ?? raw, alias, expr: item.expr, aggregate: aggregates(item.expr) };
  });
}

/** The statement's columns for the items, and where each item's columns start. */
function statementColumns(items: readonly Item[]): { columns: SelectColumn[]; starts: number[] } {
  const columns: SelectColumn[] = [];
  const starts: number[] = [];
  for (const item of items) {
    starts.push(columns.length);
    if (item.kind === 'expr') {
      columns.push({ star: false, expr: item.expr, alias: item.alias });
      continue;
    }
    for (const expr of item.kind === 'star' ? STAR_FIELDS.map(field) : Object.values(PERSON_FIELDS)) columns.push({ star: false, expr, alias: null });
  }
  return { columns, starts };
}

/** A time bound: an ISO 8601 date or time, or a relative one (`-7d`), read in the environment's timezone. */
function bound(name: 'after' | 'before', value: string, now: Date, timezone: string): Expr {
  const parsed = parseDateTimeInput(value, now, timezone);
  if (!parsed) throw errors.validation(`"${value}" is not a date: write an ISO 8601 date or time, a relative one such as -7d, or "all" (after only).`, `query__${name}`);
  return text(parsed.text);
}

const ORDER_DIRECTION = /\s+(asc|desc)\s*$/i;

/**
 * The order: `orderBy` when given; else, in PostHog's order of precedence, `count()` descending when selected,
 * the first aggregate descending, `timestamp` descending when selected, the first column ascending.
 */
function order(input: EventsQueryInput, items: readonly Item[], columns: readonly SelectColumn[]): SelectQuery['orderBy'] {
  if (input.orderBy && input.orderBy.length > 0) {
    return input.orderBy.map((raw, index) => {
      const text = inParameter(`orderBy__${index}`, () => withoutComments(raw));
      const direction = ORDER_DIRECTION.exec(text);
      const expr = inParameter(`orderBy__${index}`, () => parseExpression(direction ? text.slice(0, direction.index) : text));
      return { expr, descending: direction?.[1]?.toLowerCase() === 'desc' };
    });
  }
  const exprs = items.flatMap((item) => (item.kind === 'expr' ? [item] : []));
  const count = exprs.find((item) => item.expr.kind === 'call' && item.expr.name.toLowerCase() === 'count' && item.expr.args.length === 0);
  if (count) return [{ expr: count.expr, descending: true }];
  const aggregate = exprs.find((item) => item.aggregate);
  if (aggregate) return [{ expr: aggregate.expr, descending: true }];
  const timestamp = exprs.find((item) => item.expr.kind === 'field' && item.expr.chain.length === 1 && item.expr.chain[0] === 'timestamp');
  if (timestamp) return [{ expr: timestamp.expr, descending: true }];
  return [{ expr: columns[0]!.expr, descending: false }];
}

/** The SELECT tree of the node, for `now`; the property filters are compiled apart (they are not HogQL). */
export function eventsQueryTree(input: EventsQueryInput, environment: EnvironmentRow, now: Date): { tree: SelectQuery; items: Item[] } {
  const items = input.select.map(parseItem);
  const { columns } = statementColumns(items);
  const conditions: Expr[] = [];
  const having: Expr[] = [];
  (input.where ?? []).forEach((raw, index) => {
    const expr = inParameter(`where__${index}`, () => parseExpression(raw));
    (aggregates(expr) ? having : conditions).push(expr);
  });
  const after = input.after ?? DEFAULT_AFTER;
  if (after !== 'all') conditions.push({ kind: 'compare', op: '>', left: field('timestamp'), right: bound('after', after, now, environment.timezone) });
  const before = input.before === undefined ? text(new Date(now.getTime() + BEFORE_SLACK_MS).toISOString()) : bound('before', input.before, now, environment.timezone);
  conditions.push({ kind: 'compare', op: '<', left: field('timestamp'), right: before });
  if (input.event !== undefined && input.event !== null) conditions.push({ kind: 'compare', op: '=', left: field('event'), right: text(input.event) });
  if (input.events && input.events.length > 0) conditions.push({ kind: 'in', negated: false, expr: field('event'), list: input.events.map(text) });
  if (input.personId !== undefined) conditions.push({ kind: 'compare', op: '=', left: { kind: 'field', chain: ['person', 'id'] }, right: text(input.personId) });
  const grouped = items.some((item) => item.kind === 'expr' && item.aggregate) || having.length > 0;
  const groupBy = grouped ? columns.map((column) => column.expr).filter((expr) => expr.kind !== 'constant' && !aggregates(expr)) : [];
  const and = (exprs: Expr[]): Expr | null => (exprs.length === 0 ? null : exprs.length === 1 ? exprs[0]! : { kind: 'and', exprs });
  const tree: SelectQuery = {
    kind: 'select',
    ctes: [],
    distinct: false,
    columns,
    from: { table: 'events', alias: null },
    joins: [],
    where: and(conditions),
    groupBy,
    having: and(having),
    limitBy: null,
    orderBy: order(input, items, columns),
    limit: null,
    offset: input.offset ?? 0,
  };
  return { tree, items };
}

function compiled(input: EventsQueryInput, environment: EnvironmentRow, now: Date): { query: CompiledSelect; items: Item[] } {
  try {
    const properties = input.properties === undefined || input.properties === null ? null : inParameter('properties', () => parsePropertyFilters(input.properties));
    const { tree, items } = eventsQueryTree(input, environment, now);
    const query = compileSelect(tree, {
      teamId: environment.id,
      timezone: environment.timezone,
      // The paginator's page: the request's limit (100 without one), at most 50,000, and one more row read.
      defaultLimit: Math.min(MAX_SELECT_RETURNED_ROWS, input.limit || DEFAULT_RETURNED_ROWS),
      maxLimit: MAX_SELECT_RETURNED_ROWS,
      ...(properties ? { outerCondition: (where) => inParameter('properties', () => compilePropertyGroup(properties, where)) } : {}),
    });
    return { query, items };
  } catch (error) {
    if (error instanceof HogQLError) throw errors.validation(error.message, error.parameter === null ? null : `query__${error.parameter}`);
    throw error;
  }
}

/** A JSON text column (the event's or person's properties) as the object it holds. */
function parsed(value: unknown): unknown {
  // Exactly, as every stored JSON is read: an integer past 2^53 keeps its digits.
  return typeof value === 'string' ? parseJson(value, MAX_JSON_DEPTH) : value;
}

export async function runEventsQuery(
  reader: ReadDb,
  environment: EnvironmentRow,
  input: EventsQueryInput,
  bounds: QueryBounds,
  options: { now?: Date; session?: SessionHook } = {},
): Promise<EventsQueryResult> {
  const now = options.now ?? new Date();
  const started = performance.now();
  const { query, items } = compiled(input, environment, now);
  const { starts } = statementColumns(items);
  const compiledAt = performance.now();
  const shape = (values: unknown[]) =>
    items.map((item, index) => {
      const start = starts[index]!;
      if (item.kind === 'expr') return values[start];
      if (item.kind === 'star') {
        const event: Record<string, unknown> = { team_id: environment.id };
        STAR_FIELDS.forEach((name, offset) => (event[name] = name === 'properties' ? parsed(values[start + offset]) : values[start + offset]));
        return event;
      }
      const [uuid, createdAt, properties, distinctId] = values.slice(start, start + 4);
      // A person is found when it has a created_at; an event's own person id without one is no person row.
      return createdAt === null ? { distinct_id: distinctId } : { uuid, created_at: createdAt, properties: parsed(properties) ?? {}, distinct_id: distinctId };
    });
  const { rows: results, more } = await runCompiledSelect(reader, query, bounds, shape, options.session);
  const types = items.map((item, index) => {
    const start = starts[index]!;
    if (item.kind === 'expr') return query.columns[start]!.clickhouseType;
    const width = item.kind === 'star' ? STAR_FIELDS.length : Object.keys(PERSON_FIELDS).length;
    return `Tuple(${query.columns.slice(start, start + width).map((column) => column.clickhouseType).join(', ')})`;
  });
  const finished = performance.now();
  return {
    results,
    columns: items.map((item) => item.name),
    types,
    hogql: query.hogql,
    timings: [
      { k: './compile', t: seconds(compiledAt - started) },
      { k: './execute', t: seconds(finished - compiledAt) },
      { k: '.', t: seconds(finished - started) },
    ],
    hasMore: more,
    limit: query.limit,
    offset: query.offset,
  };
}
