/**
 * ClickHouse's type conversions and null functions (PostHog's clickhouse/conversions.py). PostHog maps toInt,
 * toFloat, toUUID and toDecimal to accurateCastOrNull: a value that does not convert is NULL, never an error,
 * and text converts to an integer only when it is one ('1.5' is not).
 */
import type { Expr } from '../ast.js';
import type { Compiler } from '../compiler.js';
import { UUID_PATTERN } from '../../core/text.js';
import { HogQLError } from '../errors.js';
import type { FunctionDef } from '../functions.js';
import { keyword, sql, type Fragment } from '../sql.js';
import { parseIsoDateTime } from '../datetime.js';
import { coerce, timezoneName, timezoneParam, typed, unifiedType, type HogQLType, type Typed } from '../types.js';
import type { Family } from './index.js';
import { alias, arg, constantInteger, derived, pattern, scalar } from './common.js';

const INTEGER_TEXT = '^[-+]{0,1}[0-9]+$';

/** A value as Int64, or NULL: text (and a property's text) only when it is an integer. */
function integerOrNull(c: Compiler, expr: Expr): Typed {
  const value = c.compile(expr);
  if (value.type === 'string' || value.type === 'json') {
    const text = coerce(value, 'string', c.scope);
    const body = sql`(case when ${text.sql} ~ ${pattern(INTEGER_TEXT)} and char_length(${text.sql}) <= 40 then hogql_trunc_int((${text.sql})::numeric) end)`;
    return derived(body, 'int', [text], true);
  }
  if (value.type === 'null') return coerce(value, 'int', c.scope);
  const converted = coerce(value, 'int', c.scope);
  return { ...converted, constant: undefined, jsonPath: undefined };
}

/** A value as Float64, or NULL: a constant text that is not a number too (coerce() refuses it). */
function floatOrNull(c: Compiler, expr: Expr): Typed {
  const value = c.compile(expr);
  if (typeof value.constant === 'string' && !/^\s*[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d{1,4})?\s*$/.test(value.constant)) {
    return typed(keyword('null::numeric'), 'float', true, value.aggregate);
  }
  const converted = coerce(value, 'float', c.scope);
  return { ...converted, jsonPath: undefined };
}

/** A conversion that answers `fallback` where the value does not convert. */
function orDefault(name: string, convert: (c: Compiler, expr: Expr) => Typed, type: HogQLType, maxArgs = 1): FunctionDef {
  return {
    name,
    minArgs: 1,
    maxArgs,
    compile: (c, args) => {
      const value = convert(c, arg(args, 0));
      const fallback = args.length > 1 ? coerce(c.compile(arg(args, 1)), type, c.scope) : typed(keyword('0'), type, false);
      return derived(sql`coalesce(${value.sql}, ${fallback.sql})`, type, [value, fallback], fallback.nullable);
    },
  };
}

/** Text as a UUID, or NULL. */
function uuidOrNull(c: Compiler, expr: Expr): Typed {
  const value = c.compile(expr);
  if (value.type === 'uuid' || value.type === 'null') return coerce(value, 'uuid', c.scope);
  if (typeof value.constant === 'string') {
    if (UUID_PATTERN.test(value.constant)) return coerce(value, 'uuid', c.scope);
    return typed(keyword('null::uuid'), 'uuid', true, value.aggregate);
  }
  const text = coerce(value, 'string', c.scope);
  const body = sql`(case when ${text.sql} ~* ${pattern('^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$')} then (${text.sql})::uuid end)`;
  return derived(body, 'uuid', [text], true);
}

/** The value ClickHouse's assumeNotNull() gives a NULL of each type: the type's default. */
const DEFAULTS: Partial<Record<HogQLType, string>> = {
  string: "''",
  int: '0',
  float: '0',
  boolean: 'false',
  datetime: "'1970-01-01T00:00:00Z'::timestamptz",
  date: "'1970-01-01'::date",
  uuid: "'00000000-0000-0000-0000-000000000000'::uuid",
  array: "'[]'::jsonb",
};

