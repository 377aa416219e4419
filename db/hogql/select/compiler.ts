/**
 * A parsed SELECT (parser.ts) compiled to one parameterised PostgreSQL statement. The table comes from a fixed
 * list (events, persons) and each one's fields from its compiler's fixed table; the environment filter is
 * written here, from the caller's environment, on every table the statement reads (the events, and the persons
 * and distinct ids joined to them), so that no expression can reach another environment's rows or any other
 * table. The row limit always applies.
 */
import type { Expr } from '../ast.js';
import { Compiler, type CompileOptions } from '../compiler.js';
import { HogQLError } from '../errors.js';
import type { FunctionDef } from '../functions.js';
import { join, keyword, param, rowCount, sql, type Fragment } from '../sql.js';
import { coerce, outputColumn, typed, type HogQLType, type Typed } from '../types.js';
import { ARRAY_FUNCTIONS, SELECT_FUNCTIONS } from './functions.js';
import type { SelectColumn, SelectQuery } from './parser.js';
import { printExpr, printSelect } from './print.js';

/** The events compiler's fields, plus the ones PostHog's events table has that the listing does not offer. */
class EventsCompiler extends Compiler {
  protected override functionNamed(lowerCaseName: string): FunctionDef | undefined {
    return SELECT_FUNCTIONS[lowerCaseName] ?? super.functionNamed(lowerCaseName);
  }

  override field(chain: readonly (string | number)[]): Typed {
    const [head, ...rest] = chain;
    if (rest.length === 0) {
      // PostHog's created_at is when the event was stored.
      if (head === 'created_at') return typed(keyword('e.inserted_at'), 'datetime', false);
      if (head === '$session_id' || head === '$window_id') return this.jsonPath(keyword('e.properties'), [head], false);
    }
    if (head === 'person' && rest.length === 1) {
      const columns: Record<string, [string, HogQLType]> = { created_at: ['p.created_at', 'datetime'], is_identified: ['p.is_identified', 'boolean'] };
      const column = typeof rest[0] === 'string' ? columns[rest[0]] : undefined;
      if (column) {
        this.usesPerson = true;
        return typed(keyword(column[0]), column[1], true);
      }
    }
    return super.field(chain);
  }
}

/** The persons table: a person's uuid is its `id`, as in PostHog. */
class PersonsCompiler extends Compiler {
  protected override functionNamed(lowerCaseName: string): FunctionDef | undefined {
    return SELECT_FUNCTIONS[lowerCaseName] ?? super.functionNamed(lowerCaseName);
  }

  override field(chain: readonly (string | number)[]): Typed {
    const [head, ...rest] = chain;
    if (head === 'properties') return this.jsonPath(keyword('p.properties'), rest, false);
    const columns: Record<string, [string, HogQLType]> = {
      id: ['p.uuid', 'uuid'],
      created_at: ['p.created_at', 'datetime'],
      is_identified: ['p.is_identified', 'boolean'],
    };
    const column = typeof head === 'string' && Object.hasOwn(columns, head) ? columns[head] : undefined;
    const name = chain.map(String).join('.');
    if (!column) throw new HogQLError(`Unknown field "${name}" of the table persons.`);
    if (rest.length > 0) throw new HogQLError(`The field "${String(head)}" has no field "${rest.map(String).join('.')}".`);
    return typed(keyword(column[0]), column[1], false);
  }
}

interface Table {
  /** The fields `*` stands for. */
  star: readonly string[];
  compiler(options: CompileOptions): Compiler;
  /** FROM with the environment filter; `usesPerson` adds the events' persons, filtered the same. */
  from(teamId: Fragment, usesPerson: boolean): { from: Fragment; filter: Fragment };
}

const TABLES: Readonly<Record<string, Table>> = {
  events: {
    star: ['uuid', 'event', 'properties', 'timestamp', 'distinct_id', 'elements_chain', 'created_at'],
    compiler: (options) => new EventsCompiler(options),
    from: (teamId, usesPerson) => ({
      from: usesPerson
        ? sql`events e left join person_distinct_ids pdi on pdi.team_id = ${teamId} and pdi.distinct_id = e.distinct_id
            left join persons p on p.id = pdi.person_id and p.team_id = ${teamId}`
        : keyword('events e'),
      filter: sql`e.team_id = ${teamId}`,
    }),
  },
  persons: {
    star: ['id', 'created_at', 'properties', 'is_identified'],
    compiler: (options) => new PersonsCompiler(options),
    from: (teamId) => ({ from: keyword('persons p'), filter: sql`p.team_id = ${teamId}` }),
  },
};

export const TABLE_NAMES = Object.keys(TABLES);

export interface SelectOptions {
  teamId: number;
  timezone: string;
  /** Rows returned without a LIMIT (one more is read, to tell whether more exist). */
  defaultLimit: number;
  /** The most rows a LIMIT may ask for; larger ones are lowered to it. */
  maxLimit: number;
}

