/**
 * A parsed SELECT (parser.ts) compiled to one parameterised PostgreSQL statement. The table comes from a fixed
 * list (events, persons, sessions, groups) and each one's fields from its compiler's fixed table; the environment
 * filter is written here, from the caller's environment, on every table the statement reads (the events, and the
 * persons, distinct ids, groups and sessions joined to them), so that no expression can reach another
 * environment's rows or any other table. The row limit always applies.
 */
import { childrenOf, type Expr, type WindowSpec } from '../ast.js';
import type { Compiler, CompileOptions } from '../compiler.js';
import { HogQLError } from '../errors.js';
import { columnReference, join, keyword, param, rowCount, sql, type Fragment } from '../sql.js';
import { elementOf as itemOf } from '../arrays.js';
import { coerce, comparisonType, constant, outputColumn, shapeOf, TYPE_NAMES, typed, type HogQLType, type Typed } from '../types.js';
import { MAX_NUMBERS, type ArrayJoin, type FromSource, type JoinClause, type QueryNode, type SelectColumn, type SelectQuery, type SetOperator } from './parser.js';
import { functionDefinition } from './functions.js';
import { printExpr, printQuery } from './print.js';
import { bounded, internalAlias, StatementCompiler, type Context, type Core, type SelectOptions } from './statement.js';
import { TABLES, TABLE_NAMES, type Table } from './tables.js';

export { TABLE_NAMES } from './tables.js';
export type { SelectOptions } from './statement.js';

/** A source of rows read as a nested statement, under an internal alias. */
interface NestedSource {
  core: Core;
  alias: string;
}

/** A column of a nested statement by its name, and keys into it when it holds JSON. */
function columnOf(c: Compiler, source: NestedSource & { outer?: boolean }, chain: readonly (string | number)[], what: string): Typed {
  const [head, ...rest] = chain;
  const index = source.core.names.findIndex((name) => name === head);
  if (index < 0) throw new HogQLError(`Unknown field "${chain.map(String).join('.')}" of ${what}.`);
  const value = source.core.values[index]!;
  const column = columnReference(`${source.alias}.c${index}`, value.sql.weight);
  if (rest.length === 0) {
    // Where an outer join found no row, a column ClickHouse cannot hold null in reads as its type's default ('',
    // 0, 1970-01-01, …): PostHog leaves join_use_nulls off. A nullable one (a property) reads as null.
    const filled = source.outer && !value.nullable && value.type !== 'json' && value.type !== 'null' && value.type !== 'interval';
    const read = filled ? sql`coalesce(${column}, ${defaultElement(value.type)})` : column;
    // The column keeps the zone toTimeZone() gave its value, so that the outer query reads its wall clock there too.
    // An array keeps what its elements hold (tuples' item types among them), for the outer query's `.1` and `[1]`.
    const shape = value.type === 'array' ? { elementNullable: value.elementNullable, tupleTypes: value.tupleTypes, elementShape: value.elementShape } : {};
    return { ...typed(read, value.type, value.nullable), zone: value.zone, element: value.element, ...shape };
  }
  if (value.type === 'array' && rest.every((key) => typeof key === 'number')) {
    // `column.N` of an array or a tuple: its item, as tupleElement reads it.
    const container: Typed = { ...typed(column, 'array', value.nullable), ...shapeOf(value) };
    return rest.reduce<Typed>((inner, key) => itemOf(inner, constant(key), true, c.scope), container);
  }
  if (value.type !== 'json') throw new HogQLError(`The field "${String(head)}" has no field "${rest.map(String).join('.')}".`);
  return c.jsonPath(column, rest, true);
}

/** A nested query in FROM: its fields are its columns, by name. */
class SubqueryCompiler extends StatementCompiler {
  constructor(
    options: CompileOptions,
    context: Context,
    private readonly source: NestedSource,
  ) {
    super(options, context);
  }

  override field(chain: readonly (string | number)[]): Typed {
    return columnOf(this, this.source, chain, 'the subquery');
  }
}

/** A joined source and the names a query may give it (its alias, or its table's name). */
interface JoinedSource extends NestedSource {
  names: ReadonlySet<string>;
  /** A side an outer join may find no row for: its fields are null there. */
  outer: boolean;
  /** The fields `*` stands for. */
  star: readonly string[];
}

/** A name of `JOIN … USING (name)`: one column, whichever of the sources that hold it has a row. */
type UsingColumns = ReadonlyMap<string, readonly JoinedSource[]>;

/**
 * The sources of a JOIN: `alias.field` reads that source; a bare field the name of USING, or the one source that
 * has it.
 */
class JoinCompiler extends StatementCompiler {
  constructor(
    options: CompileOptions,
    context: Context,
    sources: readonly JoinedSource[],
    private readonly usings: UsingColumns,
  ) {
    super(options, context);
    // ON reads the rows being matched, never a side filled in for a missing one.
    this.sources = options.clause === 'ON' ? sources.map((source) => ({ ...source, outer: false })) : sources;
  }

  private readonly sources: readonly JoinedSource[];

  override field(chain: readonly (string | number)[]): Typed {
    const [head, ...rest] = chain;
    if (rest.length === 0 && typeof head === 'string' && this.usings.has(head)) return this.usingValue(head, null);
    const named = rest.length > 0 && typeof head === 'string' ? this.sources.find((source) => source.names.has(head)) : undefined;
    if (named) return columnOf(this, named, rest, `"${String(head)}"`);
    const having = this.sources.filter((source) => source.core.names.includes(String(head)));
    const name = chain.map(String).join('.');
    if (having.length === 0) throw new HogQLError(`Unknown field "${name}".`);
    if (having.length > 1) throw new HogQLError(`The field "${name}" is in more than one joined table; name its table, as in alias.${String(head)}.`);
    return columnOf(this, having[0]!, chain, 'the joined table');
  }

  /** A USING column: the first of its sources (in reach, other than `except`) that has a row. */
  usingValue(name: string, except: JoinedSource | null): Typed {
    // Read as they are (not filled in): one of them always has the row.
    const holders = (this.usings.get(name) ?? []).filter((source) => source.alias !== except?.alias && this.sources.some((own) => own.alias === source.alias));
    const values = holders.map((source) => columnOf(this, { ...source, outer: false }, [name], 'the joined table'));
    if (values.length === 0) throw new HogQLError(`Unknown field "${name}".`);
    if (values.length === 1) return values[0]!;
    const type = values[0]!.type;
    const converted = values.map((value) => coerce(value, type, this.scope));
    return typed(sql`coalesce(${join(converted.map((value) => value.sql), ', ')})`, type, converted.every((value) => value.nullable));
  }
}

