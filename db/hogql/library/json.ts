/**
 * ClickHouse's JSON functions on text documents (PostHog's clickhouse/json.py), beside JSONExtractString, Int,
 * Float, Bool and Raw (select/functions.ts). A document is JSON text, as in ClickHouse; a property holding an
 * object or a list is read as it is. A path is keys (strings) and places in a list (integers from 1, negative
 * from the end). Functions that list keys read the text as `json`, which keeps the document's order of keys
 * (`jsonb` sorts them).
 */
import type { Expr } from '../ast.js';
import type { Compiler } from '../compiler.js';
import { HogQLError } from '../errors.js';
import type { FunctionDef } from '../functions.js';
import { keyword, param, sql, type Fragment } from '../sql.js';
import { coerce, jsonKey, typed, type HogQLType, type Typed } from '../types.js';
import type { Family } from './index.js';
import { arg, constantText, pattern } from './common.js';

function pathKeys(args: readonly Expr[], fn: string): (string | number)[] {
  return args.map((key) => {
    if (key.kind === 'constant' && (typeof key.value === 'string' || Number.isInteger(key.value))) return key.value as string | number;
    if (key.kind === 'negate' && key.expr.kind === 'constant' && Number.isInteger(key.expr.value)) return -(key.expr.value as number);
    throw new HogQLError(`The keys of ${fn}() must be string or integer constants.`);
  });
}

/** The value at a path of a document, as jsonb (`ordered`: as json, keeping the order of keys); NULL where there is none. */
function valueAt(c: Compiler, args: readonly Expr[], fn: string, ordered = false): { value: Fragment; source: Typed } {
  const source = c.compile(arg(args, 0));
  let value: Fragment;
  if (ordered) {
    const text = source.type === 'json' ? sql`(case when jsonb_typeof(${source.sql}) = 'string' then ${source.sql} #>> '{}' else (${source.sql})::text end)` : coerce(source, 'string', c.scope).sql;
    value = sql`(case when hogql_json_parse(${text}) is not null then (${text})::json end)`;
  } else {
    value =
      source.type === 'json'
        ? sql`(case when jsonb_typeof(${source.sql}) = 'string' then hogql_json_parse(${source.sql} #>> '{}') else ${source.sql} end)`
        : sql`hogql_json_parse(${coerce(source, 'string', c.scope).sql})`;
  }
  for (const key of pathKeys(args.slice(1), fn)) value = sql`(${value} -> ${jsonKey(key)})`;
  return { value, source };
}

/**
 * A result for a NULL document (a missing property, or one holding JSON null): NULL, as ClickHouse's functions
 * of a Nullable argument answer, rather than the type's zero.
 */
export function forDocument(source: Typed, result: Fragment): { sql: Fragment; nullable: boolean } {
  if (!source.nullable && source.type !== 'json') return { sql: result, nullable: false };
  const missing = source.type === 'json' ? sql`coalesce(jsonb_typeof(${source.sql}), 'null') = 'null'` : sql`${source.sql} is null`;
  return { sql: sql`(case when ${missing} then null else ${result} end)`, nullable: true };
}

/** A typed result of a document, NULL for a NULL one. */
function ofDocument(source: Typed, result: Fragment, type: HogQLType, element?: HogQLType): Typed {
  const guarded = forDocument(source, result);
  const value = typed(guarded.sql, type, guarded.nullable, source.aggregate);
  return element ? { ...value, element } : value;
}

function jsonFunction(name: string, type: HogQLType, build: (value: Fragment) => Fragment, nullable = false): FunctionDef {
  return {
    name,
    minArgs: 1,
    maxArgs: Infinity,
    compile: (c, args) => {
      const { value, source } = valueAt(c, args, name);
      const result = ofDocument(source, build(value), type);
      return { ...result, nullable: nullable || result.nullable };
    },
  };
}

/**
 * A JSON value's text as ClickHouse's …Raw functions write it: as the document has it, without the whitespace
 * between its tokens (strings kept whole).
 */
function compactText(value: Fragment): Fragment {
  return sql`regexp_replace((${value})::text, ${pattern('("(?:[^"\\\\]|\\\\.)*")|\\s+')}, ${pattern('\\1')}, 'g')`;
}

