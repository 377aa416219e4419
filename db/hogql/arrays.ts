/**
 * Arrays and tuples as jsonb arrays: how a value of each type is written into one and read back, the value a
 * missing element reads as, and element access counted as ClickHouse counts (from 1, negative from the end).
 */
import type { Expr } from './ast.js';
import { HogQLError } from './errors.js';
import { keyword, param, sql, type Fragment } from './sql.js';
import { arrayOf, coerce, jsonKey, shapeOf, TYPE_NAMES, typed, unifiedType, type ArrayShape, type HogQLType, type Scope, type Typed } from './types.js';

/** Elements of these types are jsonb's own (numbers, strings, booleans); others are stored as text. */
const AS_JSON_TEXT: readonly HogQLType[] = ['datetime', 'date', 'uuid', 'interval'];

/** A value as an element of a jsonb array: datetimes as the response writes them, so that output needs no pass. */
export function toJsonb(value: Typed, scope: Scope): Fragment {
  if (value.type === 'json' || value.type === 'array') return value.sql;
  if (value.type === 'null') return keyword("'null'::jsonb");
  if (AS_JSON_TEXT.includes(value.type)) return sql`to_jsonb(${coerce(value, 'string', scope).sql})`;
  return sql`to_jsonb(${value.sql})`;
}

const CASTS: Partial<Record<HogQLType, string>> = {
  int: 'bigint',
  float: 'numeric',
  boolean: 'boolean',
  datetime: 'timestamptz',
  date: 'date',
  uuid: 'uuid',
};

/** An element read from a jsonb array (`element` a jsonb fragment) as a value of `type`; JSON null is NULL. */
export function fromJsonb(element: Fragment, type: HogQLType, shape?: ArrayShape): Typed {
  if (type === 'json' || type === 'null') return typed(element, 'json', true);
  if (type === 'array') {
    const array = sql`(case when jsonb_typeof(${element}) = 'array' then ${element} end)`;
    return { ...arrayOf(array, shape?.element ?? 'json', true), elementNullable: shape?.elementNullable, tupleTypes: shape?.tupleTypes, elementShape: shape?.elementShape };
  }
  if (type === 'string') return typed(sql`(${element} #>> '{}')`, 'string', true);
  const cast = CASTS[type];
  if (!cast) throw new HogQLError(`An array cannot hold a ${TYPE_NAMES[type]}.`);
  if (type === 'int') return typed(sql`((${element} #>> '{}')::numeric)::bigint`, 'int', true);
  return typed(sql`(${element} #>> '{}')::${keyword(cast)}`, type, true);
}

/** What ClickHouse answers for a missing element of a non-nullable array of `type`: the type's default. */
export function defaultOf(type: HogQLType): Fragment | null {
  switch (type) {
    case 'int':
      return keyword('0::bigint');
    case 'float':
      return keyword('0::numeric');
    case 'string':
      return keyword("''::text");
    case 'boolean':
      return keyword('false');
    case 'date':
      return keyword("'1970-01-01'::date");
    case 'datetime':
      return keyword("'1970-01-01T00:00:00Z'::timestamptz");
    case 'uuid':
      return keyword("'00000000-0000-0000-0000-000000000000'::uuid");
    case 'array':
      return keyword("'[]'::jsonb");
    default:
      return null;
  }
}

/** The element type of an array (JSON when only known per row). */
export function elementType(array: Typed): HogQLType {
  return array.element ?? 'json';
}

/** Whether a missing element of `array` reads as NULL rather than its type's default. */
export function elementsNullable(array: Typed): boolean {
  const type = elementType(array);
  return array.elementNullable === true || defaultOf(type) === null;
}

/** An element read as `type`, with the default in place of a missing one unless the elements are nullable. */
export function readElement(array: Typed, raw: Fragment, type: HogQLType, nullable: boolean): Typed {
  const value = fromJsonb(raw, type, array.tupleTypes ? undefined : array.elementShape);
  const fallback = defaultOf(type);
  if (nullable || fallback === null) return { ...value, aggregate: array.aggregate };
  return { ...value, sql: sql`coalesce(${value.sql}, ${fallback})`, nullable: false, aggregate: array.aggregate };
}