/** For each name of USING, the sources holding it: the one before the join that has it, then the joined one. */
function usingColumns(query: SelectQuery, joined: readonly JoinedSource[]): UsingColumns {
  const usings = new Map<string, JoinedSource[]>();
  query.joins.forEach((clause, index) => {
    const right = joined[index + 1];
    if (!clause.using || !right) return;
    for (const name of clause.using) {
      if (!right.core.names.includes(name)) throw new HogQLError(`USING (${name}): the joined table has no column "${name}".`);
      const earlier = usings.get(name);
      const left = joined.slice(0, index + 1).filter((source) => source.core.names.includes(name));
      if (!earlier && left.length === 0) throw new HogQLError(`USING (${name}): no table before the join has a column "${name}".`);
      if (!earlier && left.length > 1) throw new HogQLError(`USING (${name}): more than one table before the join has a column "${name}"; join ON a named one.`);
      usings.set(name, [...(earlier ?? left), right]);
    }
  });
  return usings;
}

/** The arguments of a table function: constants, and expressions of them. */
class ConstantsCompiler extends StatementCompiler {
  override field(chain: readonly (string | number)[]): Typed {
    throw new HogQLError(`The arguments of ${this.options.clause} must be constants, not the field "${chain.map(String).join('.')}".`);
  }
}

/** `c`, reading the names of ARRAY JOIN's elements before any field of its sources. */
function withElements(c: Compiler, elements: NestedSource | null): Compiler {
  if (!elements) return c;
  const sourceField = c.field.bind(c);
  c.field = (chain) => (typeof chain[0] === 'string' && elements.core.names.includes(chain[0]) ? columnOf(c, elements, chain, 'ARRAY JOIN') : sourceField(chain));
  return c;
}

/** A SELECT without FROM: one row, and no fields. */
class NoTableCompiler extends StatementCompiler {
  override field(chain: readonly (string | number)[]): Typed {
    throw new HogQLError(`Unknown field "${chain.map(String).join('.')}": a SELECT without FROM has no fields.`);
  }
}

