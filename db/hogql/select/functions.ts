/**
 * Functions the query endpoint's SELECT adds to the expression library (functions.ts): the aggregates and
 * date, number and text functions PostHog users reach for first, each one PostgreSQL expresses directly. Units
 * and other words that become SQL text are checked against fixed lists; every value is a bound parameter.
 */
import type { Expr } from '../ast.js';
import type { Compiler } from '../compiler.js';
import { HogQLError } from '../errors.js';
import type { FunctionDef } from '../functions.js';
import { keyword, param, sql, type Fragment } from '../sql.js';
import { coerce, timezoneParam, typed, type HogQLType, type Typed } from '../types.js';

/** Functions whose value is a list: the response shows it as a JSON array, typed Array(…). */
export const ARRAY_FUNCTIONS = new Set(['grouparray', 'splitbychar']);

const arg = (args: readonly Expr[], index: number): Expr => args[index]!;
const to = (c: Compiler, expr: Expr, type: HogQLType): Typed => coerce(c.compile(expr), type, c.scope);

/** A value ready for an aggregate over rows: JSON nulls as SQL nulls. */
function aggregated(value: Typed): Fragment {
  return value.type === 'json' ? sql`nullif(${value.sql}, 'null'::jsonb)` : value.sql;
}

/** A number for arithmetic in PostgreSQL's numeric. */
function numberOf(c: Compiler, expr: Expr): Typed {
  return coerce(c.numeric(c.compile(expr)), 'float', c.scope);
}

function unitOf(expr: Expr, fn: string, units: readonly string[]): string {
  if (expr.kind !== 'constant' || typeof expr.value !== 'string') throw new HogQLError(`The unit of ${fn}() must be a string constant.`);
  const unit = expr.value.toLowerCase().replace(/s$/, '');
  if (!units.includes(unit)) throw new HogQLError(`${fn}() unit must be one of ${units.join(', ')}.`);
  return unit;
}

/** `alias` compiles as `target` does (uniqExact is uniq): the target's checks and errors apply. */
function alias(name: string, target: string, minArgs: number, maxArgs: number): FunctionDef {
  return { name, minArgs, maxArgs, compile: (c, args) => c.call(target, args) };
}

/** A part of a datetime read on the project's wall clock, as ClickHouse's toYear(), toHour(), … do. */
function datePart(name: string, field: string): FunctionDef {
  return {
    name,
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => {
      const at = to(c, arg(args, 0), 'datetime');
      return typed(sql`extract(${keyword(field)} from (${at.sql} at time zone ${timezoneParam(c.scope)}))::bigint`, 'int', at.nullable, at.aggregate);
    },
  };
}

/** `(array_agg(x order by key) filter (where …))[1]`: the first value by an order, skipping nulls. */
function firstBy(c: Compiler, value: Typed, key: Fragment | null, descending: boolean): Typed {
  const v = aggregated(value);
  const order = key ? sql` order by ${key} ${keyword(descending ? 'desc' : 'asc')}` : keyword('');
  const keyed = key ? sql` and ${key} is not null` : keyword('');
  return typed(sql`(array_agg(${v}${order}) filter (where ${v} is not null${keyed}))[1]`, value.type, true);
}

function argBy(name: string, descending: boolean): FunctionDef {
  return {
    name,
    minArgs: 2,
    maxArgs: 2,
    aggregate: true,
    compile: (c, args) => {
      const key = c.compile(arg(args, 1));
      const ordered = key.type === 'json' ? coerce(key, 'float', c.scope) : key;
      return firstBy(c, c.compile(arg(args, 0)), ordered.sql, descending);
    },
  };
}

function percentile(c: Compiler, fraction: number, expr: Expr): Typed {
  const value = numberOf(c, expr);
  return typed(sql`percentile_cont(${param(fraction, 'float8')}) within group (order by ${value.sql})`, 'float', true);
}

