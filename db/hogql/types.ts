/**
 * Types of compiled HogQL values and the conversions between them. Conversions that can fail on stored data
 * (a property that is not a number, not a date) go through the `hogql_*` SQL functions of migration
 * 20261121140000_create_hogql_functions, which answer NULL instead of raising an error.
 */
import { ExactInteger, exactInteger } from '../core/exact-json.js';
import { UUID_PATTERN } from '../core/text.js';
import type { ConstantValue, Expr } from './ast.js';
import { parseIsoDateTime } from './datetime.js';
import { HogQLError } from './errors.js';
import { keyword, param, sql, type Fragment } from './sql.js';

/**
 * `json` is a value read from a JSON document (`properties.x`), whose type is only known per row; `float` is SQL
 * numeric (exact, never overflows); `int` is bigint; `array` is a jsonb array (ClickHouse's Array and Tuple: jsonb
 * nests, keeps each element's own type and counts from 1 as `->` is given it), its elements' type in `element`.
 */
export type HogQLType = 'string' | 'int' | 'float' | 'boolean' | 'datetime' | 'date' | 'uuid' | 'json' | 'null' | 'interval' | 'array';

export interface Typed {
  sql: Fragment;
  type: HogQLType;
  nullable: boolean;
  /** Contains an aggregate function. */
  aggregate: boolean;
  /** The literal, when the value is one. */
  constant?: ConstantValue;
  /** For JSON read by a path: the document and the keys, so that the text of the value reads with `->>`. */
  jsonPath?: { document: Fragment; keys: (string | number)[] };
  /** A datetime given a timezone by toTimeZone(): its wall clock (toHour, formatDateTime, …) is read there. */
  zone?: string;
  /** An interval of whole days, weeks, months, quarters or years: a Date it moves stays a Date. */
  calendarDays?: boolean;
  /** An array's elements' type: `json` when they are only known per row (a property holding a list). */
  element?: HogQLType;
  /** Whether an array's elements may be null (ClickHouse's Array(Nullable(T))): a missing element is then null. */
  elementNullable?: boolean;
  /** A tuple's items' types, by position (a tuple is a jsonb array too). */
  tupleTypes?: readonly HogQLType[];
  /** For a tuple of arrays: what each item holds, by position, where known. */
  tupleShapes?: readonly (ArrayShape | undefined)[];
  /** For an array of arrays (or of tuples): what its elements hold. */
  elementShape?: ArrayShape;
}

/** What an array holds, as a Typed of type `array` describes it. */
export interface ArrayShape {
  element?: HogQLType;
  elementNullable?: boolean;
  tupleTypes?: readonly HogQLType[];
  elementShape?: ArrayShape;
  tupleShapes?: readonly (ArrayShape | undefined)[];
}

/** The shape of an array value, for the arrays holding it. */
export function shapeOf(value: Typed): ArrayShape | undefined {
  if (value.type !== 'array') return undefined;
  return { element: value.element, elementNullable: value.elementNullable, tupleTypes: value.tupleTypes, tupleShapes: value.tupleShapes, elementShape: value.elementShape };
}

/** What conversions need to know about the query. */
export interface Scope {
  /** The project's timezone: days, weeks and wall-clock times are read in it. */
  timezone: string;
  /**
   * The environment the statement reads, when it is one: subqueries of other tables are pinned to it, so that a
   * distributed PostgreSQL (Citus) runs them on the node of the environment.
   */
  teamId?: number;
}

export const TYPE_NAMES: Readonly<Record<HogQLType, string>> = {
  string: 'String',
  int: 'Integer',
  float: 'Float',
  boolean: 'Boolean',
  datetime: 'DateTime',
  date: 'Date',
  uuid: 'UUID',
  json: 'JSON',
  null: 'Null',
  interval: 'Interval',
  array: 'Array',
};


export function typed(fragment: Fragment, type: HogQLType, nullable: boolean, aggregate = false): Typed {
  return { sql: fragment, type, nullable, aggregate };
}

/** A jsonb array of elements of `element`. */
export function arrayOf(fragment: Fragment, element: HogQLType, nullable: boolean, aggregate = false): Typed {
  return { ...typed(fragment, 'array', nullable, aggregate), element };
}

export function timezoneParam(scope: Scope): Fragment {
  return param(scope.timezone, 'text');
}

/** Where a datetime's wall clock (its hours, days, months) is read: the zone toTimeZone() gave it, or the project's. */
export function wallClockZone(value: Typed, scope: Scope): Fragment {
  return value.zone ? param(value.zone, 'text') : timezoneParam(scope);
}