function toJSONString(c: Compiler, args: readonly Expr[]): Typed {
  const value = c.compile(arg(args, 0));
  const quoted = (text: Fragment) => sql`replace(to_json(${text})::text, '/', ${pattern('\\/')})`;
  let body: Fragment;
  switch (value.type) {
    case 'null':
      return typed(keyword("'null'"), 'string', false);
    case 'int':
    case 'float':
      body = sql`(${value.sql})::numeric::text`;
      break;
    case 'boolean':
      body = sql`(${value.sql})::text`;
      break;
    case 'array':
      throw new HogQLError("toJSONString() of an array is not supported: PostgreSQL writes JSON with spaces where ClickHouse writes none.");
    default:
      // Text, and a property (a String in PostHog's events table), is a JSON string; so is a date or a time.
      body = quoted(coerce(value, 'string', c.scope).sql);
  }
  return derived(sql`coalesce(${body}, 'null')`, 'string', [value], false);
}

/**
 * The text forms of ClickHouse's best-effort parsing that are read here, exactly as it reads them: ISO 8601 (a
 * date, a date and time, with or without an offset; one without is read on the wall clock of the timezone) and
 * Unix seconds of 9 or 10 digits. ClickHouse reads more (RFC 2822, month names, "YYYYMMDD", "DD/MM/YYYY"…); a
 * constant in such a form is refused, and such a value at run time is NULL.
 */
const BEST_EFFORT_UNIX = /^\s*[0-9]{9,10}\s*$/;
const BEST_EFFORT_TEXT = '^\\s*([0-9]{9,10}|[0-9]{4}-[0-9]{2}-[0-9]{2}([T ].*)?)\\s*$';

/** A datetime cut to `digits` decimals of a second, as ClickHouse's DateTime64(digits) keeps it (DateTime: 0). */
function cutSeconds(at: Fragment, digits: number): Fragment {
  if (digits >= 6) return at;
  const scale = keyword(String(10 ** digits));
  const seconds = sql`extract(epoch from ${at})`;
  return sql`(${at} - ((${seconds} * ${scale} - floor(${seconds} * ${scale})) / ${scale}) * interval '1 second')`;
}

/**
 * parseDateTimeBestEffort and its family: text to a datetime, with a timezone as the last argument (and before it
 * the precision, for the DateTime64 ones). PostHog runs parseDateTimeBestEffort as
 * parseDateTime64BestEffortOrNull: NULL for text that is not a datetime, milliseconds kept.
 */
function bestEffort(name: string, options: { precision: boolean; fallback: 'null' | 'zero' | 'error'; digits: number }): FunctionDef {
  return {
    name,
    minArgs: 1,
    maxArgs: options.precision ? 3 : 2,
    compile: (c, args) => {
      let digits = options.digits;
      if (options.precision && args.length > 1) {
        digits = constantInteger(arg(args, 1), `The precision of ${name}()`);
        if (digits < 0 || digits > 9) throw new HogQLError(`The precision of ${name}() must be from 0 to 9.`);
      }
      const zoneIndex = options.precision ? 2 : 1;
      const zone = args.length > zoneIndex ? timezoneName(arg(args, zoneIndex), name) : undefined;
      const scope = zone ? { ...c.scope, timezone: zone } : c.scope;
      const value = c.compile(arg(args, 0));
      let at: Typed;
      if (value.type === 'datetime' || value.type === 'date') {
        at = coerce(value, 'datetime', scope);
      } else {
        const text = coerce(value, 'string', scope);
        if (typeof text.constant === 'string' && !parseIsoDateTime(text.constant) && !BEST_EFFORT_UNIX.test(text.constant)) {
          if (/[0-9]/.test(text.constant)) {
            throw new HogQLError(`${name}() reads ISO 8601 text and Unix seconds here, not "${text.constant}": ClickHouse reads other forms by rules Hedgerow does not reproduce exactly.`);
          }
          if (options.fallback === 'error') throw new HogQLError(`${name}() cannot read "${text.constant}" as a datetime; ${name}OrNull() answers NULL for it.`);
        }
        const body = sql`(case when ${text.sql} ~ ${pattern(BEST_EFFORT_TEXT)} then hogql_to_datetime(${text.sql}, ${timezoneParam(scope)}) end)`;
        at = derived(body, 'datetime', [text], true);
      }
      let result = cutSeconds(at.sql, digits);
      if (options.fallback === 'zero') result = sql`coalesce(${result}, to_timestamp(0))`;
      const typedResult = derived(result, 'datetime', [at], options.fallback === 'zero' ? false : at.nullable);
      return zone ? { ...typedResult, zone } : typedResult;
    },
  };
}