/**
 * The common type of an array's elements, as ClickHouse's array literal needs one: numbers of both kinds are
 * floats, JSON beside scalars stays JSON; text beside numbers, or an array beside a scalar, has none.
 */
export function commonElementType(values: readonly Typed[], what: string): HogQLType {
  const types = new Set(values.map((value) => value.type).filter((type) => type !== 'null'));
  if (types.size > 1) {
    const arrays = types.has('array');
    const mixed = (types.has('string') && (types.has('int') || types.has('float') || types.has('boolean'))) || (arrays && [...types].some((type) => type !== 'array' && type !== 'json'));
    if (mixed) throw new HogQLError(`${what} has no common type for ${[...types].map((type) => TYPE_NAMES[type]).join(' and ')}.`);
  }
  const type = unifiedType(values);
  return type === 'null' ? 'json' : type;
}

/** An array literal's elements: constants in one bound JSON parameter, anything else element by element. */
export function buildArray(values: readonly Typed[], scope: Scope, tuple: boolean): Typed {
  const aggregate = values.some((value) => value.aggregate);
  const elementNullable = values.some((value) => value.nullable || value.type === 'json');
  if (tuple) {
    const tupleTypes = values.map((value) => (value.type === 'null' ? 'json' : value.type));
    const single = new Set(tupleTypes).size === 1 ? tupleTypes[0]! : 'json';
    const tupleShapes = values.map((value) => shapeOf(value));
    return { ...arrayOf(jsonArray(values, scope), single, false, aggregate), elementNullable, tupleTypes, ...(tupleShapes.some(Boolean) ? { tupleShapes } : {}) };
  }
  const type = commonElementType(values, 'An array');
  const converted = values.map((value) => (value.type === 'null' || value.type === 'array' ? value : coerce(value, type, scope)));
  return { ...arrayOf(jsonArray(converted, scope), type, false, aggregate), elementNullable, elementShape: commonShape(values) };
}

/** The shape the arrays among `values` share, when they are alike in their elements' type. */
export function commonShape(values: readonly Typed[]): ArrayShape | undefined {
  const shapes = values.filter((value) => value.type === 'array').map((value) => shapeOf(value)!);
  if (shapes.length === 0) return undefined;
  const first = shapes[0]!;
  const alike = shapes.every((shape) => shape.element === first.element && (shape.tupleTypes ?? []).join() === (first.tupleTypes ?? []).join());
  return alike ? { ...first, elementNullable: shapes.some((shape) => shape.elementNullable === true) } : undefined;
}

function jsonArray(values: readonly Typed[], scope: Scope): Fragment {
  if (values.length === 0) return keyword("'[]'::jsonb");
  if (values.every((value) => value.constant !== undefined && value.type !== 'datetime' && value.type !== 'date' && value.type !== 'uuid')) {
    return param(JSON.stringify(values.map((value) => value.constant)), 'jsonb');
  }
  // jsonb_build_array takes at most 100 arguments: longer lists are concatenated in pieces.
  const pieces: Fragment[] = [];
  for (let start = 0; start < values.length; start += 100) {
    const chunk = values.slice(start, start + 100).map((value) => toJsonb(value, scope));
    pieces.push(sql`jsonb_build_array(${joinFragments(chunk, ', ')})`);
  }
  return pieces.length === 1 ? pieces[0]! : sql`(${joinFragments(pieces, ' || ')})`;
}

function joinFragments(fragments: readonly Fragment[], separator: string): Fragment {
  return fragments.slice(1).reduce((joined, fragment) => ({ text: `${joined.text}${separator}${fragment.text}`, params: [...joined.params, ...fragment.params], weight: joined.weight + fragment.weight }), fragments[0]!);
}

