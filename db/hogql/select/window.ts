/**
 * Window functions, `f(…) OVER (PARTITION BY … ORDER BY … ROWS BETWEEN … AND …)`: the ranking and offset
 * functions and the plain aggregates over a window, as PostgreSQL runs them. PostgreSQL computes windows after
 * GROUP BY and HAVING, so they are allowed where it allows them (the select list and ORDER BY) and refused with
 * a 400 elsewhere. Frame offsets are integers checked by the parser and written as numbers; every other value
 * is a bound parameter.
 */
import type { Expr, FrameBound, WindowSpec } from '../ast.js';
import type { Compiler } from '../compiler.js';
import { HogQLError } from '../errors.js';
import { join, keyword, rowCount, sql, type Fragment } from '../sql.js';
import { coerce, typed, type HogQLType, type Typed } from '../types.js';

/** Clauses PostgreSQL evaluates after the windows. */
const WINDOW_CLAUSES = new Set(['SELECT', 'ORDER BY']);

interface WindowFunction {
  name: string;
  minArgs: number;
  maxArgs: number;
  compile(c: Compiler, args: readonly Expr[]): { body: Fragment; type: HogQLType; nullable: boolean; parts: Typed[] };
}

/** A value an aggregate reads: JSON nulls as SQL nulls. */
function nonNullJson(value: Typed): Fragment {
  return value.type === 'json' ? sql`nullif(${value.sql}, 'null'::jsonb)` : value.sql;
}

function ranking(name: string, sqlName: string): WindowFunction {
  return { name, minArgs: 0, maxArgs: 0, compile: () => ({ body: keyword(`${sqlName}()`), type: 'int', nullable: false, parts: [] }) };
}

/** lag(x[, offset[, default]]) and lead(…): the value `offset` rows before (after) this one. */
function offsetFunction(name: string, sqlName: 'lag' | 'lead'): WindowFunction {
  return {
    name,
    minArgs: 1,
    maxArgs: 3,
    compile: (c, args) => {
      const value = c.compile(args[0]!);
      const offset = args[1];
      // PostgreSQL's offset is an int.
      if (offset && (offset.kind !== 'constant' || typeof offset.value !== 'number' || !Number.isSafeInteger(offset.value) || offset.value < 0 || offset.value > 2 ** 31 - 1)) {
        throw new HogQLError(`The offset of ${name}() must be a non-negative integer constant.`);
      }
      const rows = rowCount(offset ? (offset.value as number) : 1);
      if (args.length < 3) return { body: sql`${keyword(sqlName)}(${value.sql}, ${rows})`, type: value.type, nullable: true, parts: [value] };
      const fallback = coerce(c.compile(args[2]!), value.type, c.scope);
      return {
        body: sql`${keyword(sqlName)}(${value.sql}, ${rows}, ${fallback.sql})`,
        type: value.type,
        nullable: value.nullable || fallback.nullable,
        parts: [value, fallback],
      };
    },
  };
}

function valueAt(name: string, sqlName: 'first_value' | 'last_value'): WindowFunction {
  return {
    name,
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => {
      const value = c.compile(args[0]!);
      return { body: sql`${keyword(sqlName)}(${value.sql})`, type: value.type, nullable: value.nullable, parts: [value] };
    },
  };
}

/** sum, avg, min, max over a window: sum and avg of numbers (as floats); min and max of what orders as it is, else of numbers. */
function aggregate(name: string, sqlName: 'sum' | 'avg' | 'min' | 'max'): WindowFunction {
  return {
    name,
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => {
      const value = c.compile(args[0]!);
      const keeps: HogQLType[] = ['int', 'float', 'string', 'datetime', 'date'];
      const numeric = sqlName === 'sum' || sqlName === 'avg' || !keeps.includes(value.type);
      const read = numeric ? coerce(c.numeric(value), 'float', c.scope) : value;
      const body = sql`${keyword(sqlName)}(${read.sql})`;
      return { body, type: read.type, nullable: true, parts: [read] };
    },
  };
}

