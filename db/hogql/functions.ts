/**
 * The functions HogQL expressions may call, with ClickHouse's names, compiled to PostgreSQL. Names are matched
 * case-insensitively; a name not in this table is refused by the compiler.
 */
import type { Expr } from './ast.js';
import type { Compiler } from './compiler.js';
import { HogQLError } from './errors.js';
import { CONVERSION_CORRECTIONS } from './library/conversions.js';
import { STRING_CORRECTIONS } from './library/strings.js';
import { postgresRegex } from './regex.js';
import { join, keyword, param, sql, type Fragment } from './sql.js';
import { coerce, jsonKey, timezoneParam, typed, unifiedType, wallClockZone, type HogQLType, type Typed } from './types.js';

export interface FunctionDef {
  name: string;
  minArgs: number;
  maxArgs: number;
  aggregate?: boolean;
  /** The least and most parameters of a parametric call (`quantile(0.9)(x)`); none when absent. */
  params?: readonly [number, number];
  compile(c: Compiler, args: readonly Expr[], params: readonly Expr[]): Typed;
}

function arg(args: readonly Expr[], index: number): Expr {
  return args[index]!;
}

function to(c: Compiler, expr: Expr, type: HogQLType): Typed {
  return coerce(c.compile(expr), type, c.scope);
}

function constantText(expr: Expr, what: string): string {
  if (expr.kind !== 'constant' || typeof expr.value !== 'string') throw new HogQLError(`${what} must be a string constant.`);
  return expr.value;
}

/** Brings values to one type; JSON nulls count as nulls. */
function unify(c: Compiler, values: readonly Typed[]): { type: HogQLType; values: Typed[] } {
  const type = unifiedType(values);
  return {
    type,
    values: values.map((value) => {
      const converted = type === 'null' ? value : coerce(value, type, c.scope);
      return value.type === 'json' && converted.type === 'json' ? { ...converted, sql: sql`nullif(${converted.sql}, 'null'::jsonb)` } : converted;
    }),
  };
}

function conversion(name: string, type: HogQLType): FunctionDef {
  return { name, minArgs: 1, maxArgs: 1, compile: (c, args) => to(c, arg(args, 0), type) };
}

function startOf(name: string, field: 'hour' | 'day'): FunctionDef {
  return {
    name,
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => {
      const at = to(c, arg(args, 0), 'datetime');
      // A datetime given a zone by toTimeZone() starts its hours and days there.
      return typed(sql`date_trunc(${keyword(`'${field}'`)}, ${at.sql}, ${wallClockZone(at, c.scope)})`, 'datetime', at.nullable, at.aggregate);
    },
  };
}

function aggregateOf(name: string, sqlName: 'sum' | 'avg' | 'min' | 'max'): FunctionDef {
  return {
    name,
    minArgs: 1,
    maxArgs: 1,
    aggregate: true,
    compile: (c, args) => {
      const value = c.compile(arg(args, 0));
      if (sqlName === 'sum' || sqlName === 'avg') {
        const number = coerce(c.numeric(value), 'float', c.scope);
        const body = sql`${keyword(sqlName)}(${number.sql})`;
        return sqlName === 'sum' ? typed(sql`coalesce(${body}, 0)`, 'float', false) : typed(body, 'float', true);
      }
      if (value.type === 'json') {
        // A property compares as a number when every value it has reads as one (a number, text such as "100",
        // or a boolean, as 1 or 0), and as text otherwise: the least of "Chrome" and "Firefox" is "Chrome", not
        // a number that neither of them is.
        const v = value.sql;
        const numbersOnly = sql`count(*) filter (where jsonb_typeof(${v}) <> 'null' and hogql_to_number(${v}) is null) = 0`;
        const [asNumber, asText] = [sql`${keyword(sqlName)}(hogql_to_number(${v}))`, sql`${keyword(sqlName)}(${v} #>> '{}')`];
        return typed(sql`(case when ${numbersOnly} then to_jsonb(${asNumber}) else to_jsonb(${asText}) end)`, 'json', true);
      }
      const kept: HogQLType[] = ['int', 'float', 'string', 'datetime', 'date'];
      const target: HogQLType = kept.includes(value.type) ? value.type : value.type === 'uuid' ? 'string' : value.type === 'boolean' ? 'int' : 'float';
      const converted = coerce(value, target, c.scope);
      return typed(sql`${keyword(sqlName)}(${converted.sql})`, target, true);
    },
  };
}

const DATE_DIFF_UNITS = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'] as const;