export interface SelectOutputColumn {
  name: string;
  /** The ClickHouse type name PostHog gives such a column (its mapping of PostgreSQL types). */
  clickhouseType: string;
  type: HogQLType;
  /** A list (groupArray, splitByChar): shown as a JSON array. */
  array: boolean;
}

export interface CompiledSelect {
  /** PostgreSQL text with $n parameters; equal values of one type share one. */
  text: string;
  params: unknown[];
  columns: SelectOutputColumn[];
  hogql: string;
  limit: number;
  offset: number;
  /** Without a LIMIT: `limit` + 1 rows are read, the last one only telling whether there are more. */
  paginated: boolean;
}

/** Rewrites a tree bottom-up-first: `replace` answers a replacement, or undefined to look inside. */
function mapExpr(expr: Expr, replace: (expr: Expr) => Expr | undefined): Expr {
  const replaced = replace(expr);
  if (replaced) return replaced;
  const m = (inner: Expr) => mapExpr(inner, replace);
  switch (expr.kind) {
    case 'constant':
    case 'field':
      return expr;
    case 'call':
      return { ...expr, args: expr.args.map(m), ...(expr.params ? { params: expr.params.map(m) } : {}) };
    case 'arithmetic':
    case 'compare':
      return { ...expr, left: m(expr.left), right: m(expr.right) };
    case 'negate':
    case 'not':
    case 'isNull':
      return { ...expr, expr: m(expr.expr) };
    case 'in':
      return { ...expr, expr: m(expr.expr), list: expr.list.map(m) };
    case 'between':
      return { ...expr, expr: m(expr.expr), low: m(expr.low), high: m(expr.high) };
    case 'and':
    case 'or':
      return { ...expr, exprs: expr.exprs.map(m) };
    case 'interval':
      return { ...expr, amount: m(expr.amount) };
  }
}

const CLICKHOUSE_TYPES: Readonly<Record<HogQLType, string>> = {
  string: 'String',
  int: 'Int64',
  float: 'Float64',
  boolean: 'Bool',
  datetime: "DateTime64(6, 'UTC')",
  date: 'Date',
  uuid: 'UUID',
  json: 'String',
  null: 'Nothing',
  interval: 'String',
};

function clickhouseType(value: Typed, array: boolean): string {
  if (array) return 'Array(String)';
  const base = CLICKHOUSE_TYPES[value.type];
  return value.nullable ? `Nullable(${base})` : base;
}

/**
 * Numbers the `?` placeholders as $1, $2, …, one number for each distinct (cast, value): the same expression
 * written twice (in SELECT and GROUP BY) is then the same SQL text, which PostgreSQL needs to see that a
 * selected expression is a grouped one.
 */
function numbered(fragment: Fragment): { text: string; params: unknown[] } {
  const params: unknown[] = [];
  const numbers = new Map<string, number>();
  let index = 0;
  const text = fragment.text.replace(/\?(::[a-z0-9_]+(?:\[\])?)?/g, (_match, cast: string | undefined) => {
    const value = fragment.params[index++];
    const key = `${cast ?? ''}|${typeof value}|${JSON.stringify(value)}`;
    let number = numbers.get(key);
    if (number === undefined) {
      params.push(value);
      number = params.length;
      numbers.set(key, number);
    }
    return `$${number}${cast ?? ''}`;
  });
  return { text, params };
}

const same = (a: Expr, b: Expr) => JSON.stringify(a) === JSON.stringify(b);

