/**
 * Window functions, `f(…) OVER (PARTITION BY … ORDER BY … ROWS BETWEEN … AND …)`: the ranking and offset
 * functions and the plain aggregates over a window, as PostgreSQL runs them. PostgreSQL computes windows after
 * GROUP BY and HAVING, so they are allowed where it allows them (the select list and ORDER BY) and refused with
 * a 400 elsewhere. Frame offsets are integers checked by the parser and written as numbers; every other value
 * is a bound parameter.
 */
import { defaultOf } from '../arrays.js';
import type { Expr, FrameBound, WindowSpec } from '../ast.js';
import type { Compiler } from '../compiler.js';
import { HogQLError } from '../errors.js';
import { join, keyword, rowCount, sql, type Fragment } from '../sql.js';
import { coerce, typed, type HogQLType, type Typed } from '../types.js';
import { functionDefinition } from './functions.js';

/** Clauses PostgreSQL evaluates after the windows. */
const WINDOW_CLAUSES = new Set(['SELECT', 'ORDER BY']);

interface WindowFunction {
  name: string;
  minArgs: number;
  maxArgs: number;
  compile(c: Compiler, args: readonly Expr[], over: WindowSpec): { body: Fragment; type: HogQLType; nullable: boolean; parts: Typed[]; around?: (windowed: Fragment) => Fragment };
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
      const rows = rowCount(rowOffset(name, args[1]));
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

/** A constant row offset of `name()`, as PostgreSQL's int takes it. */
function rowOffset(name: string, offset: Expr | undefined): number {
  if (offset && (offset.kind !== 'constant' || typeof offset.value !== 'number' || !Number.isSafeInteger(offset.value) || offset.value < 0 || offset.value > 2 ** 31 - 1)) {
    throw new HogQLError(`The offset of ${name}() must be a non-negative integer constant.`);
  }
  return offset ? (offset.value as number) : 1;
}

/**
 * ClickHouse answers the type's default where PostgreSQL answers NULL for a row that is not there (an empty
 * frame, an offset outside it) — unless the value itself may be null, when ClickHouse's default is NULL too.
 */
function missingValue(value: Typed): Fragment | null {
  return value.nullable ? null : defaultOf(value.type);
}

/**
 * first_value, last_value and nth_value: ClickHouse's answer for a frame without that row is the type's default.
 * first_value and last_value skip nulls, as ClickHouse's aggregates do (their `_respect_nulls` forms keep them):
 * the non-null values of the frame are gathered and the first (last) one taken.
 */
function valueAt(name: string, sqlName: 'first_value' | 'last_value' | 'nth_value', respectNulls = false): WindowFunction {
  const positional = sqlName === 'nth_value';
  return {
    name,
    minArgs: positional ? 2 : 1,
    maxArgs: positional ? 2 : 1,
    compile: (c, args) => {
      const value = c.compile(args[0]!);
      const fallback = missingValue(value);
      const orDefault = (windowed: Fragment) => (fallback ? sql`coalesce(${windowed}, ${fallback})` : windowed);
      if (!positional && value.nullable && !respectNulls) {
        const read = nonNullJson(value);
        const body = sql`array_agg(${read}) filter (where ${read} is not null)`;
        const around = (windowed: Fragment) => (sqlName === 'first_value' ? sql`(${windowed})[1]` : sql`(${windowed})[cardinality(${windowed})]`);
        return { body, type: value.type, nullable: true, parts: [value], around };
      }
      let body = sql`${keyword(sqlName)}(${value.sql})`;
      if (positional) {
        const position = args[1]!;
        if (position.kind !== 'constant' || typeof position.value !== 'number' || !Number.isSafeInteger(position.value) || position.value < 1 || position.value > 2 ** 31 - 1) {
          throw new HogQLError('The position of nth_value() must be a positive integer constant.');
        }
        body = sql`nth_value(${value.sql}, ${rowCount(position.value)})`;
      }
      return { body, type: value.type, nullable: value.nullable, parts: [value], around: orDefault };
    },
  };
}

/** How many rows before the current one a frame bound is (negative after it), in a frame of rows. */
function rowsBefore(frameBound: FrameBound): number {
  switch (frameBound.kind) {
    case 'unboundedPreceding':
      return Infinity;
    case 'preceding':
      return frameBound.rows;
    case 'currentRow':
      return 0;
    case 'following':
      return -frameBound.rows;
    case 'unboundedFollowing':
      return -Infinity;
  }
}

/**
 * Whether the row `before` rows before the current one (after it when negative) lies in the window's frame,
 * whenever it exists in the partition. Frames of rows say so from their bounds; frames by value (the default
 * one with an ORDER BY, RANGE) only where peers cannot matter.
 */
function rowInFrame(name: string, over: WindowSpec, before: number): boolean {
  if (over.frame?.unit === 'rows') return rowsBefore(over.frame.end) <= before && before <= rowsBefore(over.frame.start);
  // Without ORDER BY every row is a peer: the frame is the whole partition.
  if (over.orderBy.length === 0 || before === 0) return true;
  const start = over.frame?.start.kind ?? 'unboundedPreceding';
  const end = over.frame?.end.kind ?? 'currentRow';
  const bounded = (kind: FrameBound['kind']): boolean => kind === 'unboundedPreceding' || kind === 'currentRow' || kind === 'unboundedFollowing';
  if (bounded(start) && bounded(end)) {
    if (before > 0 && start === 'unboundedPreceding') return true;
    if (before < 0 && end === 'unboundedFollowing') return true;
  }
  throw new HogQLError(`${name}() over a RANGE frame depends on which rows are peers; give the window a ROWS frame (e.g. ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING).`);
}

/**
 * lagInFrame(x[, offset[, default]]) and leadInFrame(…): ClickHouse's lag and lead, which look only inside the
 * window's frame and answer the default (the type's default unless given) outside it.
 */
function inFrameOffset(name: string, sqlName: 'lag' | 'lead'): WindowFunction {
  return {
    name,
    minArgs: 1,
    maxArgs: 3,
    compile: (c, args, over) => {
      const value = c.compile(args[0]!);
      const offset = rowOffset(name, args[1]);
      const given = args.length === 3 ? coerce(c.compile(args[2]!), value.type, c.scope) : null;
      const fallback = given ? given.sql : (missingValue(value) ?? keyword('null'));
      const nullable = given ? value.nullable || given.nullable : missingValue(value) === null;
      const parts = given ? [value, given] : [value];
      // A row always outside the frame: the default, written as a window function since OVER follows.
      if (!rowInFrame(name, over, sqlName === 'lag' ? offset : -offset)) return { body: sql`lag(${fallback}, 0, ${fallback})`, type: value.type, nullable, parts };
      return { body: sql`${keyword(sqlName)}(${value.sql}, ${rowCount(offset)}, ${fallback})`, type: value.type, nullable, parts };
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
  valueAt('first_value_respect_nulls', 'first_value', true),
  valueAt('last_value_respect_nulls', 'last_value', true),
  valueAt('nth_value', 'nth_value'),
  inFrameOffset('lagInFrame', 'lag'),
  inFrameOffset('leadInFrame', 'lead'),
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

/** PostgreSQL's aggregate functions the library's aggregates are written with: each may be followed by OVER. */
const SQL_AGGREGATES = new Set([
  'count', 'sum', 'avg', 'min', 'max', 'jsonb_agg', 'array_agg', 'string_agg', 'bool_and', 'bool_or', 'every', 'stddev', 'stddev_pop',
  'stddev_samp', 'variance', 'var_pop', 'var_samp', 'corr', 'covar_pop', 'covar_samp', 'jsonb_object_agg', 'bit_and', 'bit_or',
]);

/** The end of the parenthesised group opening at `open`, past string literals. */
function closingParen(text: string, open: number): number {
  let depth = 0;
  for (let index = open; index < text.length; index += 1) {
    const char = text[index];
    if (char === "'") {
      index = text.indexOf("'", index + 1);
      if (index < 0) break;
    } else if (char === '(') depth += 1;
    else if (char === ')') {
      depth -= 1;
      if (depth === 0) return index;
    }
  }
  throw new Error(`unbalanced SQL: ${text}`);
}

/**
 * An aggregate of the library over a window: its SQL (our own text, values only as placeholders) with `over (…)`
 * after each of PostgreSQL's aggregate calls in it, outside nested statements. Refused where PostgreSQL has no
 * window form: DISTINCT (uniq), ORDER BY inside the call (argMax, argMin, any) and ordered-set aggregates
 * (quantile, median).
 */
function aggregateOverWindow(name: string, value: Typed, window: Fragment): Fragment {
  const text = value.sql.text;
  const params = value.sql.params;
  const insertions: number[] = [];
  const refuse = (why: string): never => {
    throw new HogQLError(`${name}() cannot be computed over a window: ${why}`);
  };
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    if (char === "'") {
      index = text.indexOf("'", index + 1);
      if (index < 0) break;
      continue;
    }
    if (char === '(' && /^\(\s*select\b/i.test(text.slice(index, index + 20))) {
      index = closingParen(text, index);
      continue;
    }
    if (!/[a-z_]/i.test(char) || (index > 0 && /[a-z0-9_.$]/i.test(text[index - 1]!))) continue;
    const word = /^[a-z_][a-z0-9_]*/i.exec(text.slice(index))![0];
    const open = index + word.length;
    if (text[open] !== '(') {
      index = open - 1;
      continue;
    }
    const lower = word.toLowerCase();
    if (['percentile_cont', 'percentile_disc', 'mode'].includes(lower)) refuse('PostgreSQL has no window form of a quantile.');
    if (!SQL_AGGREGATES.has(lower)) {
      index = open - 1;
      continue;
    }
    let end = closingParen(text, open);
    const inside = text.slice(open + 1, end);
    if (/^\s*distinct\b/i.test(inside)) refuse('PostgreSQL cannot count distinct values over a window.');
    if (/\border by\b/i.test(inside)) refuse('it picks its value by an order, which PostgreSQL cannot do over a window; use first_value() or last_value() over a window ordered by the key.');
    const filter = /^\s*filter\s*\(/i.exec(text.slice(end + 1));
    if (filter) end = closingParen(text, end + filter[0].length);
    insertions.push(end + 1);
    index = end;
  }
  if (insertions.length === 0) throw new HogQLError(`${name}() is not an aggregate function, so it cannot be computed over a window.`);
  let written = '';
  const spliced: unknown[] = [];
  let from = 0;
  let paramIndex = 0;
  for (const at of insertions) {
    const piece = text.slice(from, at);
    const placeholders = (piece.match(/\?/g) ?? []).length;
    spliced.push(...params.slice(paramIndex, paramIndex + placeholders));
    paramIndex += placeholders;
    written += `${piece} over (${window.text})`;
    spliced.push(...window.params);
    from = at;
  }
  written += text.slice(from);
  spliced.push(...params.slice(paramIndex));
  return { text: written, params: spliced, weight: value.sql.weight + insertions.length * window.weight };
}

/** `name(args) OVER (…)`. */
export function compileWindowCall(c: Compiler, name: string, args: readonly Expr[], params: readonly Expr[] | undefined, over: WindowSpec): Typed {
  if (!WINDOW_CLAUSES.has(c.options.clause)) throw new HogQLError(`Window functions such as ${name}() OVER (…) are not allowed in ${c.options.clause}.`);
  const fn = BY_NAME.get(name.toLowerCase());
  if (!fn) {
    // Any other aggregate of the library, computed over the window.
    if (!functionDefinition(name.toLowerCase())) {
      throw new HogQLError(`Unknown window function "${name}". Window functions: ${WINDOW_FUNCTION_NAMES.join(', ')}, and the aggregate functions.`);
    }
    const value = c.compile({ kind: 'call', name, args: [...args], ...(params ? { params: [...params] } : {}) });
    if (!value.aggregate) throw new HogQLError(`${name}() is not an aggregate function, so it cannot be computed over a window.`);
    const window = windowClause(c, over);
    return { ...value, sql: aggregateOverWindow(name, value, window.sql), aggregate: window.parts.some((part) => part.aggregate) };
  }
  if (params !== undefined) throw new HogQLError(`${fn.name}() takes no parameters.`);
  if (args.length < fn.minArgs || args.length > fn.maxArgs) {
    const expected = fn.minArgs === fn.maxArgs ? `${fn.minArgs}` : `${fn.minArgs} to ${fn.maxArgs}`;
    throw new HogQLError(`${fn.name}() takes ${expected} argument${expected === '1' ? '' : 's'}, got ${args.length}.`);
  }
  const compiled = fn.compile(c, args, over);
  const window = windowClause(c, over);
  const parts = [...compiled.parts, ...window.parts];
  const windowed = sql`${compiled.body} over (${window.sql})`;
  return typed(compiled.around ? compiled.around(windowed) : windowed, compiled.type, compiled.nullable, parts.some((part) => part.aggregate));
}