const DEFINITIONS: FunctionDef[] = [
  {
    name: 'hex',
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => {
      const value = c.compile(arg(args, 0));
      if (value.type === 'int' || value.type === 'boolean') {
        // An integer's bytes, most significant first, without leading zero bytes: 255 is FF, 256 is 0100.
        const n = coerce(value, 'int', c.scope);
        const digits = sql`upper(to_hex(${n.sql}))`;
        return derived(sql`(case when char_length(${digits}) % 2 = 1 then '0' || ${digits} else ${digits} end)`, 'string', [n]);
      }
      if (value.type === 'float') throw new HogQLError("hex() of a Float64 writes its IEEE bytes, which Hedgerow's exact numbers do not have; convert it with toInt() or toString() first.");
      const text = coerce(value, 'string', c.scope);
      return derived(sql`upper(encode(convert_to(${text.sql}, 'UTF8'), 'hex'))`, 'string', [text]);
    },
  },
  // Text whose digits are not hex, or whose bytes are not UTF-8, is NULL.
  scalar('unhex', ['string'], 'string', ([text]) => sql`hogql_unhex(${text})`, { nullable: true }),
  orDefault('toIntOrZero', integerOrNull, 'int'),
  orDefault('toFloatOrZero', floatOrNull, 'float'),
  orDefault('toFloatOrDefault', floatOrNull, 'float', 2),
  {
    name: 'toDecimal',
    minArgs: 2,
    maxArgs: 2,
    compile: (c, args) => {
      // Decimal64(S): S decimal places, the rest cut off (toward zero), 18 digits at most.
      const scale = constantInteger(arg(args, 1), 'The scale of toDecimal()');
      if (scale < 0 || scale > 18) throw new HogQLError('The scale of toDecimal() must be from 0 to 18.');
      const value = floatOrNull(c, arg(args, 0));
      const cut = sql`trunc((${value.sql})::numeric, ${keyword(String(scale))})`;
      return derived(sql`(case when abs(${cut}) < 1e18 then ${cut} end)`, 'float', [value], true);
    },
  },
  {
    name: 'toUUIDOrDefault',
    minArgs: 2,
    maxArgs: 2,
    compile: (c, args) => {
      const value = uuidOrNull(c, arg(args, 0));
      const fallback = uuidOrNull(c, arg(args, 1));
      return derived(sql`coalesce(${value.sql}, ${fallback.sql})`, 'uuid', [value, fallback], fallback.nullable);
    },
  },
  {
    name: 'toNullableString',
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => ({ ...coerce(c.compile(arg(args, 0)), 'string', c.scope), nullable: true }),
  },
  {
    name: 'toBool',
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => coerce(c.compile(arg(args, 0)), 'boolean', c.scope),
  },
  { name: 'toJSONString', minArgs: 1, maxArgs: 1, compile: toJSONString },
  bestEffort('parseDateTimeBestEffort', { precision: false, fallback: 'null', digits: 3 }),
  bestEffort('parseDateTimeBestEffortOrNull', { precision: false, fallback: 'null', digits: 0 }),
  bestEffort('parseDateTimeBestEffortOrZero', { precision: false, fallback: 'zero', digits: 0 }),
  bestEffort('parseDateTime64BestEffort', { precision: true, fallback: 'error', digits: 3 }),
  bestEffort('parseDateTime64BestEffortOrNull', { precision: true, fallback: 'null', digits: 3 }),
  bestEffort('parseDateTime64BestEffortOrZero', { precision: true, fallback: 'zero', digits: 3 }),
  {
    name: 'toDateTime64',
    minArgs: 1,
    maxArgs: 3,
    compile: (c, args) => {
      // Microseconds are kept whatever the precision asked for; a timezone sets where the wall clock is read.
      if (args.length > 1) constantInteger(arg(args, 1), 'The precision of toDateTime64()');
      const at = c.call('toDateTime', [arg(args, 0)]);
      return args.length > 2 ? c.call('toTimeZone', [arg(args, 0), arg(args, 2)]) : at;
    },
  },
  alias('to_date', 'toDate', 1, 1),
  {
    name: 'UUIDv7ToDateTime',
    minArgs: 1,
    maxArgs: 2,
    compile: (c, args) => {
      if (args.length > 1) throw new HogQLError('UUIDv7ToDateTime() takes the UUID only here; convert the result with toTimeZone().');
      const id = uuidOrNull(c, arg(args, 0));
      const hex = sql`replace((${id.sql})::text, '-', '')`;
      // The first 48 bits of a version 7 UUID are its Unix milliseconds; any other version is the epoch.
      const millis = sql`('x' || substr(${hex}, 1, 12))::bit(48)::bigint`;
      const body = sql`(case when substr(${hex}, 13, 1) = '7' then to_timestamp(${millis} / 1000.0) else to_timestamp(0) end)`;
      return derived(body, 'datetime', [id]);
    },
  },
  {
    name: 'nullIf',
    minArgs: 2,
    maxArgs: 2,
    compile: (c, args) => {
      const values = [c.compile(arg(args, 0)), c.compile(arg(args, 1))];
      const unified = unifiedType(values);
      const type: HogQLType = unified === 'json' ? 'string' : unified === 'null' ? 'string' : unified;
      const [value, other] = values.map((item) => coerce(item, type, c.scope)) as [Typed, Typed];
      return derived(sql`nullif(${value.sql}, ${other.sql})`, type, [value, other], true);
    },
  },
  {
    name: 'assumeNotNull',
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => {
      const value = c.compile(arg(args, 0));
      if (value.type === 'json') {
        // A property is a Nullable(String) in PostHog's events table: a missing one is ''.
        return derived(sql`coalesce(nullif(${value.sql}, 'null'::jsonb), '""'::jsonb)`, 'json', [value], false);
      }
      if (value.type === 'null') return typed(keyword("''"), 'string', false, false);
      const fallback = DEFAULTS[value.type];
      if (!fallback) return value;
      return { ...derived(sql`coalesce(${value.sql}, ${keyword(fallback)})`, value.type, [value], false), element: value.element, zone: value.zone };
    },
  },
  { name: 'toNullable', minArgs: 1, maxArgs: 1, compile: (c, args) => ({ ...c.compile(arg(args, 0)), nullable: true }) },
];