const WINDOW_FUNCTIONS: readonly WindowFunction[] = [
  ranking('row_number', 'row_number'),
  ranking('rank', 'rank'),
  ranking('dense_rank', 'dense_rank'),
  offsetFunction('lag', 'lag'),
  offsetFunction('lead', 'lead'),
  valueAt('first_value', 'first_value'),
  valueAt('last_value', 'last_value'),
  {
    name: 'count',
    minArgs: 0,
    maxArgs: 1,
    compile: (c, args) => {
      if (args.length === 0) return { body: keyword('count(*)'), type: 'int', nullable: false, parts: [] };
      const value = c.compile(args[0]!);
      return { body: sql`count(${nonNullJson(value)})`, type: 'int', nullable: false, parts: [value] };
    },
  },
  aggregate('sum', 'sum'),
  aggregate('avg', 'avg'),
  aggregate('min', 'min'),
  aggregate('max', 'max'),
];

const BY_NAME = new Map(WINDOW_FUNCTIONS.map((fn) => [fn.name.toLowerCase(), fn]));

export const WINDOW_FUNCTION_NAMES = WINDOW_FUNCTIONS.map((fn) => fn.name);

function bound(frameBound: FrameBound): Fragment {
  switch (frameBound.kind) {
    case 'unboundedPreceding':
      return keyword('unbounded preceding');
    case 'preceding':
      return sql`${rowCount(frameBound.rows)} preceding`;
    case 'currentRow':
      return keyword('current row');
    case 'following':
      return sql`${rowCount(frameBound.rows)} following`;
    case 'unboundedFollowing':
      return keyword('unbounded following');
  }
}

/** The text inside OVER ( … ). */
function windowClause(c: Compiler, over: WindowSpec): { sql: Fragment; parts: Typed[] } {
  const partitions = over.partitionBy.map((expr) => c.compile(expr));
  const orders = over.orderBy.map((term) => ({ value: c.compile(term.expr), descending: term.descending }));
  const clauses: Fragment[] = [];
  if (partitions.length > 0) clauses.push(sql`partition by ${join(partitions.map((p) => p.sql), ', ')}`);
  if (orders.length > 0) {
    // As in the statement's ORDER BY, nulls come last either way.
    const terms = orders.map((term) => sql`${term.value.sql} ${keyword(term.descending ? 'desc nulls last' : 'asc nulls last')}`);
    clauses.push(sql`order by ${join(terms, ', ')}`);
  }
  if (over.frame) {
    clauses.push(sql`${keyword(over.frame.unit)} between ${bound(over.frame.start)} and ${bound(over.frame.end)}`);
  }
  return { sql: join(clauses, ' '), parts: [...partitions, ...orders.map((term) => term.value)] };
}

/** `name(args) OVER (…)`. */
export function compileWindowCall(c: Compiler, name: string, args: readonly Expr[], params: readonly Expr[] | undefined, over: WindowSpec): Typed {
  if (!WINDOW_CLAUSES.has(c.options.clause)) throw new HogQLError(`Window functions such as ${name}() OVER (…) are not allowed in ${c.options.clause}.`);
  const fn = BY_NAME.get(name.toLowerCase());
  if (!fn) throw new HogQLError(`Unknown window function "${name}". Window functions: ${WINDOW_FUNCTION_NAMES.join(', ')}.`);
  if (params !== undefined) throw new HogQLError(`${fn.name}() takes no parameters.`);
  if (args.length < fn.minArgs || args.length > fn.maxArgs) {
    const expected = fn.minArgs === fn.maxArgs ? `${fn.minArgs}` : `${fn.minArgs} to ${fn.maxArgs}`;
    throw new HogQLError(`${fn.name}() takes ${expected} argument${expected === '1' ? '' : 's'}, got ${args.length}.`);
  }
  const compiled = fn.compile(c, args);
  const window = windowClause(c, over);
  const parts = [...compiled.parts, ...window.parts];
  return typed(sql`${compiled.body} over (${window.sql})`, compiled.type, compiled.nullable, parts.some((part) => part.aggregate));
}