function dateDiff(c: Compiler, args: readonly Expr[]): Typed {
  const unit = constantText(arg(args, 0), 'The unit of dateDiff()').toLowerCase().replace(/s$/, '');
  if (!(DATE_DIFF_UNITS as readonly string[]).includes(unit)) {
    throw new HogQLError(`dateDiff() unit must be one of ${DATE_DIFF_UNITS.join(', ')}.`);
  }
  const start = c.compile(arg(args, 1));
  const end = c.compile(arg(args, 2));
  const nullable = start.nullable || end.nullable;
  const aggregate = start.aggregate || end.aggregate;
  const result = (fragment: Fragment) => typed(fragment, 'int', nullable, aggregate);
  const seconds: Record<string, string> = { second: '1', minute: '60', hour: '3600' };
  if (seconds[unit]) {
    const a = coerce(start, 'datetime', c.scope).sql;
    const b = coerce(end, 'datetime', c.scope).sql;
    const per = keyword(seconds[unit]);
    return result(sql`(floor(extract(epoch from ${b}) / ${per}) - floor(extract(epoch from ${a}) / ${per}))::bigint`);
  }
  const a = coerce(start, 'date', c.scope).sql;
  const b = coerce(end, 'date', c.scope).sql;
  switch (unit) {
    case 'day':
      return result(sql`(${b} - ${a})::bigint`);
    case 'week':
      return result(sql`((date_trunc('week', ${b})::date - date_trunc('week', ${a})::date) / 7)::bigint`);
    case 'month':
      return result(
        sql`((extract(year from ${b}) * 12 + extract(month from ${b})) - (extract(year from ${a}) * 12 + extract(month from ${a})))::bigint`,
      );
    case 'quarter':
      return result(
        sql`((extract(year from ${b}) * 4 + extract(quarter from ${b})) - (extract(year from ${a}) * 4 + extract(quarter from ${a})))::bigint`,
      );
    default:
      return result(sql`(extract(year from ${b}) - extract(year from ${a}))::bigint`);
  }
}

/**
 * if() and multiIf(). An aggregate in a condition alone (`if(count() > 1, 'many', 'few')`) makes the whole an
 * aggregate as much as one in a branch: the select groups by the other expressions, not by this one.
 */
function conditional(c: Compiler, args: readonly Expr[]): Typed {
  const conditions: Typed[] = [];
  const branches: Typed[] = [];
  for (let index = 0; index + 1 < args.length; index += 2) {
    conditions.push(c.compile(arg(args, index)));
    branches.push(c.compile(arg(args, index + 1)));
  }
  branches.push(c.compile(arg(args, args.length - 1)));
  const { type, values } = unify(c, branches);
  const whens = conditions.map((condition, index) => sql`when ${c.truth(condition)} then ${values[index]!.sql}`);
  const fragment = sql`(case ${join(whens, ' ')} else ${values[values.length - 1]!.sql} end)`;
  const aggregate = [...conditions, ...branches].some((part) => part.aggregate);
  return typed(fragment, type, values.some((value) => value.nullable), aggregate);
}

/** A constant pattern as PostgreSQL runs it (regex.ts); a computed one as it is. */
function regexPattern(pattern: Typed): Typed {
  if (typeof pattern.constant !== 'string') return pattern;
  const translated = postgresRegex(pattern.constant);
  return { ...pattern, sql: param(translated, 'text'), constant: translated };
}