export function compileSelect(query: SelectQuery, options: SelectOptions): CompiledSelect {
  const table = Object.hasOwn(TABLES, query.from.table) ? TABLES[query.from.table] : undefined;
  if (!table) throw new HogQLError(`Unknown table "${query.from.table}". Tables: ${TABLE_NAMES.join(', ')}.`);
  const tableNames = new Set([query.from.table, ...(query.from.alias === null ? [] : [query.from.alias])]);
  // `e.event` and `events.event` are `event`.
  const unqualified = (expr: Expr) =>
    mapExpr(expr, (inner) =>
      inner.kind === 'field' && inner.chain.length > 1 && typeof inner.chain[0] === 'string' && tableNames.has(inner.chain[0])
        ? { kind: 'field', chain: inner.chain.slice(1) }
        : undefined,
    );
  const columns: SelectColumn[] = query.columns.flatMap((column) =>
    column.star
      ? table.star.map((field) => ({ star: false, expr: { kind: 'field', chain: [field] } as Expr, alias: null, text: field }))
      : [{ ...column, expr: unqualified(column.expr) }],
  );
  // A column's alias names its expression in the other clauses, as in ClickHouse.
  const aliases = new Map<string, Expr>();
  for (const column of columns) if (column.alias !== null) aliases.set(column.alias, column.expr);
  const resolve = (expr: Expr) =>
    mapExpr(unqualified(expr), (inner) =>
      inner.kind === 'field' && inner.chain.length === 1 && typeof inner.chain[0] === 'string' && aliases.has(inner.chain[0])
        ? aliases.get(inner.chain[0])
        : undefined,
    );
  const where = query.where ? resolve(query.where) : null;
  const groupBy = query.groupBy.map(resolve);
  const having = query.having ? resolve(query.having) : null;
  const orderBy = query.orderBy.map((term) => ({ ...term, expr: resolve(term.expr) }));

  const compilerFor = (clause: string, allowAggregates: boolean) => table.compiler({ timezone: options.timezone, clause, allowAggregates });
  const compilers = [compilerFor('SELECT', true), compilerFor('WHERE', false), compilerFor('GROUP BY', false), compilerFor('HAVING', true), compilerFor('ORDER BY', true)] as const;
  const [selecting, filtering, grouping, havingC, ordering] = compilers;
  const values = columns.map((column) => selecting.compile(column.expr));
  const condition = where ? filtering.condition(where) : null;
  const groups = groupBy.map((expr) => grouping.compile(expr));
  const havingValue = having ? havingC.compile(having) : null;
  const orderValues = orderBy.map((term) => ordering.compile(term.expr));

  const names = columns.map((column) => column.alias ?? printExpr(column.expr));
  const grouped = groups.length > 0 || values.some((v) => v.aggregate) || (havingValue?.aggregate ?? false) || orderValues.some((v) => v.aggregate);
  if (grouped) {
    const ungrouped = (expr: Expr, value: Typed) => !value.aggregate && expr.kind !== 'constant' && !groupBy.some((group) => same(group, expr));
    columns.forEach((column, index) => {
      if (ungrouped(column.expr, values[index]!)) {
        throw new HogQLError(`"${names[index]}" must be in GROUP BY or inside an aggregate function.`);
      }
    });
    orderBy.forEach((term, index) => {
      if (ungrouped(term.expr, orderValues[index]!) && !columns.some((column) => same(column.expr, term.expr))) {
        throw new HogQLError(`"${printExpr(term.expr)}" in ORDER BY must be in GROUP BY or inside an aggregate function.`);
      }
    });
  }

  const paginated = query.limit === null;
  const limit = paginated ? options.defaultLimit : Math.min(query.limit!, options.maxLimit);
  const offset = query.offset ?? 0;
  const usesPerson = compilers.some((c) => c.usesPerson);
  const { from, filter } = table.from(param(options.teamId, 'int'), usesPerson);

  const selected = values.map((value, index) => sql`${value.sql} as ${keyword(`c${index}`)}`);
  const clauses: Fragment[] = [sql`select ${keyword(query.distinct ? 'distinct ' : '')}${join(selected, ', ')} from ${from}`];
  clauses.push(sql`where ${filter}${condition ? sql` and ${condition}` : keyword('')}`);
  if (groups.length > 0) clauses.push(sql`group by ${join(groups.map((group) => group.sql), ', ')}`);
  if (havingValue) clauses.push(sql`having ${havingC.truth(havingValue)}`);
  if (orderBy.length > 0) {
    const terms = orderBy.map((term, index) => {
      const column = columns.findIndex((c) => same(c.expr, term.expr));
      // A selected expression is ordered by its output column (which DISTINCT requires).
      const key = column >= 0 ? keyword(`c${column}`) : orderValues[index]!.sql;
      return sql`${key} ${keyword(term.descending ? 'desc nulls last' : 'asc nulls last')}`;
    });
    clauses.push(sql`order by ${join(terms, ', ')}`);
  }
  clauses.push(sql`limit ${rowCount(paginated ? limit + 1 : limit)} offset ${rowCount(offset)}`);

  const outputColumns: SelectOutputColumn[] = values.map((value, index) => {
    const expr = columns[index]!.expr;
    const array = expr.kind === 'call' && ARRAY_FUNCTIONS.has(expr.name.toLowerCase());
    return { name: names[index]!, clickhouseType: clickhouseType(value, array), type: value.type, array };
  });
  // Formatted outside the statement that orders, groups and limits, so that those read the values themselves.
  const outputs = values.map((value, index) => {
    const column = typed(keyword(`q.c${index}`), value.type, value.nullable);
    const shown = value.type === 'json' && !outputColumns[index]!.array ? coerce(column, 'string', { timezone: options.timezone }) : column;
    return sql`${outputColumn(shown)} as ${keyword(`c${index}`)}`;
  });
  const statement = sql`select ${join(outputs, ', ')} from (${join(clauses, ' ')}) q`;
  const { text, params } = numbered(statement);
  return {
    text,
    params,
    columns: outputColumns.map((column) => (column.type === 'json' && !column.array ? { ...column, type: 'string' } : column)),
    hogql: printSelect({ ...query, columns: query.columns }, limit, offset),
    limit,
    offset,
    paginated,
  };
}