/** The corrections of functions defined before the library (functions.ts). */
export const CONVERSION_CORRECTIONS = {
  toInt: { name: 'toInt', minArgs: 1, maxArgs: 1, compile: (c, args) => integerOrNull(c, arg(args, 0)) } satisfies FunctionDef,
  toFloat: { name: 'toFloat', minArgs: 1, maxArgs: 1, compile: (c, args) => floatOrNull(c, arg(args, 0)) } satisfies FunctionDef,
  toUUID: { name: 'toUUID', minArgs: 1, maxArgs: 1, compile: (c, args) => uuidOrNull(c, arg(args, 0)) } satisfies FunctionDef,
};

const REINTERPRET = "It reads the bytes of ClickHouse's in-memory representation of a value, which Hedgerow's values do not have.";

export const CONVERSIONS: Family = {
  title: 'Conversions and nulls',
  definitions: DEFINITIONS,
  unavailable: {
    ...Object.fromEntries(
      ['UInt8', 'UInt16', 'UInt32', 'UInt64', 'UInt128', 'UInt256', 'Int8', 'Int16', 'Int32', 'Int64', 'Int128', 'Int256', 'Float32', 'Float64', 'UUID'].map(
        (type) => [`reinterpretAs${type}`, REINTERPRET],
      ),
    ),
    parseDateTime:
      'It reads text by a MySQL-style format exactly as ClickHouse does, which PostgreSQL\'s to_timestamp() does not (it is lenient); use toDateTime() for ISO 8601 text.',
    toDateTimeUS: 'It reads ambiguous dates month first, which PostgreSQL\'s parser does not do exactly as ClickHouse; use toDateTime() for ISO 8601 text.',
    toTypeName: "It names ClickHouse's types (Nullable(String), DateTime64(6, 'UTC')…), which Hedgerow's values do not have.",
    cityHash64: 'ClickHouse defines this hash bit for bit, and PostgreSQL has no implementation that gives the same numbers.',
  },
};
