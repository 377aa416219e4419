/**
 * The functions HogQL expressions may call, with ClickHouse's names, compiled to PostgreSQL. Names are matched
 * case-insensitively; a name not in this table is refused by the compiler.
 */
import { commonShape } from './arrays.js';
import type { Expr } from './ast.js';
import type { Compiler } from './compiler.js';
import { HogQLError } from './errors.js';
import { CONVERSION_CORRECTIONS } from './library/conversions.js';
import { STRING_CORRECTIONS } from './library/strings.js';
import { postgresRegex } from './regex.js';
import { join, keyword, param, sql, type Fragment } from './sql.js';
import { weekMode, weekStart } from './library/dates.js';
import { coerce, jsonKey, timezoneName, timezoneParam, typed, unifiedType, wallClockZone, type HogQLType, type Typed } from './types.js';

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

/** An array chosen among arrays (if, coalesce) keeps their elements' type when they share one, JSON otherwise. */
function withElements(result: Typed, values: readonly Typed[]): Typed {
  if (result.type !== 'array') return result;
  const arrays = values.filter((value) => value.type === 'array');
  const elements = new Set(arrays.map((value) => value.element ?? 'json'));
  return {
    ...result,
    element: elements.size === 1 ? [...elements][0]! : 'json',
    elementNullable: arrays.some((value) => value.elementNullable === true) || values.some((value) => value.type === 'json'),
    elementShape: commonShape(arrays),
  };
}

function conversion(name: string, type: HogQLType): FunctionDef {
  return { name, minArgs: 1, maxArgs: 1, compile: (c, args) => to(c, arg(args, 0), type) };
}

function startOf(name: string, field: 'hour' | 'day', maxArgs: number): FunctionDef {
  return {
    name,
    minArgs: 1,
    maxArgs,
    compile: (c, args) => {
      // A timezone argument, or the zone toTimeZone() gave the datetime, is where its hours and days start.
      const zoneName = args.length > 1 ? timezoneName(arg(args, 1), name) : undefined;
      const at = coerce(c.compile(arg(args, 0)), 'datetime', zoneName ? { timezone: zoneName } : c.scope);
      const zone = zoneName ? param(zoneName, 'text') : wallClockZone(at, c.scope);
      const start = typed(sql`date_trunc(${keyword(`'${field}'`)}, ${at.sql}, ${zone})`, 'datetime', at.nullable, at.aggregate);
      const kept = zoneName ?? at.zone;
      return kept ? { ...start, zone: kept } : start;
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

/** ClickHouse's short names of dateDiff()'s units. */
const DATE_DIFF_ABBREVIATIONS: Readonly<Record<string, string>> = {
  ss: 'second',
  s: 'second',
  mi: 'minute',
  n: 'minute',
  hh: 'hour',
  h: 'hour',
  dd: 'day',
  d: 'day',
  wk: 'week',
  ww: 'week',
  mm: 'month',
  m: 'month',
  qq: 'quarter',
  q: 'quarter',
  yyyy: 'year',
  yy: 'year',
};

/** A zone's offset from UTC at the start of the Unix epoch, in seconds, when it was not a whole number of hours; else 0. */
function fractionalHourOffset(zone: string): number {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' })
      .formatToParts(new Date(0));
  } catch {
    return 0; // a name PostgreSQL knows and this runtime does not: whole hours assumed
  }
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((item) => item.type === type)?.value);
  const wall = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
  const offset = Math.round(wall / 1000);
  return offset % 3600 === 0 ? 0 : offset;
}

function dateDiff(c: Compiler, args: readonly Expr[]): Typed {
  const written = constantText(arg(args, 0), 'The unit of dateDiff()').toLowerCase();
  const unit = Object.hasOwn(DATE_DIFF_ABBREVIATIONS, written) ? DATE_DIFF_ABBREVIATIONS[written]! : written.replace(/s$/, '');
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
    const from = coerce(start, 'datetime', c.scope);
    const a = from.sql;
    const b = coerce(end, 'datetime', c.scope).sql;
    const per = keyword(seconds[unit]);
    // ClickHouse counts hours from the Unix epoch, shifted by the zone's offset then where that offset was not
    // whole hours (Asia/Kolkata's +05:30): its hours start at :30 past UTC's.
    const shift = unit === 'hour' ? fractionalHourOffset(from.zone ?? c.scope.timezone) : 0;
    if (shift !== 0) {
      const by = keyword(String(shift));
      return result(sql`(floor((extract(epoch from ${b}) + ${by}) / ${per}) - floor((extract(epoch from ${a}) + ${by}) / ${per}))::bigint`);
    }
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
  return withElements(typed(fragment, type, values.some((value) => value.nullable), aggregate), values);
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
    maxArgs: 2,
    aggregate: true,
    compile: (c, args) => {
      // countIf(cond) counts the rows where cond holds; countIf(x, cond) those of them where x is not null.
      const condition = c.condition(arg(args, args.length - 1));
      if (args.length === 1) return typed(sql`count(*) filter (where ${condition})`, 'int', false);
      const value = c.compile(arg(args, 0));
      const counted = value.type === 'json' ? sql`nullif(${value.sql}, 'null'::jsonb)` : value.sql;
      return typed(sql`count(${counted}) filter (where ${condition})`, 'int', false);
    },
  },
  {
    name: 'uniq',
    minArgs: 1,
    maxArgs: Infinity,
    aggregate: true,
    compile: (c, args) => {
      const values = args.map((item) => {
        const value = c.compile(item);
        return value.type === 'json' ? sql`nullif(${value.sql}, 'null'::jsonb)` : value.sql;
      });
      if (values.length === 1) return typed(sql`count(distinct ${values[0]!})`, 'int', false);
      // Several arguments count distinct combinations; as in ClickHouse, a row with a null among them counts not.
      const present = join(values.map((value) => sql`${value} is not null`), ' and ');
      return typed(sql`count(distinct (${join(values, ', ')})) filter (where ${present})`, 'int', false);
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
  {
    name: 'toDateTime',
    minArgs: 1,
    maxArgs: 2,
    compile: (c, args) => {
      // With a timezone, a text is read on its wall clock and the result is shown there, as in ClickHouse.
      if (args.length === 1) return to(c, arg(args, 0), 'datetime');
      const zone = timezoneName(arg(args, 1), 'toDateTime');
      return { ...coerce(c.compile(arg(args, 0)), 'datetime', { timezone: zone }), zone };
    },
  },
  CONVERSION_CORRECTIONS.toUUID,
  startOf('toStartOfHour', 'hour', 1),
  startOf('toStartOfDay', 'day', 2),
  {
    name: 'toStartOfWeek',
    minArgs: 1,
    maxArgs: 2,
    compile: (c, args) => {
      // ClickHouse's week mode: an even mode (the default 0) starts weeks on Sunday, an odd one on Monday.
      const mode = weekMode(args, 1, 'toStartOfWeek');
      const day = to(c, arg(args, 0), 'date');
      return typed(weekStart(day.sql, mode), 'date', day.nullable, day.aggregate);
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
  {
    name: 'now',
    minArgs: 0,
    maxArgs: 1,
    compile: (_c, args) => {
      const now = typed(keyword('now()'), 'datetime', false);
      return args.length > 0 ? { ...now, zone: timezoneName(arg(args, 0), 'now') } : now;
    },
  },
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
      return withElements(
        typed(
          sql`coalesce(${join(values.map((value) => value.sql), ', ')})`,
          type,
          values.every((value) => value.nullable),
          compiled.some((value) => value.aggregate),
        ),
        values,
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
