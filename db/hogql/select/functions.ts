/**
 * Functions the query endpoint's SELECT adds to the expression library (functions.ts): the aggregates and
 * date, number and text functions PostHog users reach for first, each one PostgreSQL expresses directly. Units
 * and other words that become SQL text are checked against fixed lists; every value is a bound parameter.
 */
import type { Expr } from '../ast.js';
import type { Compiler } from '../compiler.js';
import { HogQLError } from '../errors.js';
import { FUNCTIONS, type FunctionDef } from '../functions.js';
import { LIBRARY_FUNCTIONS } from '../library/index.js';
import { forDocument, JSON_CORRECTIONS } from '../library/json.js';
import { MATH_CORRECTIONS } from '../library/math.js';
import { STRING_CORRECTIONS } from '../library/strings.js';
import { ownEntry } from '../lookup.js';
import { postgresRegex } from '../regex.js';
import { keyword, param, sql, type Fragment } from '../sql.js';
import { arrayOf, coerce, jsonKey, timezoneParam, typed, wallClockZone, type HogQLType, type Typed } from '../types.js';

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

/** A timezone name constant, checked against the IANA names the runtime knows, so that PostgreSQL never refuses it. */
function timezoneName(expr: Expr, fn: string): string {
  if (expr.kind !== 'constant' || typeof expr.value !== 'string') throw new HogQLError(`The timezone of ${fn}() must be a string constant.`);
  const name = expr.value;
  let known = /^[A-Za-z][A-Za-z0-9_+\-]*(\/[A-Za-z0-9_+\-]+)*$/.test(name) && name.length <= 64;
  if (known) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: name });
    } catch {
      known = false;
    }
  }
  if (!known) throw new HogQLError(`Unknown timezone "${name}" in ${fn}().`);
  return name;
}

/**
 * ClickHouse's formatDateTime() codes and the to_char() patterns that write the same text. Text between codes is
 * quoted for to_char, so that none of it is read as a pattern.
 */
const FORMAT_CODES: Readonly<Record<string, string>> = {
  Y: 'YYYY',
  y: 'YY',
  m: 'MM',
  d: 'DD',
  H: 'HH24',
  I: 'HH12',
  h: 'HH12',
  i: 'MI',
  S: 'SS',
  s: 'SS',
  f: 'US',
  F: 'YYYY-MM-DD',
  D: 'MM/DD/YY',
  T: 'HH24:MI:SS',
  R: 'HH24:MI',
  j: 'DDD',
  u: 'ID',
  V: 'IW',
  Q: 'Q',
  p: 'AM',
  a: 'Dy',
  b: 'Mon',
  W: 'FMDay',
  M: 'FMMonth',
};

function toCharPattern(format: string): string {
  let pattern = '';
  let literal = '';
  let afterCode = false;
  const flush = () => {
    if (literal !== '') pattern += `"${literal.replace(/["\\]/g, (char) => `\\${char}`)}"`;
    literal = '';
  };
  for (let index = 0; index < format.length; index += 1) {
    const char = format[index]!;
    if (char !== '%') {
      literal += char;
      continue;
    }
    const code = format[index + 1];
    index += 1;
    if (code === '%') literal += '%';
    else if (code === 'n') literal += '\n';
    else if (code === 't') literal += '\t';
    else if (code !== undefined && Object.hasOwn(FORMAT_CODES, code)) {
      // to_char reads patterns greedily (DD then DDD as DDD then DD): an empty quoted text keeps them apart.
      if (literal === '' && afterCode) pattern += '""';
      flush();
      pattern += FORMAT_CODES[code];
      afterCode = true;
    } else {
      throw new HogQLError(code === undefined ? 'The format of formatDateTime() ends with a lone %.' : `formatDateTime() does not support the code %${code}.`);
    }
  }
  flush();
  return pattern;
}

/**
 * The value at JSONExtract*'s path: the document, then each key. The document is JSON text, as in ClickHouse
 * (a property holding such text included); a property holding an object or a list is read as it is.
 */