/** A timezone name constant, checked against the IANA names the runtime knows, so that PostgreSQL never refuses it. */
export function timezoneName(expr: Expr, fn: string): string {
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

/** A literal as a typed parameter. */
export function constant(value: ConstantValue): Typed {
  if (value === null) return { sql: keyword('null'), type: 'null', nullable: true, aggregate: false, constant: null };
  if (typeof value === 'boolean') return { ...typed(param(value, 'boolean'), 'boolean', false), constant: value };
  if (typeof value === 'number') {
    const isInt = Number.isSafeInteger(value);
    return { ...typed(param(value, isInt ? 'bigint' : 'numeric'), isInt ? 'int' : 'float', false), constant: value };
  }
  return { ...typed(param(value, 'text'), 'string', false), constant: value };
}

function unconvertible(from: Typed, to: HogQLType): never {
  const what = typeof from.constant === 'string' ? `'${from.constant}'` : `a ${TYPE_NAMES[from.type]}`;
  throw new HogQLError(`Cannot convert ${what} to ${TYPE_NAMES[to]}.`);
}

/** Text of a JSON value: strings without quotes, other values as JSON, JSON null as NULL. */
function jsonText(value: Typed): Fragment {
  const path = value.jsonPath;
  if (path && path.keys.length > 0) {
    let document = path.document;
    path.keys.slice(0, -1).forEach((key) => {
      document = sql`(${document} -> ${jsonKey(key)})`;
    });
    return sql`(${document} ->> ${jsonKey(path.keys[path.keys.length - 1]!)})`;
  }
  return sql`(${value.sql} #>> '{}')`;
}

/** A JSON object key, or an array position counted from 1 (negative from the end), as ClickHouse counts. */
export function jsonKey(key: string | number): Fragment {
  if (typeof key === 'string') return param(key, 'text');
  return param(key > 0 ? key - 1 : key === 0 ? 2 ** 31 - 1 : key, 'int');
}

const DATETIME_OUTPUT = 'hogql_format_datetime';

/** Types a JSON value is kept beside, rather than converted to: each of their values has a JSON form. */
const JSON_COMPATIBLE: readonly HogQLType[] = ['int', 'float', 'string', 'boolean'];

/** Converts `value` to `target`, or throws a HogQLError when the types do not convert. */
export function coerce(value: Typed, target: HogQLType, scope: Scope): Typed {
  if (value.type === target) return value;
  const keep = (fragment: Fragment, nullable = value.nullable): Typed => ({
    sql: fragment,
    type: target,
    nullable,
    aggregate: value.aggregate,
  });
  if (value.type === 'null') {
    const casts: Partial<Record<HogQLType, string>> = {
      string: 'text',
      int: 'bigint',
      float: 'numeric',
      boolean: 'boolean',
      datetime: 'timestamptz',
      date: 'date',
      uuid: 'uuid',
      json: 'jsonb',
      interval: 'interval',
      array: 'jsonb',
    };
    return { ...keep(keyword(`null::${casts[target]!}`), true), constant: null };
  }
  const c = value.constant;
  switch (target) {
    case 'string':
      switch (value.type) {
        case 'json':
          return keep(jsonText(value), true);
        case 'float':
          // Without the zeros an exact number keeps after its last digit (10 / 4 is 2.5000000000000000 in
          // PostgreSQL's numeric): ClickHouse writes a Float64 as 2.5.
          return keep(sql`trim_scale((${value.sql})::numeric)::text`);
        case 'int':
        case 'boolean':
        case 'uuid':
          return keep(sql`(${value.sql})::text`);
        case 'datetime':
          return keep(sql`${keyword(DATETIME_OUTPUT)}(${value.sql})`);
        case 'date':
          return keep(sql`to_char(${value.sql}, 'YYYY-MM-DD')`);
        case 'array':
          return keep(arrayText(value.sql, value.tupleTypes ? '()' : '[]', 0));
        default:
          return unconvertible(value, target);
      }
    case 'float':
      switch (value.type) {
        case 'int':
          return keep(sql`(${value.sql})::numeric`);
        case 'json':
          return keep(sql`hogql_to_number(${value.sql})`, true);
        case 'string':
          if (typeof c === 'string') {
            if (!/^\s*[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d{1,4})?\s*$/.test(c) || c.length > 100) unconvertible(value, target);
            return { ...keep(param(c.trim(), 'numeric')), constant: Number(c) };
          }
          return keep(sql`hogql_to_number(${value.sql})`, true);
        case 'boolean':
          return keep(sql`(${value.sql})::int::numeric`);
        case 'datetime':
          return keep(sql`extract(epoch from ${value.sql})`);
        default:
          return unconvertible(value, target);
      }
    case 'int':
      switch (value.type) {
        case 'float':
          return keep(sql`hogql_trunc_int(${value.sql})`, true);
        case 'json':
        case 'string':
          return keep(sql`hogql_trunc_int(${coerce(value, 'float', scope).sql})`, true);
        case 'boolean':
          return keep(sql`(${value.sql})::int::bigint`);
        case 'datetime':
          return keep(sql`floor(extract(epoch from ${value.sql}))::bigint`);
        case 'date':
          return keep(sql`(${value.sql} - date '1970-01-01')::bigint`);
        default:
          return unconvertible(value, target);
      }
    case 'boolean':
      switch (value.type) {
        case 'json':
          return keep(sql`hogql_to_bool(${value.sql})`, true);
        case 'string':
          if (typeof c === 'string') {
            const word = c.trim().toLowerCase();
            if (!['true', 'false', '1', '0'].includes(word)) unconvertible(value, target);
            const truth = word === 'true' || word === '1';
            return { ...keep(param(truth, 'boolean')), constant: truth };
          }
          return keep(sql`hogql_to_bool(${value.sql})`, true);
        case 'int':
        case 'float':
          return keep(sql`((${value.sql}) <> 0)`);
        default:
          return unconvertible(value, target);
      }
    case 'datetime':
      switch (value.type) {
        case 'date':
          return keep(sql`((${value.sql})::timestamp at time zone ${timezoneParam(scope)})`);
        case 'string':
          if (typeof c === 'string') return keep(datetimeConstant(c, scope) ?? unconvertible(value, target));
          return keep(sql`hogql_to_datetime(${value.sql}, ${timezoneParam(scope)})`, true);
        case 'json':
          return keep(sql`hogql_to_datetime(${value.sql}, ${timezoneParam(scope)})`, true);
        case 'int':
        case 'float':
          return keep(sql`hogql_epoch_to_datetime((${value.sql})::numeric)`, true);
        default:
          return unconvertible(value, target);
      }
    case 'date':
      switch (value.type) {
        case 'datetime':
          return keep(sql`((${value.sql}) at time zone ${wallClockZone(value, scope)})::date`);
        case 'string':
          if (typeof c === 'string') {
            const parsed = parseIsoDateTime(c);
            if (parsed?.kind === 'date') return keep(param(parsed.text, 'date'));
            const instant = datetimeConstant(c, scope) ?? unconvertible(value, target);
            return keep(sql`(${instant} at time zone ${timezoneParam(scope)})::date`);
          }
          return keep(sql`hogql_to_date(${value.sql}, ${timezoneParam(scope)})`, true);
        case 'json':
          return keep(sql`hogql_to_date(${value.sql}, ${timezoneParam(scope)})`, true);
        default:
          return unconvertible(value, target);
      }
    case 'uuid':
      if (value.type === 'string' && typeof c === 'string' && UUID_PATTERN.test(c)) return keep(param(c.toLowerCase(), 'uuid'));
      return unconvertible(value, target);
    case 'json':
      if (JSON_COMPATIBLE.includes(value.type)) return keep(sql`to_jsonb(${value.sql})`);
      if (value.type === 'array') return keep(value.sql);
      return unconvertible(value, target);
    case 'array':
      // A JSON value is an array where it holds one, null elsewhere.
      if (value.type === 'json') return { ...keep(sql`(case when jsonb_typeof(${value.sql}) = 'array' then ${value.sql} end)`, true), element: 'json' };
      return unconvertible(value, target);
    default:
      return unconvertible(value, target);
  }
}

/** How deep toString() writes nested arrays element by element; deeper ones are written as their JSON. */
const ARRAY_TEXT_DEPTH = 3;

/**
 * An array as ClickHouse writes it: `['a','b']`, `[1,2]`, `[[1],[]]`, `[NULL]`, a tuple in parentheses; quotes
 * and backslashes inside strings escaped with a backslash.
 */
function arrayText(array: Fragment, brackets: '[]' | '()', depth: number): Fragment {
  const row = keyword(`hogql_t${depth}`);
  const item = sql`${row}.v`;
  const nested = depth + 1 < ARRAY_TEXT_DEPTH ? arrayText(item, '[]', depth + 1) : sql`(${item})::text`;
  const itemText = sql`(case jsonb_typeof(${item}) when 'string' then '''' || replace(replace(${item} #>> '{}', '\\', '\\\\'), '''', '\\''') || '''' when 'null' then 'NULL' when 'array' then ${nested} else (${item})::text end)`;
  const [open, close] = brackets === '[]' ? [keyword("'['"), keyword("']'")] : [keyword("'('"), keyword("')'")];
  return sql`(select ${open} || coalesce(string_agg(${itemText}, ',' order by ${row}.n), '') || ${close} from jsonb_array_elements(${array}) with ordinality ${row}(v, n))`;
}

/** A datetime literal: an ISO 8601 text with an offset, or a wall-clock one read in the project's timezone. */
export function datetimeConstant(text: string, scope: Scope): Fragment | null {
  const parsed = parseIsoDateTime(text);
  if (!parsed) return null;
  if (parsed.kind === 'instant') return param(parsed.text, 'timestamptz');
  return sql`(${param(parsed.text, 'timestamp')} at time zone ${timezoneParam(scope)})`;
}

const NUMERIC: readonly HogQLType[] = ['int', 'float'];

/** The type two values are compared in, or null when they cannot be compared. */
export function comparisonType(left: Typed, right: Typed, ordering: boolean): HogQLType | null {
  const a = left.type;
  const b = right.type;
  if (a === 'null') return b === 'null' ? 'string' : b;
  if (b === 'null') return a;
  if (a === b) return a === 'json' ? (ordering ? 'float' : 'string') : a;
  // A JSON value is read as the other side's type; numbers as exact numerics, never truncated.
  if (a === 'json') return b === 'interval' ? null : b === 'int' ? 'float' : b;
  if (b === 'json') return a === 'interval' ? null : a === 'int' ? 'float' : a;
  if (NUMERIC.includes(a) && NUMERIC.includes(b)) return 'float';
  const pair = new Set<HogQLType>([a, b]);
  const has = (x: HogQLType, y: HogQLType) => pair.has(x) && pair.has(y);
  if (has('string', 'int') || has('string', 'float')) return 'float';
  if (has('string', 'datetime') || has('date', 'datetime')) return 'datetime';
  if (has('string', 'date')) return 'date';
  if (has('string', 'boolean')) return 'boolean';
  if (has('boolean', 'int') || has('boolean', 'float')) return 'float';
  if (has('string', 'uuid')) {
    const text = a === 'string' ? left.constant : right.constant;
    return typeof text === 'string' && UUID_PATTERN.test(text) ? 'uuid' : 'string';
  }
  return null;
}

/**
 * The one type several values (branches of `if`, arguments of `coalesce`) are brought to. A property (JSON)
 * beside numbers, text or booleans stays JSON, the others becoming JSON too: `coalesce(properties.price, 0)`
 * is the price as stored (9.5, or "Firefox" for a text), not the price converted to the literal's type.
 * Beside a datetime, date or uuid, the property is read as one.
 */
export function unifiedType(values: readonly Typed[]): HogQLType {
  const types = new Set(values.map((value) => value.type).filter((type) => type !== 'null'));
  if (types.size === 0) return 'null';
  if (types.size === 1) return [...types][0]!;
  const scalar = [...types].filter((type) => type !== 'json');
  if (types.has('json') && scalar.every((type) => JSON_COMPATIBLE.includes(type))) return 'json';
  if (scalar.length === 1) return scalar[0]!;
  if (scalar.every((type) => NUMERIC.includes(type))) return 'float';
  // A Bool is a UInt8 to ClickHouse: beside numbers it is the number 0 or 1 (ifNull(10, true) is 10).
  if (scalar.every((type) => NUMERIC.includes(type) || type === 'boolean')) return scalar.includes('float') ? 'float' : 'int';
  return 'string';
}

/** A value as the response shows it: datetimes and dates as ISO 8601 text, numbers converted in code. */
export function outputColumn(value: Typed): Fragment {
  switch (value.type) {
    case 'datetime':
      return sql`${keyword(DATETIME_OUTPUT)}(${value.sql})`;
    case 'date':
      return sql`to_char(${value.sql}, 'YYYY-MM-DD')`;
    case 'uuid':
    case 'interval':
      return sql`(${value.sql})::text`;
    default:
      return value.sql;
  }
}

/** Converts a driver value of a column of `type` to its JSON value. */
export function outputValue(type: HogQLType, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (type === 'int' || type === 'float') {
    if (typeof value === 'number' || value instanceof ExactInteger) return value;
    // PostgreSQL's bigint and numeric arrive as text: an integer beyond 2^53 stays exact, as in PostHog.
    return (type === 'int' && typeof value === 'string' && exactInteger(value)) || Number(value);
  }
  return value;
}