function mathOf(name: string, sqlName: 'floor' | 'ceil' | 'abs'): FunctionDef {
  return {
    name,
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => {
      const value = c.numeric(c.compile(arg(args, 0)));
      return typed(sql`${keyword(sqlName)}(${value.sql})`, value.type, value.nullable, value.aggregate);
    },
  };
}

function textTest(name: string, test: (text: Fragment, part: Fragment) => Fragment): FunctionDef {
  return {
    name,
    minArgs: 2,
    maxArgs: 2,
    compile: (c, args) => {
      const text = to(c, arg(args, 0), 'string');
      const part = to(c, arg(args, 1), 'string');
      return c.boolean(sql`coalesce(${test(text.sql, part.sql)}, false)`, [text, part]);
    },
  };
}

const DATE_TRUNC_UNITS = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'];

function dateShift(name: string, sign: '+' | '-'): FunctionDef {
  return {
    name,
    minArgs: 3,
    maxArgs: 3,
    compile: (c, args) => {
      const unit = unitOf(arg(args, 0), name, DATE_TRUNC_UNITS);
      const amount = numberOf(c, arg(args, 1));
      const moment = c.compile(arg(args, 2));
      const step = unit === 'quarter' ? "interval '3 months'" : `interval '1 ${unit}'`;
      const at = coerce(moment, 'datetime', c.scope);
      const shifted = sql`(${at.sql} ${keyword(sign)} (${amount.sql})::float8 * ${keyword(step)})`;
      const nullable = at.nullable || amount.nullable;
      const aggregate = at.aggregate || amount.aggregate;
      if (moment.type === 'date') {
        return typed(sql`((${shifted}) at time zone ${timezoneParam(c.scope)})::date`, 'date', nullable, aggregate);
      }
      return typed(shifted, 'datetime', nullable, aggregate);
    },
  };
}

