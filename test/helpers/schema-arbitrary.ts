/**
 * fast-check arbitraries from the JSON schemas of spec/openapi.yaml, for the schema-driven fuzz test. It handles
 * the subset the spec uses: type, enum, format, minLength/maxLength, minimum/maximum, pattern, items,
 * properties, required, additionalProperties, oneOf/anyOf/allOf, not, nullable, readOnly and $ref.
 *
 * - `validValue` makes values the schema accepts (test/unit/schema-arbitrary.test.ts checks them with Ajv);
 * - `invalidValue` makes values it rejects: a wrong type, a bound crossed, a pattern or enum missed, a required
 *   property dropped, or one property made invalid;
 * - `hostileValue` mixes both with what servers choke on whether valid or not: huge and odd unicode strings
 *   (NUL, lone surrogates), deep nesting, extreme numbers and extra fields.
 */
import fc from 'fast-check';

export interface Schema {
  $ref?: string;
  type?: string;
  enum?: unknown[];
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  not?: Schema;
  nullable?: boolean;
  readOnly?: boolean;
  writeOnly?: boolean;
}

export interface ArbitraryOptions {
  /** The document `#/...` references point into (spec-sync's operations come with theirs resolved already). */
  root?: unknown;
  /** Arbitrary to use for a named property instead of its schema's (such as a real project API key). */
  propertyOverride?: (name: string, schema: Schema) => fc.Arbitrary<unknown> | undefined;
  /** How deep generated objects and arrays nest before only scalars are made. */
  maxDepth?: number;
}

const INT32_MAX = 2 ** 31 - 1;
/** Strings that broke parsers, encoders and databases elsewhere: NUL, lone surrogates, RTL, emoji, escapes. */
export const NASTY_STRINGS = [
  '',
  '\u0000',
  'a\u0000b',
  '\uD800',
  '\uDFFF',
  '\u202Egnp.exe',
  '👩‍👩‍👧‍👦',
  'Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǫ̗̻͊',
  '\\',
  '\\u0000',
  "'; DROP TABLE events; --",
  '%00',
  '%',
  '../..',
  '{"$ref": "#"}',
  '${jndi:ldap://x}',
  'null',
  'NaN',
  '-Infinity',
  '1e400',
  '-0',
  '0x10',
  '99999999999999999999999',
  ' ',
  '\t\r\n',
  '\u00A0',
  '\uFEFF',
];

export function resolveRef(schema: Schema, root: unknown): Schema {
  let current = schema;
  for (let hops = 0; current.$ref !== undefined && hops < 32; hops += 1) {
    const ref = current.$ref;
    if (!ref.startsWith('#/')) throw new Error(`only local $refs are supported: ${ref}`);
    let target: unknown = root;
    for (const segment of ref.slice(2).split('/')) {
      target = (target as Record<string, unknown> | undefined)?.[segment.replace(/~1/g, '/').replace(/~0/g, '~')];
    }
    if (target === undefined) throw new Error(`unresolved $ref: ${ref}`);
    current = target as Schema;
  }
  return current;
}

/** allOf's members folded into one schema (the spec's allOf only combines objects or wraps one $ref). */
function merged(schema: Schema, root: unknown): Schema {
  const base = resolveRef(schema, root);
  if (!base.allOf) return base;
  const { allOf, ...rest } = base;
  let result: Schema = { ...rest };
  for (const member of allOf) {
    const part = merged(member, root);
    result = {
      ...part,
      ...result,
      properties: { ...part.properties, ...result.properties },
      required: [...(part.required ?? []), ...(result.required ?? [])],
    };
  }
  if (result.properties && Object.keys(result.properties).length === 0) delete result.properties;
  if (result.required?.length === 0) delete result.required;
  return result;
}

function typeOf(schema: Schema): string | undefined {
  if (schema.type) return schema.type;
  if (schema.properties || schema.additionalProperties !== undefined) return 'object';
  if (schema.items) return 'array';
  return undefined;
}

const anyJson = (maxDepth: number): fc.Arbitrary<unknown> => fc.jsonValue({ maxDepth: Math.max(0, maxDepth) });

function stringArbitrary(schema: Schema): fc.Arbitrary<string> {
  const { minLength = 0 } = schema;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? 40, minLength + 40));
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length >= minLength && s.length <= (schema.maxLength ?? Infinity));
  switch (schema.format) {
    case 'uuid':
      return fc.uuid();
    case 'date-time':
      return fc
        .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
        .map((date) => date.toISOString());
    case 'email':
      return fc.emailAddress();
    case 'uri':
      return fc.webUrl();
    default:
      // One code point a unit, so that the length is the one JSON Schema counts.
      return fc.oneof(fc.string({ minLength, maxLength }), fc.string({ unit: 'binary', minLength, maxLength }));
  }
}

