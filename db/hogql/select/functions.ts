/**
 * Functions the query endpoint's SELECT adds to the expression library (functions.ts): the aggregates and
 * date, number and text functions PostHog users reach for first, each one PostgreSQL expresses directly. Units
 * and other words that become SQL text are checked against fixed lists; every value is a bound parameter.
 */
import type { Expr, IntervalUnit } from '../ast.js';
import type { Compiler } from '../compiler.js';
import { HogQLError } from '../errors.js';
import { FUNCTIONS, type FunctionDef } from '../functions.js';
import { LIBRARY_FUNCTIONS } from '../library/index.js';
import { forDocument, JSON_CORRECTIONS } from '../library/json.js';
import { MATH_CORRECTIONS } from '../library/math.js';
import { STRING_CORRECTIONS } from '../library/strings.js';
import { ownEntry } from '../lookup.js';
import { postgresRegex } from '../regex.js';
import { join, keyword, param, sql, type Fragment } from '../sql.js';
import { fromJsonb, toJsonb } from '../arrays.js';
import { arrayOf, coerce, shapeOf, jsonKey, timezoneName, typed, wallClockZone, type HogQLType, type Typed } from '../types.js';

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
  c: 'MM',
  G: 'IYYY',
  g: 'IY',
  r: 'HH12:MI AM',
};

/**
 * ClickHouse's codes that to_char() has no pattern for, each written from the wall-clock time `w` (and, for the
 * offset, the instant `at`): padded with spaces (%e, %k, %l), Sunday as 0 (%w), the year's hundreds (%C, where
 * to_char's CC is the century), the offset as +hhmm (%z).
 */
const COMPUTED_CODES: Readonly<Record<string, (w: Fragment, at: Fragment) => Fragment>> = {
  e: (w) => sql`lpad(extract(day from ${w})::int::text, 2, ' ')`,
  k: (w) => sql`lpad(extract(hour from ${w})::int::text, 2, ' ')`,
  l: (w) => sql`lpad(to_char(${w}, 'FMHH12'), 2, ' ')`,
  w: (w) => sql`extract(dow from ${w})::int::text`,
  C: (w) => sql`lpad(floor(extract(year from ${w}) / 100)::int::text, 2, '0')`,
  z: (w, at) => {
    const offset = sql`extract(epoch from (${w} - (${at} at time zone 'UTC')))::int`;
    return sql`((case when ${offset} < 0 then '-' else '+' end) || lpad((abs(${offset}) / 3600)::text, 2, '0') || lpad((abs(${offset}) % 3600 / 60)::text, 2, '0'))`;
  },
};

/** A format as to_char() patterns and computed codes, in order. */
function formatPieces(format: string): ({ pattern: string } | { code: string })[] {
  const pieces: ({ pattern: string } | { code: string })[] = [];
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
    } else if (code !== undefined && Object.hasOwn(COMPUTED_CODES, code)) {
      flush();
      if (pattern !== '') pieces.push({ pattern });
      pattern = '';
      afterCode = false;
      pieces.push({ code });
    } else {
      throw new HogQLError(code === undefined ? 'The format of formatDateTime() ends with a lone %.' : `formatDateTime() does not support the code %${code}.`);
    }
  }
  flush();
  if (pattern !== '' || pieces.length === 0) pieces.push({ pattern });
  return pieces;
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

/**
 * `sumIf(x, cond)` is `sum(if(cond, x, null))`: the aggregate skips the rows where the condition fails. uniqIf
 * counts several values together (`uniqIf(a, b, cond)`), each null where the condition fails.
 */