function jsonExtractPath(c: Compiler, args: readonly Expr[], fn: string): { value: Fragment; source: Typed } {
  const source = c.compile(arg(args, 0));
  let value =
    source.type === 'json'
      ? sql`(case when jsonb_typeof(${source.sql}) = 'string' then hogql_json_parse(${source.sql} #>> '{}') else ${source.sql} end)`
      : sql`hogql_json_parse(${coerce(source, 'string', c.scope).sql})`;
  for (const key of args.slice(1)) {
    if (key.kind !== 'constant' || (typeof key.value !== 'string' && !Number.isInteger(key.value))) {
      throw new HogQLError(`The keys of ${fn}() must be string or integer constants.`);
    }
    value = sql`(${value} -> ${jsonKey(key.value as string | number)})`;
  }
  return { value, source };
}

/** JSONExtractInt, JSONExtractFloat, …: as ClickHouse, a missing value or one of another type is the type's zero. */
function jsonExtract(name: string, type: HogQLType, read: (value: Fragment) => Fragment): FunctionDef {
  return {
    name,
    minArgs: 1,
    maxArgs: Infinity,
    compile: (c, args) => {
      // A NULL document (a missing property) gives NULL, as ClickHouse's functions of a Nullable argument do.
      const { value, source } = jsonExtractPath(c, args, name);
      const result = forDocument(source, read(value));
      return typed(result.sql, type, result.nullable, source.aggregate);
    },
  };
}

/** `sumIf(x, cond)` is `sum(if(cond, x, null))`: the aggregate skips the rows where the condition fails. */
function conditionalAggregate(name: string, target: string): FunctionDef {
  return {
    name,
    minArgs: 2,
    maxArgs: 2,
    compile: (c, args) => {
      if (!c.options.allowAggregates) throw new HogQLError(`Aggregate functions such as ${name}() are not allowed in ${c.options.clause}.`);
      return c.call(target, [{ kind: 'call', name: 'if', args: [arg(args, 1), arg(args, 0), { kind: 'constant', value: null }] }]);
    },
  };
}