function integerArbitrary(schema: Schema): fc.Arbitrary<number> {
  const min = schema.minimum ?? -INT32_MAX - 1;
  const max = schema.maximum ?? INT32_MAX;
  if (min >= -INT32_MAX - 1 && max <= INT32_MAX) return fc.integer({ min, max });
  return fc.bigInt({ min: BigInt(min), max: BigInt(max) }).map(Number);
}

export function validValue(schema: Schema, options: ArbitraryOptions = {}, depth = 0): fc.Arbitrary<unknown> {
  const maxDepth = options.maxDepth ?? 4;
  const s = merged(schema, options.root);
  const base = validWithoutNull(s, options, depth, maxDepth);
  return s.nullable ? fc.oneof({ arbitrary: base, weight: 4 }, { arbitrary: fc.constant(null), weight: 1 }) : base;
}

function validWithoutNull(s: Schema, options: ArbitraryOptions, depth: number, maxDepth: number): fc.Arbitrary<unknown> {
  if (s.enum) return fc.constantFrom(...s.enum.filter((value) => value !== null || s.nullable));
  const variants = s.oneOf ?? s.anyOf;
  // A oneOf member's value may match another member too; the spec's only oneOf has disjoint members.
  if (variants) return fc.oneof(...variants.map((variant) => validValue(variant, options, depth)));
  switch (typeOf(s)) {
    case 'string':
      return stringArbitrary(s);
    case 'integer':
      return integerArbitrary(s);
    case 'number':
      return fc.double({ min: s.minimum ?? -1e12, max: s.maximum ?? 1e12, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const minLength = s.minItems ?? 0;
      const maxLength = depth >= maxDepth ? minLength : Math.min(s.maxItems ?? minLength + 3, minLength + 3);
      return fc.array(validValue(s.items ?? {}, options, depth + 1), { minLength, maxLength });
    }
    case 'object':
      return objectArbitrary(s, options, depth, maxDepth);
    default:
      return anyJson(maxDepth - depth);
  }
}

/** The properties a request may carry: readOnly ones are the server's to write. */
function writableProperties(s: Schema): [string, Schema][] {
  return Object.entries(s.properties ?? {}).filter(([, property]) => !property.readOnly && !property.not);
}

function objectArbitrary(s: Schema, options: ArbitraryOptions, depth: number, maxDepth: number): fc.Arbitrary<Record<string, unknown>> {
  const required = new Set(s.required ?? []);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of writableProperties(s)) {
    if (depth >= maxDepth && !required.has(name)) continue;
    model[name] = options.propertyOverride?.(name, property) ?? validValue(property, options, depth + 1);
  }
  const known = fc.record(model, { requiredKeys: [...required].filter((name) => name in model) });
  if (s.additionalProperties === undefined || s.additionalProperties === false || depth >= maxDepth) return known;
  const extraValue = s.additionalProperties === true ? anyJson(maxDepth - depth - 1) : validValue(s.additionalProperties, options, depth + 1);
  const extras = fc.dictionary(
    fc.string({ minLength: 1, maxLength: 12 }).filter((key) => !(s.properties && key in s.properties)),
    extraValue,
    { maxKeys: 3 },
  );
  return fc.tuple(known, extras).map(([fields, more]) => ({ ...more, ...fields }));
}

/** Values of each JSON type, for a wrong-type value. */
const VALUES_BY_TYPE: Record<string, fc.Arbitrary<unknown>> = {
  string: fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('1', 'true', 'null')),
  integer: fc.integer(),
  number: fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Number.isInteger(n)),
  boolean: fc.boolean(),
  array: fc.array(fc.integer(), { maxLength: 2 }),
  object: fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 2 }),
};

function wrongType(s: Schema): fc.Arbitrary<unknown> | undefined {
  const type = typeOf(s);
  if (!type) return undefined;
  // An integer is a number too, and an integral number an integer.
  const accepted = type === 'number' ? ['number', 'integer'] : [type];
  const others = Object.entries(VALUES_BY_TYPE).filter(([name]) => !accepted.includes(name));
  const values = others.map(([, arbitrary]) => arbitrary);
  return fc.oneof(...(s.nullable ? values : [...values, fc.constant(null)]));
}