function conditionalAggregate(name: string, target: string, maxValues = 1): FunctionDef {
  return {
    name,
    minArgs: 2,
    maxArgs: maxValues + 1,
    compile: (c, args) => {
      if (!c.options.allowAggregates) throw new HogQLError(`Aggregate functions such as ${name}() are not allowed in ${c.options.clause}.`);
      const condition = arg(args, args.length - 1);
      const values = args.slice(0, -1).map((value): Expr => ({ kind: 'call', name: 'if', args: [condition, value, { kind: 'constant', value: null }] }));
      return c.call(target, values);
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

/** dateAdd(unit, n, t) and dateSub(unit, n, t), or dateAdd(t, interval): `t ± INTERVAL n unit`. */
function dateShift(name: string, sign: '+' | '-'): FunctionDef {
  return {
    name,
    minArgs: 2,
    maxArgs: 3,
    compile: (c, args) => {
      if (args.length === 2) {
        const interval = c.compile(arg(args, 1));
        if (interval.type !== 'interval') throw new HogQLError(`${name}(t, x) needs an interval as x, such as INTERVAL 1 DAY.`);
        const moment = c.compile(arg(args, 0));
        return c.arithmetic(sign, moment.type === 'date' || moment.type === 'datetime' ? moment : coerce(moment, 'datetime', c.scope), interval);
      }
      const unit = unitOf(arg(args, 0), name, DATE_TRUNC_UNITS) as IntervalUnit;
      const moment = c.compile(arg(args, 2));
      const at = moment.type === 'date' || moment.type === 'datetime' ? moment : coerce(moment, 'datetime', c.scope);
      return c.arithmetic(sign, at, c.compile({ kind: 'interval', amount: arg(args, 1), unit }));
    },
  };
}

const DEFINITIONS: FunctionDef[] = [
  alias('uniqExact', 'uniq', 1, Infinity),
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
      // Elements written as arrays write them (datetimes as the response does), tuples keeping their items' types.
      const element = value.type === 'json' ? v : toJsonb(value, c.scope);
      const list = arrayOf(sql`coalesce(jsonb_agg(${element}) filter (where ${v} is not null), '[]'::jsonb)`, value.type === 'null' ? 'json' : value.type, false);
      return { ...list, elementShape: shapeOf(value) };
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
  {
    name: 'toDayOfWeek',
    minArgs: 1,
    maxArgs: 3,
    compile: (c, args) => {
      // ClickHouse's modes: 0, Monday 1 to Sunday 7 (the default, PostgreSQL's isodow); 1, Monday 0 to Sunday 6;
      // 2, Sunday 0 to Saturday 6 (PostgreSQL's dow); 3, Sunday 1 to Saturday 7.
      const mode = args.length > 1 ? arg(args, 1) : null;
      if (mode && (mode.kind !== 'constant' || typeof mode.value !== 'number' || ![0, 1, 2, 3].includes(mode.value))) {
        throw new HogQLError('The mode of toDayOfWeek() must be 0, 1, 2 or 3.');
      }
      const zoneName = args.length > 2 ? timezoneName(arg(args, 2), 'toDayOfWeek') : undefined;
      const at = coerce(c.compile(arg(args, 0)), 'datetime', zoneName ? { timezone: zoneName } : c.scope);
      const wall = sql`(${at.sql} at time zone ${zoneName ? param(zoneName, 'text') : wallClockZone(at, c.scope)})`;
      const day = [sql`extract(isodow from ${wall})`, sql`(extract(isodow from ${wall}) - 1)`, sql`extract(dow from ${wall})`, sql`(extract(dow from ${wall}) + 1)`][
        (mode?.value as number | undefined) ?? 0
      ]!;
      return typed(sql`${day}::bigint`, 'int', at.nullable, at.aggregate);
    },
  },
  datePart('toHour', 'hour'),
  datePart('toMinute', 'minute'),
  datePart('toSecond', 'second'),
  {
    name: 'dateTrunc',
    minArgs: 2,
    maxArgs: 3,
    compile: (c, args) => {
      // As ClickHouse: a Date for a year, quarter, month or week (weeks start on Monday), and for a Date given;
      // a DateTime for the shorter units, truncated on the wall clock of the timezone argument or the datetime's.
      const unit = unitOf(arg(args, 0), 'dateTrunc', DATE_TRUNC_UNITS);
      const value = c.compile(arg(args, 1));
      const zoneName = args.length > 2 ? timezoneName(arg(args, 2), 'dateTrunc') : undefined;
      const at = coerce(value, 'datetime', zoneName ? { timezone: zoneName } : c.scope);
      const zone = zoneName ? param(zoneName, 'text') : wallClockZone(at, c.scope);
      const truncated = sql`date_trunc(${keyword(`'${unit}'`)}, ${at.sql}, ${zone})`;
      if (value.type === 'date' || ['year', 'quarter', 'month', 'week'].includes(unit)) {
        return typed(sql`(${truncated} at time zone ${zone})::date`, 'date', at.nullable, at.aggregate);
      }
      const kept = zoneName ?? at.zone;
      return { ...typed(truncated, 'datetime', at.nullable, at.aggregate), ...(kept ? { zone: kept } : {}) };
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
      const wall = sql`(${at.sql} at time zone ${zone})`;
      const parts = formatPieces(format.value).map((piece) =>
        'code' in piece ? COMPUTED_CODES[piece.code]!(wall, at.sql) : sql`to_char(${wall}, ${param(piece.pattern, 'text')})`,
      );
      const text = parts.length === 1 ? parts[0]! : sql`(${join(parts, ' || ')})`;
      return typed(text, 'string', at.nullable, at.aggregate);
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
  conditionalAggregate('uniqIf', 'uniq', Infinity),
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
      // An array of known elements (range(), splitByChar(), [1, 2]) gives them in their type, not as JSON.
      const type = list.type === 'array' ? (list.element ?? 'json') : 'json';
      const rows = sql`jsonb_array_elements(${array})`;
      // Arrays of arrays hold arrays only: read as they are, since a set cannot stand inside the CASE that checks.
      const element = type === 'array' ? { ...fromJsonb(rows, type, list.elementShape), sql: rows } : fromJsonb(rows, type, list.elementShape);
      return { ...element, nullable: true, aggregate: list.aggregate };
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