/** ClickHouse's names of JSON value types. */
const typeName = (v: Fragment) =>
  sql`(case jsonb_typeof(${v}) when 'object' then 'Object' when 'array' then 'Array' when 'string' then 'String' when 'boolean' then 'Bool' when 'number' then (case when (${v})::text ~ '^-{0,1}[0-9]+$' then 'Int64' else 'Double' end) else 'Null' end)`;

/** A scalar JSON value converted as JSONExtract…(…, 'Type') does, NULL where it does not convert. */
interface Extraction {
  type: HogQLType;
  read(value: Fragment): Fragment;
  zero: string;
}

const INTEGER: Extraction = {
  type: 'int',
  read: (v) => sql`(case jsonb_typeof(${v}) when 'number' then hogql_trunc_int((${v})::numeric) when 'boolean' then (${v})::boolean::int::bigint end)`,
  zero: '0',
};
const UNSIGNED: Extraction = {
  type: 'int',
  read: (v) => sql`(case when jsonb_typeof(${v}) = 'number' and (${v})::numeric >= 0 then hogql_trunc_int((${v})::numeric) when jsonb_typeof(${v}) = 'boolean' then (${v})::boolean::int::bigint end)`,
  zero: '0',
};
const EXTRACTIONS: Readonly<Record<string, Extraction>> = {
  String: { type: 'string', read: (v) => sql`(case when jsonb_typeof(${v}) = 'string' then ${v} #>> '{}' end)`, zero: "''" },
  Int8: INTEGER,
  Int16: INTEGER,
  Int32: INTEGER,
  Int64: INTEGER,
  UInt8: UNSIGNED,
  UInt16: UNSIGNED,
  UInt32: UNSIGNED,
  UInt64: UNSIGNED,
  Float32: { type: 'float', read: (v) => sql`(case jsonb_typeof(${v}) when 'number' then (${v})::numeric when 'boolean' then (${v})::boolean::int::numeric end)`, zero: '0' },
  Float64: { type: 'float', read: (v) => sql`(case jsonb_typeof(${v}) when 'number' then (${v})::numeric when 'boolean' then (${v})::boolean::int::numeric end)`, zero: '0' },
  Bool: { type: 'boolean', read: (v) => sql`(case jsonb_typeof(${v}) when 'boolean' then (${v})::boolean when 'number' then (${v})::numeric <> 0 end)`, zero: 'false' },
};

/** A ClickHouse type name JSONExtract() can give: T, Nullable(T), Array(T), Array(Nullable(T)), LowCardinality(T). */
function parseTypeName(text: string): { scalar: string; nullable: boolean; array: boolean; elementNullable: boolean } | null {
  let rest = text.replace(/\s+/g, '');
  let array = false;
  let nullable = false;
  let elementNullable = false;
  const unwrap = (wrapper: string) => {
    if (rest.startsWith(`${wrapper}(`) && rest.endsWith(')')) {
      rest = rest.slice(wrapper.length + 1, -1);
      return true;
    }
    return false;
  };
  nullable = unwrap('Nullable');
  if (unwrap('Array')) {
    array = true;
    elementNullable = unwrap('Nullable');
  }
  unwrap('LowCardinality');
  if (!Object.hasOwn(EXTRACTIONS, rest)) return null;
  return { scalar: rest, nullable, array, elementNullable };
}

function jsonExtract(c: Compiler, args: readonly Expr[]): Typed {
  const typeText = constantText(arg(args, args.length - 1), 'The type of JSONExtract()');
  const parsed = parseTypeName(typeText);
  if (!parsed) throw new HogQLError(`JSONExtract() cannot give the type ${typeText}: it gives String, Int*, UInt*, Float*, Bool, and Nullable(…) or Array(…) of them.`);
  const { value, source } = valueAt(c, args.slice(0, -1), 'JSONExtract');
  const extraction = EXTRACTIONS[parsed.scalar]!;
  if (parsed.array) {
    const element = extraction.read(keyword('item.value'));
    const item = parsed.elementNullable ? element : sql`coalesce(${element}, ${keyword(extraction.zero)})`;
    const body = sql`(case when jsonb_typeof(${value}) = 'array' then (select coalesce(jsonb_agg(to_jsonb(${item}) order by item.index), '[]'::jsonb) from jsonb_array_elements(${value}) with ordinality as item(value, index)) else '[]'::jsonb end)`;
    return ofDocument(source, body, 'array', extraction.type);
  }
  const read = extraction.read(value);
  if (parsed.nullable) return typed(read, extraction.type, true, source.aggregate);
  return ofDocument(source, sql`coalesce(${read}, ${keyword(extraction.zero)})`, extraction.type);
}