const DEFINITIONS: FunctionDef[] = [
  alias('uniqExact', 'uniq', 1, 1),
  alias('countDistinct', 'uniq', 1, 1),
  {
    name: 'any',
    minArgs: 1,
    maxArgs: 1,
    aggregate: true,
    compile: (c, args) => firstBy(c, c.compile(arg(args, 0)), null, false),
  },
  argBy('argMax', true),
  argBy('argMin', false),
  {
    name: 'groupArray',
    minArgs: 1,
    maxArgs: 1,
    aggregate: true,
    compile: (c, args) => {
      const value = c.compile(arg(args, 0));
      const v = aggregated(value);
      return typed(sql`coalesce(jsonb_agg(to_jsonb(${v})) filter (where ${v} is not null), '[]'::jsonb)`, 'json', false);
    },
  },
  {
    name: 'median',
    minArgs: 1,
    maxArgs: 1,
    aggregate: true,
    compile: (c, args) => percentile(c, 0.5, arg(args, 0)),
  },
  {
    name: 'quantile',
    minArgs: 1,
    maxArgs: 1,
    params: [1, 1],
    aggregate: true,
    compile: (c, args, params) => {
      const level = params[0]!;
      if (level.kind !== 'constant' || typeof level.value !== 'number' || level.value < 0 || level.value > 1) {
        throw new HogQLError('The level of quantile() must be a number constant from 0 to 1.');
      }
      return percentile(c, level.value, arg(args, 0));
    },
  },
  datePart('toYear', 'year'),
  datePart('toQuarter', 'quarter'),
  datePart('toMonth', 'month'),
  datePart('toDayOfMonth', 'day'),
  // ClickHouse's default day of the week counts Monday as 1 and Sunday as 7: PostgreSQL's isodow.
  datePart('toDayOfWeek', 'isodow'),
  datePart('toHour', 'hour'),
  datePart('toMinute', 'minute'),
  datePart('toSecond', 'second'),
  {
    name: 'dateTrunc',
    minArgs: 2,
    maxArgs: 2,
    compile: (c, args) => {
      const unit = unitOf(arg(args, 0), 'dateTrunc', DATE_TRUNC_UNITS);
      const at = to(c, arg(args, 1), 'datetime');
      return typed(sql`date_trunc(${keyword(`'${unit}'`)}, ${at.sql}, ${timezoneParam(c.scope)})`, 'datetime', at.nullable, at.aggregate);
    },
  },
  dateShift('dateAdd', '+'),
  dateShift('dateSub', '-'),
  {
    name: 'round',
    minArgs: 1,
    maxArgs: 2,
    compile: (c, args) => {
      const value = numberOf(c, arg(args, 0));
      const places = args.length > 1 ? to(c, arg(args, 1), 'int') : null;
      const body = places ? sql`round(${value.sql}, (${places.sql})::int)` : sql`round(${value.sql})`;
      return typed(body, 'float', value.nullable || (places?.nullable ?? false), value.aggregate || (places?.aggregate ?? false));
    },
  },
  mathOf('floor', 'floor'),
  mathOf('ceil', 'ceil'),
  mathOf('abs', 'abs'),
  textTest('startsWith', (text, part) => sql`starts_with(${text}, ${part})`),
  textTest('endsWith', (text, part) => sql`(right(${text}, char_length(${part})) = ${part})`),
  {
    name: 'position',
    minArgs: 2,
    maxArgs: 2,
    compile: (c, args) => {
      const text = to(c, arg(args, 0), 'string');
      const part = to(c, arg(args, 1), 'string');
      return typed(sql`strpos(${text.sql}, ${part.sql})::bigint`, 'int', text.nullable || part.nullable, text.aggregate || part.aggregate);
    },
  },
  {
    name: 'replaceAll',
    minArgs: 3,
    maxArgs: 3,
    compile: (c, args) => {
      const [text, from, into] = [0, 1, 2].map((index) => to(c, arg(args, index), 'string')) as [Typed, Typed, Typed];
      const parts = [text, from, into];
      return typed(sql`replace(${text.sql}, ${from.sql}, ${into.sql})`, 'string', parts.some((p) => p.nullable), parts.some((p) => p.aggregate));
    },
  },
  {
    name: 'splitByChar',
    minArgs: 2,
    maxArgs: 2,
    compile: (c, args) => {
      const separator = arg(args, 0);
      if (separator.kind !== 'constant' || typeof separator.value !== 'string' || [...separator.value].length !== 1) {
        throw new HogQLError('The separator of splitByChar() must be a constant of one character.');
      }
      const text = to(c, arg(args, 1), 'string');
      return typed(sql`to_jsonb(string_to_array(${text.sql}, ${param(separator.value, 'text')}))`, 'json', text.nullable, text.aggregate);
    },
  },
  {
    name: 'trim',
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => {
      const text = to(c, arg(args, 0), 'string');
      return typed(sql`btrim(${text.sql})`, 'string', text.nullable, text.aggregate);
    },
  },
  {
    name: 'substring',
    minArgs: 2,
    maxArgs: 3,
    compile: (c, args) => {
      const text = to(c, arg(args, 0), 'string');
      const start = to(c, arg(args, 1), 'int');
      const length = args.length > 2 ? to(c, arg(args, 2), 'int') : null;
      const body = length
        ? sql`substr(${text.sql}, (${start.sql})::int, greatest((${length.sql})::int, 0))`
        : sql`substr(${text.sql}, (${start.sql})::int)`;
      const parts = [text, start, ...(length ? [length] : [])];
      return typed(body, 'string', parts.some((p) => p.nullable), parts.some((p) => p.aggregate));
    },
  },
];

/** The added functions, by lower-case name. */
export const SELECT_FUNCTIONS: Readonly<Record<string, FunctionDef>> = Object.fromEntries(
  DEFINITIONS.map((definition) => [definition.name.toLowerCase(), definition]),
);

export const SELECT_FUNCTION_NAMES = DEFINITIONS.map((definition) => definition.name);