/** A jsonb array offset for a 1-based ClickHouse index (negative from the end; 0 and out of range read nothing). */
export function arrayOffset(index: Typed, scope: Scope): Fragment {
  if (typeof index.constant === 'number' && Number.isSafeInteger(index.constant)) {
    const position = index.constant;
    return jsonKey(Math.abs(position) >= 2 ** 31 ? 0 : position);
  }
  const i = coerce(index, 'int', scope).sql;
  return sql`(case when ${i} > 0 then least(${i} - 1, 2147483646) when ${i} < 0 then greatest(${i}, -2147483647) else 2147483647 end)::int`;
}

/**
 * ClickHouse refuses a constant index 0 on an array that is not itself a literal ("Array indices are 1-based");
 * on a literal it reads the default, as any index out of range does.
 */
export function checkZeroIndex(container: Expr, index: Expr): void {
  if (index.kind === 'constant' && index.value === 0 && container.kind !== 'array' && container.kind !== 'tuple') {
    throw new HogQLError(ZERO_ARRAY_INDEX);
  }
}

/** PostHog's refusals of a constant index 0 (`x[0]`, `x.0`), in its words. */
export const ZERO_ARRAY_INDEX = 'SQL indexes start from one, not from zero. E.g: array[1]';
export const ZERO_TUPLE_INDEX = 'SQL indexes start from one, not from zero. E.g: array.1';

/** `array[index]`, `tuple.N`: an element of an array, a tuple or a JSON value (a property holding a list). */
export function elementOf(container: Typed, index: Typed, tupleAccess: boolean, scope: Scope): Typed {
  const aggregate = container.aggregate || index.aggregate;
  if (container.type === 'json') {
    const key = index.type === 'string' ? coerce(index, 'string', scope).sql : arrayOffset(index, scope);
    return typed(sql`(${container.sql} -> ${key})`, 'json', true, aggregate);
  }
  if (container.type !== 'array') throw new HogQLError(`Cannot take an element of a ${TYPE_NAMES[container.type]}; only of an array or a tuple.`);
  if (index.type !== 'int' && index.type !== 'json' && index.type !== 'float' && index.type !== 'null') {
    throw new HogQLError(`An array's index must be an integer, not a ${TYPE_NAMES[index.type]}.`);
  }
  const types = container.tupleTypes;
  if (types && typeof index.constant === 'number') {
    const position = index.constant;
    if (!Number.isInteger(position) || position === 0 || Math.abs(position) > types.length) {
      throw new HogQLError(`The tuple has ${types.length} items: there is no item ${position}.`);
    }
    const item = position > 0 ? position - 1 : types.length + position;
    const type = types[item]!;
    const value = readElement(container, sql`(${container.sql} -> ${jsonKey(position)})`, type, container.elementNullable === true);
    const shape = type === 'array' ? container.tupleShapes?.[item] : undefined;
    return { ...value, ...(shape ? { element: shape.element, elementNullable: shape.elementNullable, tupleTypes: shape.tupleTypes, tupleShapes: shape.tupleShapes, elementShape: shape.elementShape } : {}), aggregate };
  }
  // `.N` on an array of tuples is, as ClickHouse's tupleElement, the array of each tuple's item N.
  const itemTypes = container.elementShape?.tupleTypes;
  if (tupleAccess && !types && itemTypes && typeof index.constant === 'number') {
    const position = index.constant;
    if (!Number.isInteger(position) || position === 0 || Math.abs(position) > itemTypes.length) {
      throw new HogQLError(`The tuples have ${itemTypes.length} items: there is no item ${position}.`);
    }
    const itemType = itemTypes[position > 0 ? position - 1 : itemTypes.length + position]!;
    const items = sql`(select coalesce(jsonb_agg(hogql_tuple -> ${jsonKey(position)} order by hogql_position), '[]'::jsonb) from jsonb_array_elements(${container.sql}) with ordinality as hogql_tuples(hogql_tuple, hogql_position))`;
    return { ...arrayOf(items, itemType, container.nullable, aggregate), elementNullable: container.elementShape?.elementNullable };
  }
  // `.N` on an array whose tuples' types are not known here (a tuple read from JSON) reads the element.
  const type = elementType(container);
  const value = readElement(container, sql`(${container.sql} -> ${arrayOffset(index, scope)})`, type, elementsNullable(container));
  return { ...value, aggregate };
}