/** The (key, value) pairs of the object at a path, in the document's order, each value as `read` gives it. */
function keysAndValues(c: Compiler, args: readonly Expr[], fn: string, read: ((value: Fragment) => Fragment) | null): Typed {
  const { value, source } = valueAt(c, args, fn, true);
  const pairValue = read ? read(keyword('pair.value::jsonb')) : compactText(keyword('pair.value'));
  const keep = read ? sql` where ${pairValue} is not null` : keyword('');
  const body = sql`(case when json_typeof(${value}) = 'object' then (select coalesce(jsonb_agg(jsonb_build_array(pair.key, ${pairValue}) order by pair.index), '[]'::jsonb) from json_each(${value}) with ordinality as pair(key, value, index)${keep}) else '[]'::jsonb end)`;
  return ofDocument(source, body, 'array', 'array');
}

/** A JSONPath of JSON_VALUE(): `$`, then `.key` or `[n]` (from 0), and nothing else. */
function jsonPathKeys(text: string): (string | number)[] {
  if (!/^\$(\.[A-Za-z_][A-Za-z0-9_]*|\[\d{1,9}\])*$/.test(text)) {
    throw new HogQLError('The path of JSON_VALUE() must be $ followed by .key or [n] steps.');
  }
  return [...text.matchAll(/\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]/g)].map((match) => (match[1] !== undefined ? match[1] : Number(match[2]) + 1));
}

