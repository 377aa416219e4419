/**
 * A parsed SELECT (parser.ts) compiled to one parameterised PostgreSQL statement. The table comes from a fixed
 * list (events, persons, sessions, groups) and each one's fields from its compiler's fixed table; the environment
 * filter is written here, from the caller's environment, on every table the statement reads (the events, and the
 * persons, distinct ids, groups and sessions joined to them), so that no expression can reach another
 * environment's rows or any other table. The row limit always applies.
 */
import type { Expr } from '../ast.js';
import type { Compiler, CompileOptions } from '../compiler.js';
import { HogQLError } from '../errors.js';
import { columnReference, join, keyword, param, rowCount, sql, type Fragment } from '../sql.js';
import { coerce, comparisonType, outputColumn, typed, type HogQLType, type Typed } from '../types.js';
import type { FromSource, QueryNode, SelectColumn, SelectQuery } from './parser.js';
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
  // The column keeps the zone toTimeZone() gave its value, so that the outer query reads its wall clock there too.
  if (rest.length === 0) return { ...typed(column, value.type, value.nullable || (source.outer ?? false)), zone: value.zone, element: value.element };
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
  /** The right side of a LEFT JOIN: its fields are null where no row matched. */
  outer: boolean;
}

/**
 * The sources of a JOIN: `alias.field` reads that source; a bare field the one source that has it.
 */
class JoinCompiler extends StatementCompiler {
  constructor(
    options: CompileOptions,
    context: Context,
    private readonly sources: readonly JoinedSource[],
  ) {
    super(options, context);
  }