/** A part of a datetime read on the project's wall clock, as ClickHouse's toYear(), toHour(), … do. */
function datePart(name: string, field: string): FunctionDef {
  return {
    name,
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => {
      const at = to(c, arg(args, 0), 'datetime');
      return typed(sql`extract(${keyword(field)} from (${at.sql} at time zone ${wallClockZone(at, c.scope)}))::bigint`, 'int', at.nullable, at.aggregate);
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
      // The same instant moved: a zone toTimeZone() gave it stays where its wall clock is read.
      return { ...typed(shifted, 'datetime', nullable, aggregate), zone: at.zone };
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
      return arrayOf(sql`coalesce(jsonb_agg(to_jsonb(${v})) filter (where ${v} is not null), '[]'::jsonb)`, value.type === 'null' ? 'json' : value.type, false);
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
      return typed(sql`date_trunc(${keyword(`'${unit}'`)}, ${at.sql}, ${wallClockZone(at, c.scope)})`, 'datetime', at.nullable, at.aggregate);
    },
  },
  {
    name: 'toTimeZone',
    minArgs: 2,
    maxArgs: 2,
    compile: (c, args) => {
      // The same instant; only where its wall clock is read changes.
      const at = to(c, arg(args, 0), 'datetime');
      return { ...typed(at.sql, 'datetime', at.nullable, at.aggregate), zone: timezoneName(arg(args, 1), 'toTimeZone') };
    },
  },
  {
    name: 'formatDateTime',
    minArgs: 2,
    maxArgs: 3,
    compile: (c, args) => {
      const format = arg(args, 1);
      if (format.kind !== 'constant' || typeof format.value !== 'string') throw new HogQLError('The format of formatDateTime() must be a string constant.');
      const at = to(c, arg(args, 0), 'datetime');
      const zone = args.length > 2 ? param(timezoneName(arg(args, 2), 'formatDateTime'), 'text') : wallClockZone(at, c.scope);
      const pattern = param(toCharPattern(format.value), 'text');
      return typed(sql`to_char(${at.sql} at time zone ${zone}, ${pattern})`, 'string', at.nullable, at.aggregate);
    },
  },
  {
    name: 'extract',
    minArgs: 2,
    maxArgs: 2,
    compile: (c, args) => {
      // ClickHouse's extract(haystack, pattern): the first capture group of the first match, or the whole match
      // when the pattern has no group; '' when nothing matches.
      const pattern = arg(args, 1);
      if (pattern.kind !== 'constant' || typeof pattern.value !== 'string') throw new HogQLError('The pattern of extract() must be a string constant.');
      const translated = postgresRegex(pattern.value);
      const text = to(c, arg(args, 0), 'string');
      const match = sql`(regexp_match(${text.sql}, ${param(translated, 'text')}))[1]`;
      return typed(sql`coalesce(${match}, '')`, 'string', false, text.aggregate);
    },
  },
  jsonExtract('JSONExtractInt', 'int', (v) => sql`coalesce((case jsonb_typeof(${v}) when 'number' then hogql_trunc_int((${v})::numeric) when 'boolean' then (${v})::boolean::int::bigint end), 0)`),
  jsonExtract('JSONExtractFloat', 'float', (v) => sql`coalesce((case jsonb_typeof(${v}) when 'number' then (${v})::numeric when 'boolean' then (${v})::boolean::int::numeric end), 0)`),
  jsonExtract('JSONExtractBool', 'boolean', (v) => sql`coalesce((case jsonb_typeof(${v}) when 'boolean' then (${v})::boolean when 'number' then (${v})::numeric <> 0 end), false)`),
  jsonExtract('JSONExtractString', 'string', (v) => sql`hogql_json_string(${v})`),
  // The value's text as the document has it, without whitespace between tokens, as ClickHouse writes it.
  JSON_CORRECTIONS.JSONExtractRaw,
  conditionalAggregate('sumIf', 'sum'),
  conditionalAggregate('avgIf', 'avg'),
  conditionalAggregate('minIf', 'min'),
  conditionalAggregate('maxIf', 'max'),
  conditionalAggregate('uniqIf', 'uniq'),
  {
    name: 'arrayJoin',
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => {
      // A row for each element (none for an empty array or a value that is not an array), as ClickHouse's
      // arrayJoin; where it may stand is checked by the statement compiler.
      if (!['SELECT', 'GROUP BY', 'ORDER BY'].includes(c.options.clause)) throw new HogQLError(`arrayJoin() is not allowed in ${c.options.clause}.`);
      const list = c.compile(arg(args, 0));
      if (list.type !== 'json' && list.type !== 'array') throw new HogQLError('arrayJoin() needs an array (such as splitByChar(), groupArray() or a property holding a list).');
      const array = sql`(case when jsonb_typeof(${list.sql}) = 'array' then ${list.sql} else '[]'::jsonb end)`;
      return typed(sql`jsonb_array_elements(${array})`, 'json', true, list.aggregate);
    },
  },
  dateShift('dateAdd', '+'),
  dateShift('dateSub', '-'),
  // Floats round half to even, as ClickHouse's Float64 does; a second argument gives the decimal places.
  MATH_CORRECTIONS.round,
  MATH_CORRECTIONS.floor,
  MATH_CORRECTIONS.ceil,
  mathOf('abs', 'abs'),
  textTest('startsWith', (text, part) => sql`starts_with(${text}, ${part})`),
  textTest('endsWith', (text, part) => sql`(right(${text}, char_length(${part})) = ${part})`),
  // position(haystack, needle[, start]) counts UTF-8 bytes, as ClickHouse does.
  STRING_CORRECTIONS.position,
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
  // splitByChar(separator, text[, max]): an empty text is one empty part, as in ClickHouse.
  STRING_CORRECTIONS.splitByChar,
  STRING_CORRECTIONS.trim,
  // substring(text, offset[, length]): a negative offset counts from the end, a negative length ends before it.
  STRING_CORRECTIONS.substring,
];

/** The added functions, by lower-case name. */
export const SELECT_FUNCTIONS: Readonly<Record<string, FunctionDef>> = Object.fromEntries(
  DEFINITIONS.map((definition) => [definition.name.toLowerCase(), definition]),
);

export const SELECT_FUNCTION_NAMES = DEFINITIONS.map((definition) => definition.name);

/** The function a query's call names, by any case: the query's own, the library's, then the core ones. */
export function functionDefinition(name: string): FunctionDef | undefined {
  const lowerCaseName = name.toLowerCase();
  return ownEntry(SELECT_FUNCTIONS, lowerCaseName) ?? ownEntry(LIBRARY_FUNCTIONS, lowerCaseName) ?? ownEntry(FUNCTIONS, lowerCaseName);
}