export interface SelectOutputColumn {
  name: string;
  /** The ClickHouse type name PostHog gives such a column (its mapping of PostgreSQL types). */
  clickhouseType: string;
  type: HogQLType;
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

/** Rewrites a tree top-down: `replace` answers a replacement, or undefined to look inside. */
function mapExpr(expr: Expr, replace: (expr: Expr) => Expr | undefined): Expr {
  const replaced = replace(expr);
  if (replaced) return replaced;
  const m = (inner: Expr) => mapExpr(inner, replace);
  switch (expr.kind) {
    case 'constant':
    case 'field':
      return expr;
    case 'call': {
      const over = expr.over
        ? {
            over: {
              ...expr.over,
              partitionBy: expr.over.partitionBy.map(m),
              orderBy: expr.over.orderBy.map((term) => ({ ...term, expr: m(term.expr) })),
            },
          }
        : {};
      return { ...expr, args: expr.args.map(m), ...(expr.params ? { params: expr.params.map(m) } : {}), ...over };
    }
    case 'arithmetic':
    case 'compare':
      return { ...expr, left: m(expr.left), right: m(expr.right) };
    case 'negate':
    case 'not':
    case 'isNull':
    case 'alias':
      return { ...expr, expr: m(expr.expr) };
    case 'in':
      return { ...expr, expr: m(expr.expr), list: expr.list.map(m) };
    case 'inQuery':
      // The nested query has names of its own.
      return { ...expr, expr: m(expr.expr) };
    case 'subquery':
      return expr;
    case 'between':
      return { ...expr, expr: m(expr.expr), low: m(expr.low), high: m(expr.high) };
    case 'and':
    case 'or':
      return { ...expr, exprs: expr.exprs.map(m) };
    case 'interval':
      return { ...expr, amount: m(expr.amount) };
    case 'array':
    case 'tuple':
      return { ...expr, items: expr.items.map(m) };
    case 'lambda':
      // A lambda's parameters shadow the statement's names (a column alias of the same name among them).
      return { ...expr, body: mapExpr(expr.body, (inner) => (inner.kind === 'field' && typeof inner.chain[0] === 'string' && expr.params.includes(inner.chain[0]) ? inner : replace(inner))) };
    case 'element':
      return { ...expr, expr: m(expr.expr), index: m(expr.index) };
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
  array: 'Array',
};

function clickhouseType(value: Typed): string {
  // ClickHouse has no nullable arrays: an empty one stands for none.
  if (value.type === 'array' && value.tupleTypes) return `Tuple(${value.tupleTypes.map((type) => CLICKHOUSE_TYPES[type]).join(', ')})`;
  if (value.type === 'array') {
    const element = value.element ?? 'json';
    const inner = CLICKHOUSE_TYPES[element];
    return `Array(${value.elementNullable === true && element !== 'json' && element !== 'array' ? `Nullable(${inner})` : inner})`;
  }
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

/** Rows a statement reads: `null` for all of them (a nested query without LIMIT). */
type RowLimit = { count: number | null; offset: number };

/** A nested query's own LIMIT, lowered to the maximum. */
function nestedLimit(query: SelectQuery, options: SelectOptions): RowLimit {
  return { count: query.limit === null ? null : Math.min(query.limit, options.maxLimit), offset: query.offset ?? 0 };
}

/**
 * PostgreSQL's spelling of each set operator. ClickHouse's INTERSECT and EXCEPT keep duplicates unless DISTINCT is
 * written (its intersect_default_mode and except_default_mode are ALL).
 */
const SET_OPERATORS: Readonly<Record<SetOperator, string>> = {
  'union all': 'union all',
  'union distinct': 'union',
  intersect: 'intersect all',
  'intersect distinct': 'intersect',
  except: 'except all',
  'except distinct': 'except',
};

/** A query (a SELECT or a UNION ALL) as a nested statement; `limit` overrides a lone SELECT's own. */
function compileNode(node: QueryNode, context: Context, limit: RowLimit | null): Core {
  if (node.kind === 'select') return compileSelectCore(node, context, limit ?? nestedLimit(node, context.options), null);
  const first = compileSelectCore(node.parts[0]!, context, nestedLimit(node.parts[0]!, context.options), null);
  const rest = node.parts.slice(1).map((part) => {
    const starred = part.columns.some((column) => column.star);
    const mismatch = (count: number) =>
      new HogQLError(`Each query of UNION ALL must select as many columns as the first (${first.values.length}), not ${count}.`);
    if (!starred && part.columns.length !== first.values.length) throw mismatch(part.columns.length);
    const core = compileSelectCore(part, context, nestedLimit(part, context.options), first.values);
    // `*` is counted once it is expanded.
    if (core.values.length !== first.values.length) throw mismatch(core.values.length);
    return core;
  });
  const parts = [first, ...rest];
  const union = join(
    parts.map((part, index) => (index === 0 ? sql`(${part.sql})` : sql` ${keyword(SET_OPERATORS[node.operators[index - 1]!])} (${part.sql})`)),
    '',
  );
  const core: Core = {
    sql: limit && limit.count !== null ? sql`select * from (${union}) u limit ${rowCount(limit.count)} offset ${rowCount(limit.offset)}` : union,
    values: first.values.map((value, index) => {
      const typedPart = parts.find((part) => part.values[index]!.type !== 'null') ?? first;
      // A zone only when every part's datetimes have it: otherwise no one wall clock reads them all.
      const zones = new Set(parts.filter((part) => part.values[index]!.type !== 'null').map((part) => part.values[index]!.zone));
      return {
        ...typedPart.values[index]!,
        nullable: parts.some((part) => part.values[index]!.nullable),
        zone: zones.size === 1 ? [...zones][0] : undefined,
      };
    }),
    names: first.names,
  };
  return bounded(core, context);
}

/**
 * A JOIN's ON: its equalities plainly `a = b`, so that PostgreSQL can hash or merge the join (as in ClickHouse's
 * joins, a null matches nothing); anything else as a condition. `equalitiesOnly`: for FULL JOIN, which
 * PostgreSQL runs only on equalities, anything else is refused.
 */
function joinCondition(on: Compiler, expr: Expr, timezone: string, equalitiesOnly: boolean): Fragment {
  if (expr.kind === 'and') return sql`(${join(expr.exprs.map((part) => joinCondition(on, part, timezone, equalitiesOnly)), ' and ')})`;
  const refuse = () => {
    if (equalitiesOnly) throw new HogQLError(`The ON of a FULL JOIN must be equalities joined by AND (a.x = b.y AND …), not "${printExpr(expr)}".`);
  };
  if (expr.kind !== 'compare' || expr.op !== '=') {
    refuse();
    return on.condition(expr);
  }
  const [left, right] = [on.compile(expr.left), on.compile(expr.right)];
  if (comparisonType(left, right, false) === null || left.type === 'null' || right.type === 'null') {
    refuse();
    return on.condition(expr);
  }
  return equality(left, right, timezone);
}

/** `l = r` in the type they compare in. */
function equality(left: Typed, right: Typed, timezone: string): Fragment {
  const type = comparisonType(left, right, false);
  if (type === null) throw new HogQLError(`Cannot compare a ${TYPE_NAMES[left.type]} with a ${TYPE_NAMES[right.type]}.`);
  const [l, r] = [coerce(left, type, { timezone }), coerce(right, type, { timezone })];
  return sql`(${l.sql} = ${r.sql})`;
}

/**
 * One join as PostgreSQL writes it, and a condition for WHERE where it needs one. ANY LEFT keeps one matching
 * row of the right side (any one, as in ClickHouse), SEMI LEFT the left rows with a match (with one of them), ANTI
 * LEFT the left rows without one (the right side's fields null).
 */
function joinSql(
  clause: JoinClause,
  right: JoinedSource,
  on: JoinCompiler,
  resolve: (expr: Expr) => Expr,
  timezone: string,
): { join: Fragment; filter: Fragment | null } {
  const rightSql = sql`(${right.core.sql}) ${keyword(right.alias)}`;
  if (clause.type === 'cross') return { join: sql` cross join ${rightSql}`, filter: null };
  const condition = clause.using
    ? sql`(${join(clause.using.map((name) => equality(on.usingValue(name, right), columnOf(on, { ...right, outer: false }, [name], 'the joined table'), timezone)), ' and ')})`
    : joinCondition(on, resolve(clause.on!), timezone, clause.type === 'full');
  if (clause.strictness === 'all') return { join: sql` ${keyword(`${clause.type} join`)} ${rightSql} on ${condition}`, filter: null };
  if (clause.type !== 'left') {
    throw new HogQLError(`${clause.strictness.toUpperCase()} is supported with LEFT JOIN only; write ${clause.strictness.toUpperCase()} LEFT JOIN with the tables the other way round.`);
  }
  const firstMatch = sql`(select * from ${rightSql} where ${condition} limit 1) ${keyword(right.alias)}`;
  switch (clause.strictness) {
    case 'any':
      return { join: sql` left join lateral ${firstMatch} on true`, filter: null };
    case 'semi':
      return { join: sql` cross join lateral ${firstMatch}`, filter: null };
    case 'anti':
      return { join: sql` left join ${rightSql} on false`, filter: sql`not exists (select 1 from ${rightSql} where ${condition})` };
  }
}

/** The name a source has without its alias: a table's, and a table function's (`numbers.number`, as in ClickHouse). */
function sourceName(each: FromSource): string[] {
  if ('table' in each) return [each.table];
  return 'tableFunction' in each && each.alias === null ? [each.tableFunction] : [];
}

/** A FROM source: a WITH query (which shadows a table of its name), a nested query or numbers() as a statement, or a table. */
function resolveSource(from: FromSource, context: Context): { table: Table | null; core: Core | null } {
  if ('query' in from) return { table: null, core: compileNode(from.query, context, null) };
  if ('tableFunction' in from) return { table: null, core: numbersCore(from.args, context) };
  if (context.ctes.has(from.table)) {
    if (context.expanding.has(from.table)) throw new HogQLError(`The WITH query "${from.table}" refers to itself.`);
    const inner = { ...context, expanding: new Set([...context.expanding, from.table]) };
    return { table: null, core: compileNode(context.ctes.get(from.table)!, inner, null) };
  }
  const table = Object.hasOwn(TABLES, from.table) ? TABLES[from.table]! : null;
  if (!table) throw new HogQLError(`Unknown table "${from.table}". Tables: ${TABLE_NAMES.join(', ')}.`);
  return { table, core: null };
}

/**
 * numbers(n) and numbers(offset, n): the integers from offset (0), n of them, in the column `number`, as
 * ClickHouse's table function; at most MAX_NUMBERS of them. A constant is checked here; an expression of
 * constants (`numbers(dateDiff('day', …))`, as PostHog's trends write it) where it runs.
 */
function numbersCore(args: readonly Expr[], context: Context): Core {
  if (args.length < 1 || args.length > 2) throw new HogQLError(`numbers() takes 1 or 2 arguments (the count, or the first number and the count), got ${args.length}.`);
  const constants = new ConstantsCompiler({ timezone: context.options.timezone, clause: 'numbers()', allowAggregates: false }, context);
  const checked = (expr: Expr, what: string, max: number): Fragment => {
    if (expr.kind === 'constant') {
      if (typeof expr.value !== 'number' || !Number.isSafeInteger(expr.value) || expr.value < 0) {
        throw new HogQLError(`${what} of numbers() must be a non-negative integer constant.`);
      }
      if (expr.value > max) throw new HogQLError(`${what} of numbers() may be at most ${max}, not ${expr.value}.`);
      return param(expr.value, 'bigint');
    }
    const value = constants.compile(expr);
    if (!['int', 'float', 'json'].includes(value.type)) throw new HogQLError(`${what} of numbers() must be a non-negative integer constant.`);
    const count = coerce(value, 'int', constants.scope).sql;
    // Out of range, the cast of this text fails: a data error, answered as a 400 that quotes it. (random() keeps
    // PostgreSQL from running the cast while it plans.)
    const refusal = param(`${what} of numbers() must be from 0 to ${max}`, 'text');
    return sql`(case when ${count} between 0 and ${rowCount(max)} then ${count} else cast(repeat(${refusal}, (random() >= 0)::int) as bigint) end)`;
  };
  const offset = args.length === 2 ? checked(args[0]!, 'The first number', Number.MAX_SAFE_INTEGER - MAX_NUMBERS) : param(0, 'bigint');
  const count = checked(args[args.length - 1]!, 'The count', MAX_NUMBERS);
  const body = sql`select n as c0 from generate_series(${offset}, ${offset} + ${count} - 1) n`;
  return bounded({ sql: body, values: [typed(keyword('n'), 'int', false)], names: ['number'] }, context);
}

/** Expressions the names of a statement may stand for, written out, before the query is refused. */
const MAX_ALIAS_EXPANSIONS = 10_000;

/** `OVER w`, `OVER (w ORDER BY …)`: the window of the WINDOW clause, with what the call adds to it. */
function namedWindow(spec: WindowSpec, windows: ReadonlyMap<string, WindowSpec>, seen: ReadonlySet<string> = new Set()): WindowSpec {
  const name = spec.base!;
  const named = windows.get(name);
  if (!named) {
    throw new HogQLError(`Unknown window "${name}": ${windows.size > 0 ? `WINDOW defines ${[...windows.keys()].join(', ')}` : 'define it in a WINDOW clause'}.`);
  }
  if (seen.has(name)) throw new HogQLError(`The window "${name}" is defined by itself.`);
  const base = named.base === undefined ? named : namedWindow(named, windows, new Set([...seen, name]));
  if (spec.partitionBy.length > 0) throw new HogQLError(`A window built on "${name}" cannot add PARTITION BY; put it in "${name}".`);
  if (spec.orderBy.length > 0 && base.orderBy.length > 0) throw new HogQLError(`The window "${name}" has an ORDER BY already.`);
  return { partitionBy: base.partitionBy, orderBy: spec.orderBy.length > 0 ? spec.orderBy : base.orderBy, frame: spec.frame ?? base.frame };
}

/** The value ClickHouse gives an element that is not there (an empty array under LEFT ARRAY JOIN, a shorter array's end). */
function defaultElement(element: HogQLType): Fragment {
  const defaults: Partial<Record<HogQLType, string>> = {
    string: "''::text",
    int: '0::bigint',
    float: '0::numeric',
    boolean: 'false',
    date: "date '1970-01-01'",
    datetime: "timestamptz '1970-01-01 00:00:00+00'",
    uuid: "'00000000-0000-0000-0000-000000000000'::uuid",
    array: "'[]'::jsonb",
  };
  return keyword(defaults[element] ?? 'null::jsonb');
}

/** An element of a jsonb array, read as the array's element type. */
function elementOf(ref: Fragment, element: HogQLType, c: Compiler): Typed {
  const raw = typed(ref, 'json', true);
  switch (element) {
    case 'json':
    case 'null':
      return raw;
    case 'uuid':
      return typed(sql`(${ref} #>> '{}')::uuid`, 'uuid', true);
    case 'array':
      return { ...typed(sql`(case when jsonb_typeof(${ref}) = 'array' then ${ref} end)`, 'array', true), element: 'json' };
    default:
      return coerce(raw, element, c.scope);
  }
}

/**
 * `[LEFT] ARRAY JOIN a AS x, b AS y`: a lateral source of the arrays' elements, zipped (a shorter array's missing
 * elements are its type's default, as ClickHouse's enable_unaligned_array_join gives them), under their names.
 * The rows it adds are the arrays' elements, which are bounded where the arrays are built; the answer's row limit
 * bounds the rest.
 */
function arrayJoinSource(arrayJoin: ArrayJoin, c: Compiler, context: Context, resolve: (expr: Expr) => Expr): { source: NestedSource; join: Fragment } {
  const names: string[] = [];
  const arrays: Fragment[] = [];
  const values: Typed[] = [];
  arrayJoin.items.forEach((item, index) => {
    const expr = item.expr;
    const name = item.alias ?? (expr.kind === 'field' && expr.chain.length === 1 && typeof expr.chain[0] === 'string' ? expr.chain[0] : null);
    if (name === null) throw new HogQLError(`Name the array of ARRAY JOIN: ARRAY JOIN ${printExpr(expr)} AS name.`);
    if (names.includes(name)) throw new HogQLError(`ARRAY JOIN names two arrays "${name}".`);
    const value = c.compile(resolve(expr));
    const array = value.type === 'json' ? coerce(value, 'array', c.scope) : value;
    if (array.type !== 'array') throw new HogQLError(`ARRAY JOIN needs an array: "${printExpr(expr)}" is a ${TYPE_NAMES[value.type]}.`);
    arrays.push(sql`jsonb_array_elements(coalesce(${array.sql}, '[]'::jsonb))`);
    const element = array.element ?? 'json';
    const ref = keyword(`aj.v${index}`);
    const read = elementOf(ref, element, c);
    const fragment = sql`(case when ${ref} is null then ${defaultElement(element)} else ${read.sql} end)`;
    values.push({ ...typed(fragment, read.type, read.nullable || !['string', 'int', 'float', 'boolean', 'date', 'datetime', 'uuid', 'array'].includes(element)), element: read.element });
    names.push(name);
  });
  const columns = join(values.map((value, index) => sql`${value.sql} as ${keyword(`c${index}`)}`), ', ');
  const rows = sql`rows from (${join(arrays, ', ')}) as aj(${keyword(names.map((_name, index) => `v${index}`).join(', '))})`;
  // LEFT ARRAY JOIN keeps a row whose arrays are empty, with default elements.
  const body = arrayJoin.left ? sql`select ${columns} from (select 1) aj_row left join ${rows} on true` : sql`select ${columns} from ${rows}`;
  const alias = internalAlias(context);
  return {
    source: { core: { sql: body, values, names }, alias },
    join: sql` cross join lateral (${body}) ${keyword(alias)}`,
  };
}

/** A table's fields for a JOIN, as a nested statement. */
function tableFields(table: Table, from: { table: string }, context: Context): Core {
  const fields: SelectQuery = {
    kind: 'select',
    ctes: [],
    distinct: false,
    columns: table.joinFields.map((field) => ({ star: false, expr: { kind: 'field', chain: [field] }, alias: null })),
    from: { table: from.table, alias: null },
    joins: [],
    arrayJoin: null,
    windows: [],
    where: null,
    groupBy: [],
    having: null,
    orderBy: [],
    limitBy: null,
    limit: null,
    offset: null,
  };
  return compileSelectCore(fields, context, { count: null, offset: 0 }, null);
}

/**
 * `SELECT arrayJoin(pairs) AS pair, pair.1 AS day, pair.2 AS status`: columns that read the arrayJoin's element by
 * its name. ClickHouse computes them on each element; PostgreSQL's set-returning function cannot stand inside
 * another expression, so the statement becomes a nested one that selects the element, and an outer one that
 * computes those columns from it. Null when no column reads the element.
 */
function arrayJoinReaders(query: SelectQuery): SelectQuery | null {
  if (query.columns.some((column) => column.star)) return null;
  const nameOf = (column: SelectColumn) => column.alias ?? (column.expr.kind === 'alias' ? column.expr.name : null);
  const bodyOf = (column: SelectColumn) => (column.expr.kind === 'alias' ? column.expr.expr : column.expr);
  const joinColumns = query.columns.filter((column) => isArrayJoin(bodyOf(column)) && nameOf(column) !== null);
  if (joinColumns.length !== 1) return null;
  // The columns that read the element, and those that read them, in turn.
  const derived = new Set([nameOf(joinColumns[0]!)!]);
  const readers = new Set<SelectColumn>();
  for (let grown = true; grown; ) {
    grown = false;
    for (const column of query.columns) {
      if (column === joinColumns[0] || readers.has(column)) continue;
      let reads = false;
      mapExpr(column.expr, (inner) => {
        if (inner.kind === 'field' && typeof inner.chain[0] === 'string' && derived.has(inner.chain[0])) reads = true;
        return undefined;
      });
      if (!reads) continue;
      readers.add(column);
      const name = nameOf(column);
      if (name !== null) derived.add(name);
      grown = true;
    }
  }
  if (readers.size === 0) return null;
  const names = query.columns.map((column) => nameOf(column) ?? printExpr(column.expr));
  for (const column of readers) {
    mapExpr(column.expr, (inner) => {
      const fn = inner.kind === 'call' ? functionDefinition(inner.name) : undefined;
      if (inner.kind === 'call' && (inner.over || fn?.aggregate || isArrayJoin(inner))) {
        throw new HogQLError(`"${printExpr(column.expr)}" reads an arrayJoin() element together with an aggregate or another arrayJoin(); compute it in an outer query.`);
      }
      return undefined;
    });
  }
  // ORDER BY moves out (with LIMIT) when it reads the element's columns; DISTINCT is over all the columns.
  const readsDerived = (expr: Expr) => {
    let reads = false;
    mapExpr(expr, (inner) => {
      if (inner.kind === 'field' && typeof inner.chain[0] === 'string' && derived.has(inner.chain[0])) reads = true;
      return undefined;
    });
    return reads;
  };
  const orderOutside = query.orderBy.some((term) => readsDerived(term.expr));
  const inner: SelectQuery = {
    ...query,
    distinct: false,
    columns: query.columns.flatMap((column, index) => (readers.has(column) ? [] : [{ star: false, expr: bodyOf(column), alias: names[index]! }])),
    ...(orderOutside ? { orderBy: [], limit: null, offset: null, withTies: false } : {}),
  };
  return {
    kind: 'select',
    ctes: [],
    distinct: query.distinct,
    columns: query.columns.map((column, index) =>
      readers.has(column) ? { star: false, expr: bodyOf(column), alias: names[index]! } : { star: false, expr: { kind: 'field', chain: [names[index]!] }, alias: names[index]! },
    ),
    from: { query: inner, alias: null },
    joins: [],
    arrayJoin: null,
    windows: [],
    where: null,
    groupBy: [],
    having: null,
    orderBy: orderOutside ? query.orderBy : [],
    limitBy: null,
    limit: orderOutside ? query.limit : null,
    offset: orderOutside ? query.offset : null,
    withTies: orderOutside && query.withTies === true,
  };
}

/**
 * One SELECT. `types`: the columns' types when it is a later part of a UNION ALL (its values are brought to the
 * first part's).
 */
function compileSelectCore(query: SelectQuery, outer: Context, limit: RowLimit, types: readonly Typed[] | null): Core {
  const split = arrayJoinReaders(query);
  // The outer statement applies the LIMIT where its ORDER BY is; otherwise the nested one has it, and its OFFSET.
  if (split) return compileSelectCore(split, outer, split.orderBy.length > 0 ? limit : { count: limit.count, offset: 0 }, types);
  const ctes = new Map(outer.ctes);
  for (const [name, cte] of query.ctes) ctes.set(name, cte);
  const context: Context = { ...outer, ctes };
  const { options } = context;

  // The source: a WITH query (which shadows a table of its name), a nested query, numbers() or a table; none
  // without FROM. With joins or ARRAY JOIN, every source is read as a nested statement of its fields, each with
  // its own environment filter.
  const from = query.from;
  let table: Table | null = null;
  let source: NestedSource | null = null;
  const joined: JoinedSource[] = [];
  if (query.joins.length > 0) {
    const froms = [from!, ...query.joins.map((clause) => clause.source)];
    froms.forEach((each, index) => {
      const { table: joinedTable, core } = resolveSource(each, context);
      const names = new Set([...(each.alias !== null ? [each.alias] : sourceName(each))]);
      for (const name of names) {
        if (joined.some((other) => other.names.has(name))) throw new HogQLError(`Two joined tables are named "${name}"; give one an alias.`);
      }
      const fields = core ?? tableFields(joinedTable!, each as { table: string }, context);
      // A source's fields are null where a LEFT or FULL join attaching it, or a RIGHT or FULL join after it, found no row.
      const attaching = index > 0 ? query.joins[index - 1]!.type : null;
      const outerSide = attaching === 'left' || attaching === 'full' || query.joins.slice(index).some((clause) => clause.type === 'right' || clause.type === 'full');
      joined.push({ core: fields, alias: internalAlias(context), names, outer: outerSide, star: joinedTable ? joinedTable.star : fields.names });
    });
  } else if (from) {
    const resolved = resolveSource(from, context);
    table = resolved.table;
    source = resolved.core ? { core: resolved.core, alias: internalAlias(context) } : null;
  } else if (query.columns.some((column) => column.star)) {
    throw new HogQLError('* needs a FROM: a SELECT without FROM has no fields.');
  }
  const tableNames = new Set(joined.length > 0 || !from ? [] : [...sourceName(from), ...(from.alias === null ? [] : [from.alias])]);
  // `e.event` and `events.event` are `event`.
  const unqualified = (expr: Expr) =>
    mapExpr(expr, (inner) =>
      inner.kind === 'field' && inner.chain.length > 1 && typeof inner.chain[0] === 'string' && tableNames.has(inner.chain[0])
        ? { kind: 'field', chain: inner.chain.slice(1) }
        : undefined,
    );
  const starFields = table ? table.star : (source?.core.names ?? []);
  // `*` and `alias.*`: the fields of the table, or of each joined one (named by its name where it has one).
  const starOf = (of: string | undefined): Expr[] => {
    const unknown = () => new HogQLError(`Unknown table "${of}" in ${of}.*.`);
    if (joined.length === 0) {
      if (of !== undefined && !tableNames.has(of)) throw unknown();
      return starFields.map((field) => ({ kind: 'field', chain: [field] }));
    }
    const chosen = of === undefined ? joined : joined.filter((each) => each.names.has(of));
    if (chosen.length === 0) throw unknown();
    return chosen.flatMap((each) => {
      const [name] = [...each.names];
      return each.star.map((field): Expr => ({ kind: 'field', chain: name === undefined ? [field] : [name, field] }));
    });
  };
  const written: SelectColumn[] = query.columns.flatMap((column) =>
    column.star ? starOf(column.of).map((expr): SelectColumn => ({ star: false, expr, alias: null })) : [{ ...column, expr: unqualified(column.expr) }],
  );
  // `(expr AS name)` names its expression as a column's alias does.
  const names = written.map((column) => column.alias ?? (column.expr.kind === 'alias' ? column.expr.name : printExpr(column.expr)));

  // A column's alias, and `(expr AS name)` anywhere in the statement, names its expression in every clause, as
  // in ClickHouse; a name an expression gives itself (`toStartOfDay(timestamp) AS timestamp`) is the field inside it.
  const aliases = new Map<string, Expr>();
  const define = (name: string, expr: Expr) => {
    const known = aliases.get(name);
    if (known && !same(known, expr)) throw new HogQLError(`The name "${name}" is given to two different expressions.`);
    aliases.set(name, expr);
  };
  const clauseExprs = [
    ...written.map((column) => column.expr),
    ...(query.where ? [query.where] : []),
    ...query.groupBy,
    ...(query.having ? [query.having] : []),
    ...query.orderBy.map((term) => term.expr),
    ...(query.limitBy?.by ?? []),
  ];
  for (const expr of clauseExprs) {
    mapExpr(expr, (inner) => {
      if (inner.kind === 'alias') define(inner.name, unqualified(inner.expr));
      return undefined;
    });
  }
  written.forEach((column) => {
    if (column.alias !== null) define(column.alias, column.expr.kind === 'alias' ? column.expr.expr : column.expr);
  });
  for (const [name, expr] of query.withNames ?? []) define(name, unqualified(expr));
  const windows = new Map(query.windows ?? []);
  let expansions = 0;
  const resolve = (expr: Expr, excluded: ReadonlySet<string> = new Set()): Expr =>
    mapExpr(unqualified(expr), (inner) => {
      if (inner.kind === 'alias') return resolve(inner.expr, new Set([...excluded, inner.name]));
      if (inner.kind === 'call' && inner.over?.base !== undefined) return resolve({ ...inner, over: namedWindow(inner.over, windows) }, excluded);
      if (inner.kind !== 'field' || typeof inner.chain[0] !== 'string') return undefined;
      const [name, ...rest] = inner.chain as [string, ...(string | number)[]];
      const named = aliases.get(name);
      if (!named || excluded.has(name)) return undefined;
      // `p.name` of a joined table `p` reads the table, whatever a column is called.
      if (rest.length > 0 && joined.some((each) => each.names.has(name))) return undefined;
      // Names that name each other twice over would write out a tree exponential in their number.
      expansions += 1;
      if (expansions > MAX_ALIAS_EXPANSIONS) throw new HogQLError(`The query's names stand for more than ${MAX_ALIAS_EXPANSIONS} expressions written out in full.`);
      // `pair.1`, `list[2]`, `props.key`: the rest of the name reads inside the named value, as ClickHouse reads it.
      return rest.reduce<Expr>(
        (container, key) => ({ kind: 'element', expr: container, index: { kind: 'constant', value: key }, tuple: typeof key === 'number' }),
        resolve(named, new Set([...excluded, name])),
      );
    });
  const columns: SelectColumn[] = written.map((column) => {
    const own = column.alias ?? (column.expr.kind === 'alias' ? column.expr.name : null);
    return { ...column, expr: resolve(column.expr, new Set(own === null ? [] : [own])) };
  });
  // `GROUP BY 1`, `ORDER BY 2 DESC`: a positive integer constant is that column, as ClickHouse's positional arguments.
  const positional = (clause: string) => (expr: Expr): Expr => {
    if (expr.kind !== 'constant' || typeof expr.value !== 'number' || !Number.isInteger(expr.value)) return expr;
    if (expr.value < 1 || expr.value > columns.length) {
      throw new HogQLError(`${clause} ${expr.value} names no column: the query selects ${columns.length} column${columns.length === 1 ? '' : 's'}.`);
    }
    return columns[expr.value - 1]!.expr;
  };
  const where = query.where ? resolve(query.where) : null;
  const groupBy = query.groupBy.map((expr) => positional('GROUP BY')(resolve(expr)));
  const having = query.having ? resolve(query.having) : null;
  const orderBy = query.orderBy.map((term) => ({ ...term, expr: positional('ORDER BY')(resolve(term.expr)) }));

  // ARRAY JOIN: one more source, whose fields are the arrays' elements under their names.
  const usings = usingColumns(query, joined);
  const sourceCompiler = (clause: string, allowAggregates: boolean): Compiler => {
    const compileOptions = { timezone: options.timezone, clause, allowAggregates };
    if (joined.length > 0) return new JoinCompiler(compileOptions, context, joined, usings);
    if (!table && !source) return new NoTableCompiler(compileOptions, context);
    return table ? table.compiler(compileOptions, context) : new SubqueryCompiler(compileOptions, context, source!);
  };
  // The arrays are read from the sources (a table keeps its own fields: person.…, the implicit joins).
  const arraysCompiler = query.arrayJoin ? sourceCompiler('ARRAY JOIN', false) : null;
  const arrayJoined = query.arrayJoin ? arrayJoinSource(query.arrayJoin, arraysCompiler!, context, resolve) : null;
  const compilerFor = (clause: string, allowAggregates: boolean): Compiler => withElements(sourceCompiler(clause, allowAggregates), arrayJoined?.source ?? null);
  checkArrayJoins(query, columns, groupBy, orderBy);
  const limitByTerms = query.limitBy ? query.limitBy.by.map((expr) => positional('LIMIT BY')(resolve(expr))) : [];
  const compilers = [
    compilerFor('SELECT', true),
    compilerFor('WHERE', false),
    compilerFor('GROUP BY', false),
    compilerFor('HAVING', true),
    compilerFor('ORDER BY', true),
    compilerFor('LIMIT BY', true),
  ] as const;
  const [selecting, filtering, grouping, havingC, ordering, limitingBy] = compilers;
  // A property the query groups by is grouped by its text, as PostHog reads properties (as strings): a JSON null
  // and a missing key are one group, 1 and "1" one too, and PostgreSQL groups text faster than jsonb. Every
  // clause after the grouping reads that key as the same text.
  const textKeys = groupBy.filter((expr) => grouping.compile(expr).type === 'json');
  const asGroupedText = (expr: Expr): Expr =>
    textKeys.length === 0 ? expr : mapExpr(expr, (inner) => (textKeys.some((key) => same(key, inner)) ? { kind: 'call', name: 'toString', args: [inner] } : undefined));
  const values = columns.map((column) => selecting.compile(asGroupedText(column.expr)));
  const condition = where ? filtering.condition(where) : null;
  const groups = groupBy.map((expr) => grouping.compile(asGroupedText(expr)));
  const havingValue = having ? havingC.compile(asGroupedText(having)) : null;
  const orderValues = orderBy.map((term) => ordering.compile(asGroupedText(term.expr)));
  const limitByValues = limitByTerms.map((expr) => limitingBy.compile(asGroupedText(expr)));

  const grouped = groups.length > 0 || values.some((v) => v.aggregate) || (havingValue?.aggregate ?? false) || orderValues.some((v) => v.aggregate);
  if (grouped) {
    // A window function's fields are PostgreSQL's to check (it names the one that is not grouped).
    const ungrouped = (expr: Expr, value: Typed) =>
      !value.aggregate && readsFields(expr) && !(expr.kind === 'call' && expr.over) && !groupBy.some((group) => same(group, expr));
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

  let outerCondition: Fragment | null = null;
  if (options.outerCondition && query === context.outermost) {
    if (!table || !from || !('table' in from) || from.table !== 'events') throw new Error('outerCondition reads events e.');
    outerCondition = options.outerCondition(filtering);
  }
  const reading = arraysCompiler ? [...compilers, arraysCompiler] : compilers;
  const usesPerson = reading.some((c) => c.usesPerson);
  const implicitJoins = new Set(reading.flatMap((c) => (c instanceof StatementCompiler ? [...c.implicitJoins] : [])));
  const elementsJoin = arrayJoined ? arrayJoined.join : keyword('');
  let fromSql: Fragment | null = null;
  const conditions: Fragment[] = [];
  if (table) {
    const tableFrom = table.from(param(options.teamId, 'int'), { person: usesPerson, implicitJoins });
    fromSql = sql`${tableFrom.from}${elementsJoin}`;
    if (tableFrom.filter) conditions.push(tableFrom.filter);
  } else if (source) {
    fromSql = sql`(${source.core.sql}) ${keyword(source.alias)}${elementsJoin}`;
  } else if (joined.length > 0) {
    const [first, ...rest] = joined;
    const joins = rest.map((right, index) => {
      const clause = query.joins[index]!;
      // ON sees the sources joined so far, as PostgreSQL's ON does.
      const on = new JoinCompiler({ timezone: options.timezone, clause: 'ON', allowAggregates: false }, context, joined.slice(0, index + 2), usings);
      const written = joinSql(clause, right, on, resolve, options.timezone);
      if (written.filter) conditions.push(written.filter);
      return written.join;
    });
    fromSql = sql`(${first!.core.sql}) ${keyword(first!.alias)}${join(joins, '')}${elementsJoin}`;
  }
  if (condition) conditions.push(condition);
  if (outerCondition) conditions.push(outerCondition);

  // (A null column of the first part takes the others' type, as PostgreSQL resolves it.)
  const selectedValues = types
    ? values.map((value, index) => (types[index] === undefined || types[index].type === 'null' ? value : coerce(value, types[index].type, { timezone: options.timezone })))
    : values;
  const selected = selectedValues.map((value, index) => sql`${value.sql} as ${keyword(`c${index}`)}`);
  // With DISTINCT, ClickHouse orders the distinct rows by expressions of their columns: an order term that is not a
  // selected column is computed over those rows, in a statement wrapping the distinct one (PostgreSQL would refuse
  // it in the same statement).
  const overDistinct = query.distinct && !query.limitBy && orderBy.some((term) => !columns.some((column) => same(column.expr, term.expr)));
  const distinctAlias = overDistinct ? internalAlias(context) : '';
  const distinctRows: NestedSource = { core: { sql: keyword(''), values: selectedValues, names: selectedValues.map((_value, index) => `c${index}`) }, alias: distinctAlias };
  const distinctOrderValues = overDistinct
    ? orderBy.map((term) => new SubqueryCompiler({ timezone: options.timezone, clause: 'ORDER BY', allowAggregates: false }, context, distinctRows).compile(overSelectedColumns(term.expr, columns)))
    : null;
  // With LIMIT BY, the statement also numbers each row within its LIMIT BY values (in the query's order) and keeps
  // the order keys it does not select, and a wrapping statement keeps the rows whose number is in range.
  const hidden: Fragment[] = [];
  const orderKey = (index: number, prefix: string): Fragment => {
    const column = columns.findIndex((c) => same(c.expr, orderBy[index]!.expr));
    // A selected expression is ordered by its output column (which DISTINCT requires).
    if (column >= 0) return columnReference(`${prefix}c${column}`, values[column]!.sql.weight);
    if (distinctOrderValues) return distinctOrderValues[index]!.sql;
    if (!query.limitBy) return orderValues[index]!.sql;
    hidden.push(sql`${orderValues[index]!.sql} as ${keyword(`o${index}`)}`);
    return columnReference(`${prefix}o${index}`, orderValues[index]!.sql.weight);
  };
  // As in ClickHouse, nulls come last either way: PostgreSQL's own order for ASC, to be asked for DESC. Only where
  // the value may be null, since an index (events by timestamp) is read in order only for a plain ASC or DESC.
  const direction = (index: number) => {
    const { descending, nullsFirst } = orderBy[index]!;
    const order = descending ? 'desc' : 'asc';
    if (!(distinctOrderValues ?? orderValues)[index]!.nullable) return keyword(order);
    return keyword(nullsFirst ? `${order} nulls first` : descending ? 'desc nulls last' : 'asc');
  };
  const orderTerms = (prefix: string) => orderBy.map((_term, index) => sql`${orderKey(index, prefix)} ${direction(index)}`);
  const finalClauses: Fragment[] = [];
  const orderPrefix = query.limitBy ? 'lb.' : overDistinct ? `${distinctAlias}.` : '';
  if (orderBy.length > 0) finalClauses.push(sql`order by ${join(orderTerms(orderPrefix), ', ')}`);
  if (query.withTies && limit.count !== null) {
    finalClauses.push(sql`offset ${rowCount(limit.offset)} rows fetch first ${rowCount(limit.count)} rows with ties`);
  } else {
    if (limit.count !== null) finalClauses.push(sql`limit ${rowCount(limit.count)}`);
    if (limit.offset > 0 || limit.count !== null) finalClauses.push(sql`offset ${rowCount(limit.offset)}`);
  }
  if (query.limitBy) {
    const windowOrder = orderBy.map((_term, index) => sql`${orderValues[index]!.sql} ${direction(index)}`);
    const over = [sql`partition by ${join(limitByValues.map((value) => value.sql), ', ')}`, ...(windowOrder.length > 0 ? [sql`order by ${join(windowOrder, ', ')}`] : [])];
    hidden.push(sql`row_number() over (${join(over, ' ')}) as lb_n`);
  }
  const clauses: Fragment[] = [sql`select ${keyword(query.distinct ? 'distinct ' : '')}${join([...selected, ...hidden], ', ')}${fromSql ? sql` from ${fromSql}` : keyword('')}`];
  if (conditions.length > 0) clauses.push(sql`where ${join(conditions, ' and ')}`);
  if (groups.length > 0) clauses.push(sql`group by ${join(groups.map((group) => group.sql), ', ')}`);
  if (havingValue) clauses.push(sql`having ${havingC.truth(havingValue)}`);
  let statement: Fragment;
  if (query.limitBy) {
    const { count, offset } = query.limitBy;
    const kept = selectedValues.map((value, index) => columnReference(`lb.c${index} as c${index}`, value.sql.weight));
    const range = sql`lb.lb_n > ${rowCount(offset)} and lb.lb_n <= ${rowCount(offset + count)}`;
    statement = join([sql`select ${join(kept, ', ')} from (${join(clauses, ' ')}) lb where ${range}`, ...finalClauses], ' ');
  } else if (overDistinct) {
    const kept = selectedValues.map((value, index) => columnReference(`${distinctAlias}.c${index} as c${index}`, value.sql.weight));
    statement = join([sql`select ${join(kept, ', ')} from (${join(clauses, ' ')}) ${keyword(distinctAlias)}`, ...finalClauses], ' ');
  } else {
    statement = join([...clauses, ...finalClauses], ' ');
  }
  return bounded({ sql: statement, values: selectedValues, names }, context);
}

/**
 * An ORDER BY term of a DISTINCT statement over its distinct rows: each selected expression in it as that column
 * (`c0`, `c1`, … of the rows); refused when it reads anything else, since the distinct rows hold nothing more.
 */
function overSelectedColumns(expr: Expr, columns: readonly SelectColumn[]): Expr {
  const columnReads = new Set<Expr>();
  const rewritten = mapExpr(expr, (inner) => {
    const index = columns.findIndex((column) => same(column.expr, inner));
    if (index < 0) return undefined;
    const read: Expr = { kind: 'field', chain: [`c${index}`] };
    columnReads.add(read);
    return read;
  });
  mapExpr(rewritten, (inner) => {
    if (inner.kind === 'field' && !columnReads.has(inner)) throw new HogQLError('With DISTINCT, ORDER BY may only name selected expressions, or expressions of them.');
    return undefined;
  });
  return rewritten;
}

/** Whether `expr` reads a field (a lambda's parameters aside): one that reads none is the same in every group. */
function readsFields(expr: Expr, bound: ReadonlySet<string> = new Set()): boolean {
  if (expr.kind === 'field') return !(typeof expr.chain[0] === 'string' && bound.has(expr.chain[0]));
  if (expr.kind === 'lambda') return readsFields(expr.body, new Set([...bound, ...expr.params]));
  if (expr.kind === 'subquery' || expr.kind === 'inQuery') return true;
  return childrenOf(expr).some((child) => readsFields(child, bound));
}

const isArrayJoin = (expr: Expr) => expr.kind === 'call' && expr.name.toLowerCase() === 'arrayjoin';

/** Whether `expr` calls arrayJoin() anywhere below its root (or at it, with `root`). */
function hasArrayJoin(expr: Expr, root: boolean): boolean {
  let found = false;
  mapExpr(expr, (inner) => {
    if (isArrayJoin(inner) && (root || inner !== expr)) found = true;
    return undefined;
  });
  return found;
}

/**
 * arrayJoin() is PostgreSQL's set-returning jsonb_array_elements(), which stands only where such a function may:
 * as a whole column of SELECT (grouped and ordered by that column), never inside another expression.
 */
function checkArrayJoins(query: SelectQuery, columns: readonly SelectColumn[], groupBy: readonly Expr[], orderBy: readonly { expr: Expr }[]): void {
  const misplaced = () => new HogQLError('arrayJoin() must be a whole column of SELECT (which GROUP BY and ORDER BY may name), not inside another expression.');
  let used: Expr | null = null;
  for (const column of columns) {
    if (isArrayJoin(column.expr)) {
      // ClickHouse multiplies the rows of two arrayJoin()s; PostgreSQL would pair them, row by row.
      if (used && !same(used, column.expr)) {
        throw new HogQLError(`Only one arrayJoin() per SELECT is supported: "${printExpr(column.expr)}" is a second one; join the other in a nested query.`);
      }
      used = column.expr;
    }
    if (hasArrayJoin(column.expr, false)) throw misplaced();
  }
  for (const expr of [...groupBy, ...orderBy.map((term) => term.expr)]) {
    if (isArrayJoin(expr) ? !columns.some((column) => same(column.expr, expr)) || hasArrayJoin(expr, false) : hasArrayJoin(expr, true)) throw misplaced();
  }
  if (used && query.limitBy) throw new HogQLError('arrayJoin() is not supported with LIMIT BY.');
  if (query.limitBy && query.distinct) throw new HogQLError('LIMIT BY is not supported with DISTINCT.');
}

/**
 * The statement the endpoint runs: the query's rows, at most `maxLimit` of them (or `defaultLimit` and one
 * more, without a LIMIT), each value formatted as the response shows it.
 */
export function compileSelect(query: QueryNode, options: SelectOptions): CompiledSelect {
  const context: Context = { options, outermost: query, ctes: new Map(), expanding: new Set(), aliases: { next: 0 }, compiled: { weight: 0 }, compileNested: (node, nested) => compileNode(node, nested, null) };
  const own = query.kind === 'select' ? query.limit : null;
  const paginated = own === null;
  const limit = paginated ? options.defaultLimit : Math.min(own, options.maxLimit);
  const offset = query.kind === 'select' ? (query.offset ?? 0) : 0;
  const core = compileNode(query, context, { count: paginated ? limit + 1 : limit, offset });

  const outputColumns: SelectOutputColumn[] = core.values.map((value, index) => ({
    name: core.names[index]!,
    clickhouseType: clickhouseType(value),
    type: value.type === 'json' ? 'string' : value.type,
  }));
  // Formatted outside the statement that orders, groups and limits, so that those read the values themselves.
  const outputs = core.values.map((value, index) => {
    const column = { ...typed(columnReference(`q.c${index}`, value.sql.weight), value.type, value.nullable), element: value.element };
    const shown = value.type === 'json' ? coerce(column, 'string', { timezone: options.timezone }) : column;
    return sql`${outputColumn(shown)} as ${keyword(`c${index}`)}`;
  });
  const { text, params } = numbered(sql`select ${join(outputs, ', ')} from (${core.sql}) q`);
  // With ties, more rows than the LIMIT may come, up to the most an answer holds.
  const rows = query.kind === 'select' && query.withTies ? options.maxLimit : limit;
  return { text, params, columns: outputColumns, hogql: printQuery(query, { limit, offset }), limit: rows, offset, paginated };
}