const DEFINITIONS: FunctionDef[] = [
  {
    name: 'isValidJSON',
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => {
      const text = coerce(c.compile(arg(args, 0)), 'string', c.scope);
      return c.boolean(sql`(hogql_json_parse(${text.sql}) is not null)`, [text]);
    },
  },
  {
    name: 'JSONHas',
    minArgs: 1,
    maxArgs: Infinity,
    compile: (c, args) => {
      const { value, source } = valueAt(c, args, 'JSONHas');
      return c.boolean(sql`(${value} is not null)`, [source]);
    },
  },
  jsonFunction('JSONLength', 'int', (v) => sql`(case jsonb_typeof(${v}) when 'array' then jsonb_array_length(${v})::bigint when 'object' then (select count(*) from jsonb_object_keys(${v})) else 0 end)`),
  jsonFunction('JSONArrayLength', 'int', (v) => sql`(case when jsonb_typeof(${v}) = 'array' then jsonb_array_length(${v})::bigint end)`, true),
  jsonFunction('JSONType', 'string', typeName),
  jsonFunction('JSONExtractUInt', 'int', (v) => sql`coalesce(${UNSIGNED.read(v)}, 0)`),
  { name: 'JSONExtract', minArgs: 2, maxArgs: Infinity, compile: jsonExtract },
  {
    name: 'JSONExtractKey',
    minArgs: 1,
    maxArgs: Infinity,
    compile: (c, args) => {
      // The key under which the value at the path stands: the last key of the path, or the name of the n-th member.
      const keys = pathKeys(args.slice(1), 'JSONExtractKey');
      const last = keys[keys.length - 1];
      if (last === undefined) {
        const document = c.compile(arg(args, 0));
        return typed(keyword("''"), 'string', false, document.aggregate);
      }
      const { value: parent, source } = valueAt(c, args.slice(0, -1), 'JSONExtractKey', true);
      const index = typeof last === 'number' ? (last > 0 ? last : null) : null;
      if (typeof last === 'string') {
        return ofDocument(source, sql`(case when json_typeof(${parent}) = 'object' and (${parent} -> ${param(last, 'text')}) is not null then ${param(last, 'text')} else '' end)`, 'string');
      }
      if (index === null) throw new HogQLError('JSONExtractKey() takes a place from 1 as its last key.');
      const body = sql`coalesce((case when json_typeof(${parent}) = 'object' then (select member.key from json_each(${parent}) with ordinality as member(key, value, index) where member.index = ${param(index, 'bigint')}) end), '')`;
      return ofDocument(source, body, 'string');
    },
  },
  {
    name: 'JSONExtractKeys',
    minArgs: 1,
    maxArgs: Infinity,
    compile: (c, args) => {
      const { value, source } = valueAt(c, args, 'JSONExtractKeys', true);
      const body = sql`(case when json_typeof(${value}) = 'object' then (select coalesce(jsonb_agg(member.key order by member.index), '[]'::jsonb) from json_object_keys(${value}) with ordinality as member(key, index)) else '[]'::jsonb end)`;
      return ofDocument(source, body, 'array', 'string');
    },
  },
  {
    name: 'JSONExtractArrayRaw',
    minArgs: 1,
    maxArgs: Infinity,
    compile: (c, args) => {
      // Each element's text as the document writes it.
      const { value, source } = valueAt(c, args, 'JSONExtractArrayRaw', true);
      const body = sql`(case when json_typeof(${value}) = 'array' then (select coalesce(jsonb_agg(${compactText(keyword('item.value'))} order by item.index), '[]'::jsonb) from json_array_elements(${value}) with ordinality as item(value, index)) else '[]'::jsonb end)`;
      return ofDocument(source, body, 'array', 'string');
    },
  },
  {
    name: 'JSONExtractKeysAndValues',
    minArgs: 2,
    maxArgs: Infinity,
    compile: (c, args) => {
      const typeText = constantText(arg(args, args.length - 1), 'The type of JSONExtractKeysAndValues()');
      const parsed = parseTypeName(typeText);
      if (!parsed || parsed.array) throw new HogQLError(`JSONExtractKeysAndValues() cannot give values of the type ${typeText}: it gives String, Int*, UInt*, Float*, Bool and Nullable(…) of them.`);
      const extraction = EXTRACTIONS[parsed.scalar]!;
      // Members whose value is not of the type are left out, as ClickHouse does.
      const read = (v: Fragment) => sql`to_jsonb(${extraction.read(v)})`;
      return keysAndValues(c, args.slice(0, -1), 'JSONExtractKeysAndValues', read);
    },
  },
  {
    name: 'JSONExtractKeysAndValuesRaw',
    minArgs: 1,
    maxArgs: Infinity,
    compile: (c, args) => keysAndValues(c, args, 'JSONExtractKeysAndValuesRaw', null),
  },
  {
    name: 'JSON_VALUE',
    minArgs: 2,
    maxArgs: 2,
    compile: (c, args) => {
      // A scalar's text (a string without its quotes); '' for an object, a list, null or nothing.
      const keys = jsonPathKeys(constantText(arg(args, 1), 'The path of JSON_VALUE()'));
      const source = c.compile(arg(args, 0));
      let value =
        source.type === 'json'
          ? sql`(case when jsonb_typeof(${source.sql}) = 'string' then hogql_json_parse(${source.sql} #>> '{}') else ${source.sql} end)`
          : sql`hogql_json_parse(${coerce(source, 'string', c.scope).sql})`;
      for (const key of keys) value = sql`(${value} -> ${jsonKey(key)})`;
      const body = sql`coalesce((case when jsonb_typeof(${value}) in ('string', 'number', 'boolean') then ${value} #>> '{}' end), '')`;
      return ofDocument(source, body, 'string');
    },
  },
];

/** The corrections of functions defined before the library (select/functions.ts). */
export const JSON_CORRECTIONS = {
  JSONExtractRaw: {
    name: 'JSONExtractRaw',
    minArgs: 1,
    maxArgs: Infinity,
    compile: (c, args) => {
      const { value, source } = valueAt(c, args, 'JSONExtractRaw', true);
      return ofDocument(source, sql`coalesce(${compactText(value)}, '')`, 'string');
    },
  } satisfies FunctionDef,
};

export const JSON_FAMILY: Family = {
  title: 'JSON',
  definitions: DEFINITIONS,
  unavailable: {},
};