const DEFINITIONS: FunctionDef[] = [
  {
    name: 'count',
    minArgs: 0,
    maxArgs: 1,
    aggregate: true,
    compile: (c, args) => {
      if (args.length === 0) return typed(keyword('count(*)'), 'int', false);
      const value = c.compile(arg(args, 0));
      const counted = value.type === 'json' ? sql`nullif(${value.sql}, 'null'::jsonb)` : value.sql;
      return typed(sql`count(${counted})`, 'int', false);
    },
  },
  {
    name: 'countIf',
    minArgs: 1,
    maxArgs: 1,
    aggregate: true,
    compile: (c, args) => typed(sql`count(*) filter (where ${c.condition(arg(args, 0))})`, 'int', false),
  },
  {
    name: 'uniq',
    minArgs: 1,
    maxArgs: 1,
    aggregate: true,
    compile: (c, args) => {
      const value = c.compile(arg(args, 0));
      const counted = value.type === 'json' ? sql`nullif(${value.sql}, 'null'::jsonb)` : value.sql;
      return typed(sql`count(distinct ${counted})`, 'int', false);
    },
  },
  aggregateOf('sum', 'sum'),
  aggregateOf('avg', 'avg'),
  aggregateOf('min', 'min'),
  aggregateOf('max', 'max'),

  conversion('toString', 'string'),
  // Text converts to an integer only when it is one: toInt('1.5') is NULL, as PostHog's accurateCastOrNull.
  CONVERSION_CORRECTIONS.toInt,
  CONVERSION_CORRECTIONS.toFloat,
  conversion('toDate', 'date'),
  conversion('toDateTime', 'datetime'),
  CONVERSION_CORRECTIONS.toUUID,
  startOf('toStartOfHour', 'hour'),
  startOf('toStartOfDay', 'day'),
  {
    name: 'toStartOfWeek',
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => {
      // ClickHouse's default week starts on Sunday.
      const day = to(c, arg(args, 0), 'date');
      return typed(sql`(${day.sql} - extract(dow from ${day.sql})::int)`, 'date', day.nullable, day.aggregate);
    },
  },
  {
    name: 'toStartOfMonth',
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => {
      const day = to(c, arg(args, 0), 'date');
      return typed(sql`date_trunc('month', ${day.sql})::date`, 'date', day.nullable, day.aggregate);
    },
  },
  { name: 'now', minArgs: 0, maxArgs: 0, compile: () => typed(keyword('now()'), 'datetime', false) },
  {
    name: 'today',
    minArgs: 0,
    maxArgs: 0,
    compile: (c) => typed(sql`(now() at time zone ${timezoneParam(c.scope)})::date`, 'date', false),
  },
  { name: 'dateDiff', minArgs: 3, maxArgs: 3, compile: dateDiff },
  // ClickHouse's lower() and upper() change ASCII letters only (lowerUTF8() and upperUTF8() change all).
  STRING_CORRECTIONS.lower,
  STRING_CORRECTIONS.upper,
  {
    name: 'concat',
    minArgs: 1,
    maxArgs: Infinity,
    compile: (c, args) => {
      const parts = args.map((item) => to(c, item, 'string'));
      return typed(sql`concat(${join(parts.map((part) => part.sql), ', ')})`, 'string', false, parts.some((part) => part.aggregate));
    },
  },
  {
    name: 'length',
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => {
      const value = c.compile(arg(args, 0));
      if (value.type === 'json' || value.type === 'array') return typed(sql`hogql_json_length(${value.sql})`, 'int', true, value.aggregate);
      // A String's length is its bytes in ClickHouse (lengthUTF8() counts characters).
      const text = coerce(value, 'string', c.scope);
      return typed(sql`octet_length(${text.sql})::bigint`, 'int', text.nullable, text.aggregate);
    },
  },
  {
    name: 'coalesce',
    minArgs: 1,
    maxArgs: Infinity,
    compile: (c, args) => {
      const compiled = args.map((item) => c.compile(item));
      const { type, values } = unify(c, compiled);
      return typed(
        sql`coalesce(${join(values.map((value) => value.sql), ', ')})`,
        type,
        values.every((value) => value.nullable),
        compiled.some((value) => value.aggregate),
      );
    },
  },
  {
    name: 'ifNull',
    minArgs: 2,
    maxArgs: 2,
    compile: (c, args) => c.call('coalesce', args),
  },
  { name: 'if', minArgs: 3, maxArgs: 3, compile: conditional },
  {
    name: 'multiIf',
    minArgs: 3,
    maxArgs: Infinity,
    compile: (c, args) => {
      if (args.length % 2 === 0) throw new HogQLError('multiIf() takes pairs of condition and value, then a default value.');
      return conditional(c, args);
    },
  },
  {
    name: 'isNull',
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => {
      const value = c.compile(arg(args, 0));
      return c.boolean(c.nullTest(value, false), [value]);
    },
  },
  {
    name: 'isNotNull',
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => {
      const value = c.compile(arg(args, 0));
      return c.boolean(c.nullTest(value, true), [value]);
    },
  },
  {
    name: 'match',
    minArgs: 2,
    maxArgs: 2,
    compile: (c, args) => {
      const haystack = to(c, arg(args, 0), 'string');
      const pattern = regexPattern(to(c, arg(args, 1), 'string'));
      const body = sql`${haystack.sql} ~ ${pattern.sql}`;
      return c.boolean(haystack.nullable || pattern.nullable ? sql`coalesce(${body}, false)` : sql`(${body})`, [haystack, pattern]);
    },
  },
  {
    name: 'JSONExtractString',
    minArgs: 1,
    maxArgs: Infinity,
    compile: (c, args) => {
      const source = c.compile(arg(args, 0));
      const document = source.type === 'json' ? source.sql : sql`hogql_json_parse(${coerce(source, 'string', c.scope).sql})`;
      let value = document;
      for (const key of args.slice(1)) {
        if (key.kind !== 'constant' || (typeof key.value !== 'string' && !Number.isInteger(key.value))) {
          throw new HogQLError('The keys of JSONExtractString() must be string or integer constants.');
        }
        value = sql`(${value} -> ${jsonKey(key.value as string | number)})`;
      }
      return typed(sql`hogql_json_string(${value})`, 'string', false, source.aggregate);
    },
  },
];

/** The function table, by lower-case name. */
export const FUNCTIONS: Readonly<Record<string, FunctionDef>> = Object.fromEntries(
  DEFINITIONS.map((definition) => [definition.name.toLowerCase(), definition]),
);

export const FUNCTION_NAMES = DEFINITIONS.map((definition) => definition.name);