/** Values the schema rejects, or undefined when it accepts everything. */
export function invalidValue(schema: Schema, options: ArbitraryOptions = {}, depth = 0): fc.Arbitrary<unknown> | undefined {
  const s = merged(schema, options.root);
  if (s.oneOf || s.anyOf) {
    // Rejected by every member: the wrong type for all of them, when they share one type.
    const types = new Set((s.oneOf ?? s.anyOf)!.map((variant) => typeOf(merged(variant, options.root))));
    const [only] = types;
    return types.size === 1 && only ? wrongType({ type: only, nullable: s.nullable }) : undefined;
  }
  const candidates: fc.Arbitrary<unknown>[] = [];
  const typed = wrongType(s);
  if (typed) candidates.push(typed);
  if (s.enum) {
    candidates.push(fc.string({ maxLength: 10 }).filter((value) => !s.enum!.includes(value)));
  }
  const type = typeOf(s);
  if (type === 'string' && !s.enum) {
    if (s.minLength) candidates.push(fc.string({ maxLength: s.minLength - 1 }));
    if (s.maxLength !== undefined) candidates.push(fc.string({ minLength: s.maxLength + 1, maxLength: s.maxLength + 20 }));
    if (s.pattern) {
      const pattern = new RegExp(s.pattern);
      candidates.push(fc.oneof(fc.string(), fc.constantFrom(...NASTY_STRINGS)).filter((value) => !pattern.test(value)));
    }
    if (s.format === 'uuid') candidates.push(fc.constantFrom('not-a-uuid', '0190f1c4-8e77-7b0a-8c1d', '{0190f1c4-8e77-7b0a-8c1d-5e2f3a4b6c7d}'));
    if (s.format === 'date-time') candidates.push(fc.constantFrom('yesterday', '2026-13-45T25:61:00Z', '2026-11-21'));
  }
  if (type === 'integer' || type === 'number') {
    if (s.minimum !== undefined) candidates.push(fc.constantFrom(s.minimum - 1, s.minimum - 1e6, -Number.MAX_VALUE));
    if (s.maximum !== undefined) candidates.push(fc.constantFrom(s.maximum + 1, s.maximum + 1e6, Number.MAX_VALUE));
    if (type === 'integer') {
      const low = Math.max(s.minimum ?? -1e6, -1e6);
      candidates.push(fc.constant(low + 0.5));
    }
  }
  if (type === 'object') {
    const writable = new Map(writableProperties(s));
    const model = objectArbitrary(s, options, depth, options.maxDepth ?? 4);
    const required = (s.required ?? []).filter((name) => writable.has(name));
    if (required.length > 0) {
      candidates.push(
        fc.tuple(model, fc.constantFrom(...required)).map(([value, dropped]) => {
          const copy = { ...value };
          delete copy[dropped];
          return copy;
        }),
      );
    }
    const breakable = [...writable].flatMap(([name, property]) => {
      const broken = invalidValue(property, options, depth + 1);
      return broken ? [fc.tuple(fc.constant(name), broken)] : [];
    });
    if (breakable.length > 0) {
      candidates.push(fc.tuple(model, fc.oneof(...breakable)).map(([value, [name, broken]]) => ({ ...value, [name]: broken })));
    }
    if (s.additionalProperties === false) {
      candidates.push(model.map((value) => ({ ...value, 'x-unexpected-field': 1 })));
    }
  }
  if (type === 'array' && s.items) {
    const broken = invalidValue(s.items, options, depth + 1);
    if (broken) {
      candidates.push(fc.tuple(fc.array(validValue(s.items, options, depth + 1), { maxLength: 2 }), broken).map(([items, bad]) => [...items, bad]));
    }
  }
  return candidates.length > 0 ? fc.oneof(...candidates) : undefined;
}

/** A value nested `depth` levels deep in arrays and objects. */
export function deeplyNested(depth: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < depth; level += 1) value = level % 2 === 0 ? [value] : { a: value };
  return value;
}

export interface NastyOptions {
  /** Longest huge string (a URL must stay under node's 16 KB header limit; a body may be far larger). */
  maxStringLength?: number;
  /** Deepest nesting. */
  maxDepth?: number;
}

/** Values that may or may not be valid but are hard on the server. */
export function nastyValue({ maxStringLength = 200_000, maxDepth = 3_000 }: NastyOptions = {}): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constantFrom(...NASTY_STRINGS),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }),
    fc.integer({ min: Math.min(1_000, maxStringLength), max: maxStringLength }).map((length) => 'x'.repeat(length)),
    fc.integer({ min: Math.min(100, maxDepth), max: maxDepth }).map(deeplyNested),
    fc.constantFrom(0, -0, -1, 2 ** 31, 2 ** 53 + 1, -(2 ** 63), 1e308, -1e308, 5e-324, 0.1),
    // Own keys named as Object.prototype's, as JSON.parse makes them.
    fc.constant(JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {}}}') as unknown),
  );
}

/** A mix of valid, invalid and nasty values for the schema: what the fuzz test sends. */
export function hostileValue(schema: Schema, options: ArbitraryOptions & NastyOptions = {}): fc.Arbitrary<unknown> {
  const invalid = invalidValue(schema, options);
  const valid = validValue(schema, options);
  const isObject = typeOf(merged(schema, options.root)) === 'object';
  // A field the schema does not name, beside valid ones (valid or not, as additionalProperties says).
  const extraField = fc
    .tuple(valid, fc.constantFrom('unexpected', 'id', '__proto__', 'constructor', ''), nastyValue(options))
    .map(([value, name, extra]) => (value !== null && typeof value === 'object' ? { ...value, [name]: extra } : value));
  return fc.oneof(
    { arbitrary: valid, weight: 3 },
    ...(invalid ? [{ arbitrary: invalid, weight: 3 }] : []),
    ...(isObject ? [{ arbitrary: extraField, weight: 1 }] : []),
    { arbitrary: nastyValue(options), weight: 1 },
  );
}