  override field(chain: readonly (string | number)[]): Typed {
    const [head, ...rest] = chain;
    const named = rest.length > 0 && typeof head === 'string' ? this.sources.find((source) => source.names.has(head)) : undefined;
    if (named) return columnOf(this, named, rest, `"${String(head)}"`);
    const having = this.sources.filter((source) => source.core.names.includes(String(head)));
    const name = chain.map(String).join('.');
    if (having.length === 0) throw new HogQLError(`Unknown field "${name}".`);
    if (having.length > 1) throw new HogQLError(`The field "${name}" is in more than one joined table; name its table, as in alias.${String(head)}.`);
    return columnOf(this, having[0]!, chain, 'the joined table');
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

/** A query (a SELECT or a UNION ALL) as a nested statement; `limit` overrides a lone SELECT's own. */
function compileNode(node: QueryNode, context: Context, limit: RowLimit | null): Core {
  if (node.kind === 'select') return compileSelectCore(node, context, limit ?? nestedLimit(node, context.options), null);
  const first = compileSelectCore(node.parts[0]!, context, nestedLimit(node.parts[0]!, context.options), null);
  const rest = node.parts.slice(1).map((part) => {
    if (part.columns.some((column) => column.star)) throw new HogQLError('* is not supported in the later queries of UNION ALL.');
    if (part.columns.length !== first.values.length) {
      throw new HogQLError(`Each query of UNION ALL must select as many columns as the first (${first.values.length}), not ${part.columns.length}.`);
    }
    return compileSelectCore(part, context, nestedLimit(part, context.options), first.values);
  });
  const parts = [first, ...rest];
  const union = join(parts.map((part) => sql`(${part.sql})`), ' union all ');
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
 * joins, a null matches nothing); anything else as a condition.
 */
function joinCondition(on: Compiler, expr: Expr, timezone: string): Fragment {
  if (expr.kind === 'and') return sql`(${join(expr.exprs.map((part) => joinCondition(on, part, timezone)), ' and ')})`;
  if (expr.kind !== 'compare' || expr.op !== '=') return on.condition(expr);
  const [left, right] = [on.compile(expr.left), on.compile(expr.right)];
  const type = comparisonType(left, right, false);
  if (type === null || left.type === 'null' || right.type === 'null') return on.condition(expr);
  const [l, r] = [coerce(left, type, { timezone }), coerce(right, type, { timezone })];
  return sql`(${l.sql} = ${r.sql})`;
}

/** A FROM source: a WITH query (which shadows a table of its name) or a nested query as a statement, or a table. */
function resolveSource(from: FromSource, context: Context): { table: Table | null; core: Core | null } {
  if ('query' in from) return { table: null, core: compileNode(from.query, context, null) };
  if (context.ctes.has(from.table)) {
    if (context.expanding.has(from.table)) throw new HogQLError(`The WITH query "${from.table}" refers to itself.`);
    const inner = { ...context, expanding: new Set([...context.expanding, from.table]) };
    return { table: null, core: compileNode(context.ctes.get(from.table)!, inner, null) };
  }
  const table = Object.hasOwn(TABLES, from.table) ? TABLES[from.table]! : null;
  if (!table) throw new HogQLError(`Unknown table "${from.table}". Tables: ${TABLE_NAMES.join(', ')}.`);
  return { table, core: null };
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
 * One SELECT. `types`: the columns' types when it is a later part of a UNION ALL (its values are brought to the
 * first part's).
 */
function compileSelectCore(query: SelectQuery, outer: Context, limit: RowLimit, types: readonly Typed[] | null): Core {
  const ctes = new Map(outer.ctes);
  for (const [name, cte] of query.ctes) ctes.set(name, cte);
  const context: Context = { ...outer, ctes };
  const { options } = context;

  // The source: a WITH query (which shadows a table of its name), a nested query or a table.
  const resolved = resolveSource(query.from, context);
  let table = resolved.table;
  let source: NestedSource | null = resolved.core ? { core: resolved.core, alias: internalAlias(context) } : null;
  const joined: JoinedSource[] = [];
  if (query.joins.length > 0) {
    // Every source of a JOIN is read as a nested statement of its fields, each with its own environment filter.
    const sources = [{ from: query.from, outer: false }, ...query.joins.map((clause) => ({ from: clause.source, outer: clause.type === 'left' }))];
    for (const { from, outer } of sources) {
      const { table: joinedTable, core } = resolveSource(from, context);
      const names = new Set([...(from.alias !== null ? [from.alias] : 'table' in from ? [from.table] : [])]);
      for (const name of names) {
        if (joined.some((other) => other.names.has(name))) throw new HogQLError(`Two joined tables are named "${name}"; give one an alias.`);
      }
      const fields = core ?? tableFields(joinedTable!, from as { table: string }, context);
      joined.push({ core: fields, alias: internalAlias(context), names, outer });
    }
    table = null;
    source = null;
    if (query.columns.some((column) => column.star)) throw new HogQLError('* is not supported with JOIN; name the columns.');
  }
  const from = query.from;
  const tableNames = new Set(joined.length > 0 ? [] : [...('table' in from ? [from.table] : []), ...(from.alias === null ? [] : [from.alias])]);
  // `e.event` and `events.event` are `event`.
  const unqualified = (expr: Expr) =>
    mapExpr(expr, (inner) =>
      inner.kind === 'field' && inner.chain.length > 1 && typeof inner.chain[0] === 'string' && tableNames.has(inner.chain[0])
        ? { kind: 'field', chain: inner.chain.slice(1) }
        : undefined,
    );
  const starFields = table ? table.star : (source?.core.names ?? []);
  const columns: SelectColumn[] = query.columns.flatMap((column) =>
    column.star
      ? starFields.map((field) => ({ star: false, expr: { kind: 'field', chain: [field] } as Expr, alias: null }))
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

  const compilerFor = (clause: string, allowAggregates: boolean): Compiler => {
    const compileOptions = { timezone: options.timezone, clause, allowAggregates };
    if (joined.length > 0) return new JoinCompiler(compileOptions, context, joined);
    return table ? table.compiler(compileOptions, context) : new SubqueryCompiler(compileOptions, context, source!);
  };
  checkArrayJoins(query, columns, groupBy, orderBy);
  const limitByTerms = query.limitBy ? query.limitBy.by.map(resolve) : [];
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

  const names = columns.map((column) => column.alias ?? printExpr(column.expr));
  const grouped = groups.length > 0 || values.some((v) => v.aggregate) || (havingValue?.aggregate ?? false) || orderValues.some((v) => v.aggregate);
  if (grouped) {
    // A window function's fields are PostgreSQL's to check (it names the one that is not grouped).
    const ungrouped = (expr: Expr, value: Typed) =>
      !value.aggregate && expr.kind !== 'constant' && !(expr.kind === 'call' && expr.over) && !groupBy.some((group) => same(group, expr));
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
    if (!table || !('table' in from) || from.table !== 'events') throw new Error('outerCondition reads events e.');
    outerCondition = options.outerCondition(filtering);
  }
  const usesPerson = compilers.some((c) => c.usesPerson);
  const implicitJoins = new Set(compilers.flatMap((c) => (c instanceof StatementCompiler ? [...c.implicitJoins] : [])));
  let fromSql: Fragment;
  const conditions: Fragment[] = [];
  if (table) {
    const written = table.from(param(options.teamId, 'int'), { person: usesPerson, implicitJoins });
    fromSql = written.from;
    if (written.filter) conditions.push(written.filter);
  } else if (source) {
    fromSql = sql`(${source.core.sql}) ${keyword(source.alias)}`;
  } else {
    const on = compilerFor('ON', false);
    const [first, ...rest] = joined;
    const joins = rest.map((right, index) => {
      const clause = query.joins[index]!;
      const condition = joinCondition(on, resolve(clause.on), options.timezone);
      return sql` ${keyword(clause.type === 'left' ? 'left join' : 'join')} (${right.core.sql}) ${keyword(right.alias)} on ${condition}`;
    });
    fromSql = sql`(${first!.core.sql}) ${keyword(first!.alias)}${join(joins, '')}`;
  }
  if (condition) conditions.push(condition);
  if (outerCondition) conditions.push(outerCondition);

  // (A null column of the first part takes the others' type, as PostgreSQL resolves it.)
  const selectedValues = types
    ? values.map((value, index) => (types[index]!.type === 'null' ? value : coerce(value, types[index]!.type, { timezone: options.timezone })))
    : values;
  const selected = selectedValues.map((value, index) => sql`${value.sql} as ${keyword(`c${index}`)}`);
  // With LIMIT BY, the statement also numbers each row within its LIMIT BY values (in the query's order) and keeps
  // the order keys it does not select, and a wrapping statement keeps the rows whose number is in range.
  const hidden: Fragment[] = [];
  const orderKey = (index: number, prefix: string): Fragment => {
    const column = columns.findIndex((c) => same(c.expr, orderBy[index]!.expr));
    // A selected expression is ordered by its output column (which DISTINCT requires).
    if (column >= 0) return columnReference(`${prefix}c${column}`, values[column]!.sql.weight);
    if (!query.limitBy) return orderValues[index]!.sql;
    hidden.push(sql`${orderValues[index]!.sql} as ${keyword(`o${index}`)}`);
    return columnReference(`${prefix}o${index}`, orderValues[index]!.sql.weight);
  };
  // As in ClickHouse, nulls come last either way: PostgreSQL's own order for ASC, to be asked for DESC. Only where
  // the value may be null, since an index (events by timestamp) is read in order only for a plain ASC or DESC.
  const direction = (index: number) => keyword(orderBy[index]!.descending ? (orderValues[index]!.nullable ? 'desc nulls last' : 'desc') : 'asc');
  const orderTerms = (prefix: string) => orderBy.map((_term, index) => sql`${orderKey(index, prefix)} ${direction(index)}`);
  const finalClauses: Fragment[] = [];
  if (orderBy.length > 0) finalClauses.push(sql`order by ${join(orderTerms(query.limitBy ? 'lb.' : ''), ', ')}`);
  if (limit.count !== null) finalClauses.push(sql`limit ${rowCount(limit.count)}`);
  if (limit.offset > 0 || limit.count !== null) finalClauses.push(sql`offset ${rowCount(limit.offset)}`);
  if (query.limitBy) {
    const windowOrder = orderBy.map((_term, index) => sql`${orderValues[index]!.sql} ${direction(index)}`);
    const over = [sql`partition by ${join(limitByValues.map((value) => value.sql), ', ')}`, ...(windowOrder.length > 0 ? [sql`order by ${join(windowOrder, ', ')}`] : [])];
    hidden.push(sql`row_number() over (${join(over, ' ')}) as lb_n`);
  }
  const clauses: Fragment[] = [sql`select ${keyword(query.distinct ? 'distinct ' : '')}${join([...selected, ...hidden], ', ')} from ${fromSql}`];
  if (conditions.length > 0) clauses.push(sql`where ${join(conditions, ' and ')}`);
  if (groups.length > 0) clauses.push(sql`group by ${join(groups.map((group) => group.sql), ', ')}`);
  if (havingValue) clauses.push(sql`having ${havingC.truth(havingValue)}`);
  let statement: Fragment;
  if (query.limitBy) {
    const { count, offset } = query.limitBy;
    const kept = selectedValues.map((value, index) => columnReference(`lb.c${index} as c${index}`, value.sql.weight));
    const range = sql`lb.lb_n > ${rowCount(offset)} and lb.lb_n <= ${rowCount(offset + count)}`;
    statement = join([sql`select ${join(kept, ', ')} from (${join(clauses, ' ')}) lb where ${range}`, ...finalClauses], ' ');
  } else {
    statement = join([...clauses, ...finalClauses], ' ');
  }
  return bounded({ sql: statement, values: selectedValues, names }, context);
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
  return { text, params, columns: outputColumns, hogql: printQuery(query, { limit, offset }), limit, offset, paginated };
}
