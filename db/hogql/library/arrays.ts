/**
 * ClickHouse's array functions (PostHog's `arrays.py`, with the functions arrays share with strings) over jsonb
 * arrays. Each reads the elements as rows of `jsonb_array_elements(…) with ordinality` in a subquery correlated
 * with the row; a lambda's body is compiled once, with its parameters bound to those rows' elements, so that its
 * cost is the body's, whatever the arrays' lengths.
 */
import type { Expr } from '../ast.js';
import { buildArray, checkZeroIndex, commonElementType, defaultOf, elementOf, elementsNullable, elementType, readElement, toJsonb } from '../arrays.js';
import type { Compiler } from '../compiler.js';
import { HogQLError } from '../errors.js';
import type { FunctionDef } from '../functions.js';
import { ownEntry } from '../lookup.js';
import { join, keyword, sql, type Fragment } from '../sql.js';
import { arrayOf, coerce, constant, shapeOf, TYPE_NAMES, typed, type ArrayShape, type HogQLType, type Typed } from '../types.js';
import type { Family } from './index.js';

/** The most elements range() and arrayResize() build: ClickHouse allows 100 000 000, a row's memory less. */
export const MAX_RANGE_ELEMENTS = 1_000_000;
/**
 * The most inside a lambda, where one is built for each element of another array: the product of the two is
 * what a row holds (jsonb then refuses a value over 256 MB, which answers a 400).
 */
export const MAX_RANGE_ELEMENTS_IN_LAMBDA = 10_000;

function rangeBound(c: Compiler): number {
  return c.lambdaDepth > 0 ? MAX_RANGE_ELEMENTS_IN_LAMBDA : MAX_RANGE_ELEMENTS;
}

type Lambda = Extract<Expr, { kind: 'lambda' }>;

const arg = (args: readonly Expr[], index: number): Expr => args[index]!;

/** An argument that must be an array: a property holding a list counts, as one; anything else is refused. */
function arrayArg(c: Compiler, expr: Expr, fn: string): Typed {
  if (expr.kind === 'lambda') throw new HogQLError(`${fn}() takes a lambda only as its first argument.`);
  const value = c.compile(expr);
  if (value.type === 'array') return value;
  if (value.type === 'json' || value.type === 'null') return coerce(value, 'array', c.scope);
  throw new HogQLError(`${fn}() needs an array, not a value of type ${TYPE_NAMES[value.type]}.`);
}

/** The elements of one or more arrays as rows (`alias.v0`, `alias.v1`, … by position `alias.n`), zipped. */
interface Elements {
  from: Fragment;
  n: Fragment;
  raw: Fragment[];
  items: Typed[];
  arrays: Typed[];
}

function elementsOf(c: Compiler, arrays: readonly Typed[]): Elements {
  const alias = `hogql_l${c.lambdaDepth}`;
  const columns = arrays.map((_, index) => `v${index}`);
  const sources = arrays.map((array) => sql`jsonb_array_elements(${array.sql})`);
  const from =
    arrays.length === 1
      ? sql`${sources[0]!} with ordinality ${keyword(`${alias}(v0, n)`)}`
      : sql`rows from (${join(sources, ', ')}) with ordinality ${keyword(`${alias}(${columns.join(', ')}, n)`)}`;
  const raw = columns.map((column) => keyword(`${alias}.${column}`));
  const items = arrays.map((array, index) => {
    const value = readElement(array, raw[index]!, elementType(array), true);
    return { ...value, nullable: elementsNullable(array) || arrays.length > 1, aggregate: false };
  });
  return { from, n: keyword(`${alias}.n`), raw, items, arrays: [...arrays] };
}

/**
 * A higher-order call's arguments: `(lambda, array, …)` or, where the lambda is optional, `(array, …)`. The
 * lambda's parameters are bound to the arrays' elements, one each.
 */
function higherOrder(c: Compiler, args: readonly Expr[], fn: string, lambdaRequired: boolean): { elements: Elements; value: Typed | null; aggregate: boolean } {
  const first = arg(args, 0);
  const lambda = first.kind === 'lambda' ? (first as Lambda) : null;
  if (!lambda && lambdaRequired) throw new HogQLError(`${fn}() takes a lambda as its first argument, such as ${fn}(x -> x > 1, array).`);
  const arrayArgs = lambda ? args.slice(1) : args;
  if (arrayArgs.length === 0) throw new HogQLError(`${fn}() needs an array after its lambda.`);
  const arrays = arrayArgs.map((expr) => arrayArg(c, expr, fn));
  if (lambda && lambda.params.length !== arrays.length) {
    throw new HogQLError(`The lambda of ${fn}() takes ${lambda.params.length} parameter${lambda.params.length === 1 ? '' : 's'} but is given ${arrays.length} array${arrays.length === 1 ? '' : 's'}.`);
  }
  const elements = elementsOf(c, arrays);
  const value = lambda ? c.withLambdaParams(lambda.params, elements.items, () => c.compile(lambda.body)) : null;
  // An aggregate inside the lambda (over the query's rows) makes the call one too.
  return { elements, value, aggregate: arrays.some((array) => array.aggregate) || value?.aggregate === true };
}

/** A jsonb array of `value` over the elements, in their order (only those passing `where`). */
function collect(elements: Elements, value: Fragment, where: Fragment | null, order: Fragment | null = null): Fragment {
  const filter = where ? sql` where ${where}` : keyword('');
  return sql`(select coalesce(jsonb_agg(${value} order by ${order ?? elements.n}), '[]'::jsonb) from ${elements.from}${filter})`;
}

function sameElements(array: Typed, fragment: Fragment, aggregate: boolean): Typed {
  return { ...arrayOf(fragment, elementType(array), false, aggregate), elementNullable: array.elementNullable, elementShape: array.elementShape };
}

/** A value a sort orders by: text byte by byte (as ClickHouse), numbers as numbers, JSON as jsonb. */
function sortKey(c: Compiler, value: Typed): Fragment {
  if (value.type === 'string') return sql`${value.sql} collate "C"`;
  if (value.type === 'json') return sql`hogql_to_number(${value.sql}), (${value.sql} #>> '{}') collate "C"`;
  if (value.type === 'array') return value.sql;
  return value.sql;
}

/** A truth as ClickHouse's UInt8 answers it: 1 or 0. */
function flag(condition: Fragment, aggregate = false): Typed {
  return typed(sql`(${condition})::int::bigint`, 'int', false, aggregate);
}

function numberOf(c: Compiler, value: Typed): Typed {
  return value.type === 'int' ? value : coerce(c.numeric(value), 'float', c.scope);
}

function mapped(): FunctionDef {
  return {
    name: 'arrayMap',
    minArgs: 2,
    maxArgs: Infinity,
    compile: (c, args) => {
      const { elements, value, aggregate } = higherOrder(c, args, 'arrayMap', true);
      const body = value!;
      const type = body.type === 'null' ? 'json' : body.type;
      const result = arrayOf(collect(elements, toJsonb(body, c.scope), null), type, false, aggregate);
      return { ...result, elementNullable: body.nullable || type === 'json', elementShape: shapeOf(body) };
    },
  };
}

function filtered(): FunctionDef {
  return {
    name: 'arrayFilter',
    minArgs: 2,
    maxArgs: Infinity,
    compile: (c, args) => {
      const { elements, value, aggregate } = higherOrder(c, args, 'arrayFilter', true);
      return sameElements(elements.arrays[0]!, collect(elements, elements.raw[0]!, c.truth(value!)), aggregate);
    },
  };
}

/** arrayExists, arrayAll, arrayCount: without a lambda, an element counts when it is true (non-zero). */
function counting(name: 'arrayExists' | 'arrayAll' | 'arrayCount'): FunctionDef {
  return {
    name,
    minArgs: 1,
    maxArgs: Infinity,
    compile: (c, args) => {
      const { elements, value, aggregate } = higherOrder(c, args, name, false);
      const condition = c.truth(value ?? elements.items[0]!);
      if (name === 'arrayExists') return flag(sql`exists (select from ${elements.from} where ${condition})`, aggregate);
      if (name === 'arrayAll') return flag(sql`not exists (select from ${elements.from} where not ${condition})`, aggregate);
      return typed(sql`(select count(*) from ${elements.from} where ${condition})`, 'int', false, aggregate);
    },
  };
}

/** arraySum, arrayAvg, arrayMin, arrayMax, with an optional lambda giving the values. */
function reduction(name: string, kind: 'sum' | 'avg' | 'min' | 'max'): FunctionDef {
  return {
    name,
    minArgs: 1,
    maxArgs: 2,
    compile: (c, args) => {
      const { elements, value, aggregate } = higherOrder(c, args, name, false);
      const item = value ?? elements.items[0]!;
      const from = elements.from;
      if (kind === 'sum' || kind === 'avg') {
        const number = numberOf(c, item);
        if (kind === 'avg') return typed(sql`(select avg(${number.sql}) from ${from})`, 'float', true, aggregate);
        return typed(sql`(select coalesce(sum(${number.sql}), 0) from ${from})`, number.type, false, aggregate);
      }
      // The least or greatest element; an empty array gives the type's default, as ClickHouse does.
      const comparable = item.type === 'json' ? numberOf(c, item) : item.type === 'boolean' ? coerce(item, 'int', c.scope) : item;
      const ordered = comparable.type === 'string' ? sql`${comparable.sql} collate "C"` : comparable.sql;
      const found = sql`(select ${keyword(kind)}(${ordered}) from ${from})`;
      const fallback = defaultOf(comparable.type);
      if (fallback === null || value === null && elementsNullable(elements.arrays[0]!)) return typed(found, comparable.type, true, aggregate);
      return typed(sql`coalesce(${found}, ${fallback})`, comparable.type, false, aggregate);
    },
  };
}

/** arrayFirst, arrayLast: the first (last) element the lambda holds for, the type's default when none. */
function finding(name: string, last: boolean, index: boolean): FunctionDef {
  return {
    name,
    minArgs: 2,
    maxArgs: Infinity,
    compile: (c, args) => {
      const { elements, value, aggregate } = higherOrder(c, args, name, true);
      const order = keyword(last ? 'desc' : 'asc');
      const where = c.truth(value!);
      if (index) return typed(sql`coalesce((select ${elements.n} from ${elements.from} where ${where} order by ${elements.n} ${order} limit 1), 0)::bigint`, 'int', false, aggregate);
      const array = elements.arrays[0]!;
      const raw = sql`(select ${elements.raw[0]!} from ${elements.from} where ${where} order by ${elements.n} ${order} limit 1)`;
      return { ...readElement(array, raw, elementType(array), elementsNullable(array)), aggregate };
    },
  };
}

/**
 * arrayFill, arrayReverseFill: an element the lambda does not hold for takes the value of the nearest one before
 * (after) it that it holds for; the first (last) element stays.
 */
function filling(name: 'arrayFill' | 'arrayReverseFill'): FunctionDef {
  return {
    name,
    minArgs: 2,
    maxArgs: Infinity,
    compile: (c, args) => {
      const { elements, value, aggregate } = higherOrder(c, args, name, true);
      const array = elements.arrays[0]!;
      const size = sql`jsonb_array_length(${array.sql})`;
      const holds = c.truth(value!);
      const source =
        name === 'arrayFill'
          ? sql`max(${elements.n}) filter (where ${holds} or ${elements.n} = 1) over (order by ${elements.n} rows between unbounded preceding and current row)`
          : sql`min(${elements.n}) filter (where ${holds} or ${elements.n} = ${size}) over (order by ${elements.n} rows between current row and unbounded following)`;
      const picked = sql`(select ${elements.n} as n, ${source} as k from ${elements.from}) hogql_p`;
      const fragment = sql`(select coalesce(jsonb_agg(${array.sql} -> (hogql_p.k - 1)::int order by hogql_p.n), '[]'::jsonb) from ${picked})`;
      return sameElements(array, fragment, aggregate);
    },
  };
}

/**
 * arraySplit, arrayReverseSplit: the array cut before (after) each element the lambda holds for, the first (last)
 * element aside.
 */
function splitting(name: 'arraySplit' | 'arrayReverseSplit'): FunctionDef {
  return {
    name,
    minArgs: 2,
    maxArgs: Infinity,
    compile: (c, args) => {
      const { elements, value, aggregate } = higherOrder(c, args, name, true);
      const array = elements.arrays[0]!;
      const size = sql`jsonb_array_length(${array.sql})`;
      const holds = c.truth(value!);
      const part =
        name === 'arraySplit'
          ? sql`count(*) filter (where ${holds} and ${elements.n} > 1) over (order by ${elements.n} rows between unbounded preceding and current row)`
          : sql`coalesce(count(*) filter (where ${holds} and ${elements.n} < ${size}) over (order by ${elements.n} rows between unbounded preceding and 1 preceding), 0)`;
      const numbered = sql`(select ${elements.raw[0]!} as v, ${elements.n} as n, ${part} as g from ${elements.from}) hogql_p`;
      const parts = sql`(select hogql_p.g, jsonb_agg(hogql_p.v order by hogql_p.n) as a from ${numbered} group by hogql_p.g) hogql_g`;
      const fragment = sql`(select coalesce(jsonb_agg(hogql_g.a order by hogql_g.g), '[]'::jsonb) from ${parts})`;
      return { ...arrayOf(fragment, 'array', false, aggregate), elementShape: shapeOf(array) };
    },
  };
}

function sorting(name: string, descending: boolean): FunctionDef {
  return {
    name,
    minArgs: 1,
    maxArgs: Infinity,
    compile: (c, args) => {
      const { elements, value, aggregate } = higherOrder(c, args, name, false);
      const key = value ?? elements.items[0]!;
      const direction = keyword(descending ? 'desc nulls last' : 'asc nulls last');
      const order = sql`${sortKey(c, key)} ${direction}, ${elements.n}`;
      return sameElements(elements.arrays[0]!, collect(elements, elements.raw[0]!, null, order), aggregate);
    },
  };
}

/** A function of one array and the rows of its elements. */
function overOne(name: string, minArgs: number, maxArgs: number, build: (c: Compiler, elements: Elements, array: Typed, args: readonly Expr[]) => Typed): FunctionDef {
  return {
    name,
    minArgs,
    maxArgs,
    compile: (c, args) => {
      const array = arrayArg(c, arg(args, 0), name);
      const result = build(c, elementsOf(c, [array]), array, args);
      return { ...result, aggregate: result.aggregate || array.aggregate };
    },
  };
}

/** A value as a jsonb element beside `array`'s, refused when no common type holds both. */
function asElementOf(c: Compiler, array: Typed, value: Typed, fn: string): { value: Fragment; type: HogQLType; nullable: boolean } {
  const probe = typed(keyword('null'), elementType(array), elementsNullable(array));
  const type = elementType(array) === 'json' ? 'json' : commonElementType([probe, value], `${fn}()`);
  const converted = value.type === 'null' || value.type === 'array' || type === 'json' ? value : coerce(value, type, c.scope);
  return { value: toJsonb(converted, c.scope), type, nullable: (array.elementNullable ?? false) || value.nullable };
}

/** Whether the element row equals `value` (jsonb equality: 1 and 1.0 are equal, as numbers). */
function elementEquals(c: Compiler, elements: Elements, array: Typed, value: Typed, fn: string): Fragment {
  const { value: json } = asElementOf(c, array, value, fn);
  return sql`${elements.raw[0]!} = coalesce(${json}, 'null'::jsonb)`;
}

function concat(c: Compiler, arrays: readonly Typed[]): Typed {
  const probes = arrays.map((array) => typed(keyword('null'), elementType(array), false));
  const type = commonElementType(probes, 'arrayConcat()');
  const fragment = join(arrays.map((array) => sql`coalesce(${array.sql}, '[]'::jsonb)`), ' || ');
  // Arrays of tuples (or of arrays) holding the same types keep them: `arrayConcat(arrayZip(…), arrayZip(…))[1].1`.
  const shapes = new Set(arrays.map((array) => JSON.stringify(array.elementShape ?? null)));
  const elementShape = shapes.size === 1 ? arrays[0]!.elementShape : undefined;
  return {
    ...arrayOf(sql`(${fragment})`, type, false, arrays.some((array) => array.aggregate)),
    elementNullable: arrays.some((array) => elementsNullable(array)),
    ...(elementShape ? { elementShape } : {}),
  };
}

/** A length bound for range() and arrayResize(): a constant over the bound is refused, a computed one is cut at it. */
function boundedCount(c: Compiler, expr: Expr, fn: string): Fragment {
  if (expr.kind === 'constant' && typeof expr.value === 'number' && expr.value > rangeBound(c)) {
    throw new HogQLError(`${fn}() builds at most ${rangeBound(c)} elements${c.lambdaDepth > 0 ? ' inside a lambda' : ''}.`);
  }
  return coerce(c.compile(expr), 'int', c.scope).sql;
}

function range(c: Compiler, args: readonly Expr[]): Typed {
  const ints = args.map((expr) => coerce(c.numeric(c.compile(expr)), 'int', c.scope));
  const [start, end, step] = args.length === 1 ? [constant(0), ints[0]!, constant(1)] : [ints[0]!, ints[1]!, ints[2] ?? constant(1)];
  const bound = rangeBound(c);
  const constants = [start, end, step].map((value) => value.constant);
  if (constants.every((value) => typeof value === 'number')) {
    const [s, e, st] = constants as number[];
    if (st === 0) throw new HogQLError('The step of range() cannot be 0.');
    const count = Math.max(0, Math.ceil((e! - s!) / st!));
    if (count > bound) throw new HogQLError(`range() builds at most ${bound} elements${c.lambdaDepth > 0 ? ' inside a lambda' : ''}; this one would have ${count}.`);
  }
  // A computed range is cut at the bound: its last element is at most start + step × (bound − 1).
  const furthest = sql`${start.sql} + ${step.sql} * ${keyword(String(bound - 1))}`;
  const last = sql`(case when ${step.sql} > 0 then least(${end.sql} - 1, ${furthest}) else greatest(${end.sql} + 1, ${furthest}) end)`;
  const series = sql`generate_series(${start.sql}, ${last}, nullif(${step.sql}, 0))`;
  const parts = [start, end, step];
  return arrayOf(sql`(select coalesce(jsonb_agg(hogql_r.i order by hogql_r.n), '[]'::jsonb) from ${series} with ordinality hogql_r(i, n))`, 'int', parts.some((p) => p.nullable), parts.some((p) => p.aggregate));
}

/** empty, notEmpty: of an array, its length; of a string or a UUID, of its text. */
function emptiness(name: string, empty: boolean): FunctionDef {
  return {
    name,
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => {
      const value = c.compile(arg(args, 0));
      const op = keyword(empty ? '=' : '>');
      if (value.type === 'array') return flag(sql`coalesce(jsonb_array_length(${value.sql}), 0) ${op} 0`, value.aggregate);
      if (value.type === 'json') return flag(sql`coalesce(hogql_json_length(${value.sql}), 0) ${op} 0`, value.aggregate);
      // A UUID is empty when it is all zeros.
      if (value.type === 'uuid') return flag(sql`${value.sql} ${keyword(empty ? '=' : '<>')} '00000000-0000-0000-0000-000000000000'::uuid`, value.aggregate);
      const text = coerce(value, 'string', c.scope);
      return flag(sql`char_length(coalesce(${text.sql}, '')) ${op} 0`, text.aggregate);
    },
  };
}

/** The aggregates arrayReduce() names, each as the array function that computes it over an array. */
const REDUCERS: Readonly<Record<string, string>> = {
  sum: 'arraySum',
  min: 'arrayMin',
  max: 'arrayMax',
  avg: 'arrayAvg',
  uniq: 'arrayUniq',
  uniqexact: 'arrayUniq',
  count: 'length',
  groupuniqarray: 'arrayDistinct',
};

const DEFINITIONS: FunctionDef[] = [
  {
    name: 'arrayReduce',
    minArgs: 2,
    maxArgs: 2,
    compile: (c, args) => {
      const name = arg(args, 0);
      const target = name.kind === 'constant' && typeof name.value === 'string' ? ownEntry(REDUCERS, name.value.toLowerCase()) : undefined;
      if (target === undefined) {
        throw new HogQLError(`arrayReduce() takes one of the aggregates ${Object.keys(REDUCERS).join(', ')} as a string constant.`);
      }
      return c.call(target, [arg(args, 1)]);
    },
  },
  {
    name: 'array',
    minArgs: 0,
    maxArgs: Infinity,
    compile: (c, args) => buildArray(args.map((item) => c.compile(item)), c.scope, false),
  },
  {
    name: 'tuple',
    minArgs: 1,
    maxArgs: Infinity,
    compile: (c, args) => buildArray(args.map((item) => c.compile(item)), c.scope, true),
  },
  {
    name: 'tupleElement',
    minArgs: 2,
    maxArgs: 2,
    compile: (c, args) => elementOf(c.compile(arg(args, 0)), c.compile(arg(args, 1)), true, c.scope),
  },
  {
    name: 'arrayElement',
    minArgs: 2,
    maxArgs: 2,
    compile: (c, args) => {
      checkZeroIndex(arg(args, 0), arg(args, 1));
      return elementOf(c.compile(arg(args, 0)), c.compile(arg(args, 1)), false, c.scope);
    },
  },
  emptiness('empty', true),
  emptiness('notEmpty', false),
  emptiness('isEmpty', true),
  emptiness('isNotEmpty', false),
  {
    name: 'reverse',
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => {
      const value = c.compile(arg(args, 0));
      if (value.type === 'array' || value.type === 'json') return c.call('arrayReverse', args);
      const text = coerce(value, 'string', c.scope);
      return typed(sql`reverse(${text.sql})`, 'string', text.nullable, text.aggregate);
    },
  },
  { name: 'range', minArgs: 1, maxArgs: 3, compile: range },
  {
    name: 'arrayConcat',
    minArgs: 1,
    maxArgs: Infinity,
    compile: (c, args) => concat(c, args.map((expr) => arrayArg(c, expr, 'arrayConcat'))),
  },
  mapped(),
  filtered(),
  counting('arrayExists'),
  counting('arrayAll'),
  counting('arrayCount'),
  reduction('arraySum', 'sum'),
  reduction('arrayAvg', 'avg'),
  reduction('arrayMin', 'min'),
  reduction('arrayMax', 'max'),
  finding('arrayFirst', false, false),
  finding('arrayLast', true, false),
  finding('arrayFirstIndex', false, true),
  finding('arrayLastIndex', true, true),
  filling('arrayFill'),
  filling('arrayReverseFill'),
  splitting('arraySplit'),
  splitting('arrayReverseSplit'),
  sorting('arraySort', false),
  sorting('arrayReverseSort', true),
  overOne('arrayReverse', 1, 1, (_c, elements, array) => sameElements(array, collect(elements, elements.raw[0]!, null, sql`${elements.n} desc`), false)),
  {
    name: 'arrayZip',
    minArgs: 1,
    maxArgs: Infinity,
    compile: (c, args) => {
      // Arrays of different lengths, which ClickHouse refuses, are zipped with nulls for the missing elements.
      const arrays = args.map((expr) => arrayArg(c, expr, 'arrayZip'));
      const elements = elementsOf(c, arrays);
      const tuple = sql`jsonb_build_array(${join(elements.raw, ', ')})`;
      const tupleTypes = arrays.map((array) => elementType(array));
      const result = arrayOf(collect(elements, tuple, null), 'array', false, arrays.some((array) => array.aggregate));
      return { ...result, elementNullable: false, elementShape: { element: 'json', elementNullable: true, tupleTypes } };
    },
  },
  overOne('arrayDistinct', 1, 1, (_c, elements, array) => {
    // Each value once, where it first occurs; nulls are left out, as ClickHouse does.
    const firsts = sql`(select ${elements.raw[0]!} as v, min(${elements.n}) as n from ${elements.from} where ${elements.raw[0]!} <> 'null'::jsonb group by 1) hogql_d`;
    return sameElements(array, sql`(select coalesce(jsonb_agg(hogql_d.v order by hogql_d.n), '[]'::jsonb) from ${firsts})`, false);
  }),
  {
    name: 'arrayUniq',
    minArgs: 1,
    maxArgs: Infinity,
    compile: (c, args) => {
      const arrays = args.map((expr) => arrayArg(c, expr, 'arrayUniq'));
      const elements = elementsOf(c, arrays);
      const counted = arrays.length === 1 ? sql`nullif(${elements.raw[0]!}, 'null'::jsonb)` : sql`jsonb_build_array(${join(elements.raw, ', ')})`;
      return typed(sql`(select count(distinct ${counted}) from ${elements.from})`, 'int', false, arrays.some((array) => array.aggregate));
    },
  },
  overOne('arrayEnumerate', 1, 1, (_c, elements) => arrayOf(collect(elements, elements.n, null), 'int', false)),
  overOne('arrayEnumerateUniq', 1, 1, (_c, elements) => {
    // For each element, how many times its value has occurred up to it.
    const numbered = sql`(select ${elements.n} as n, row_number() over (partition by ${elements.raw[0]!} order by ${elements.n}) as k from ${elements.from}) hogql_u`;
    return arrayOf(sql`(select coalesce(jsonb_agg(hogql_u.k order by hogql_u.n), '[]'::jsonb) from ${numbered})`, 'int', false);
  }),
  overOne('arrayEnumerateDense', 1, 1, (_c, elements) => {
    // For each element, the rank of its value by where the value first occurs.
    const firsts = sql`(select ${elements.n} as n, min(${elements.n}) over (partition by ${elements.raw[0]!}) as f from ${elements.from}) hogql_f`;
    const ranked = sql`(select hogql_f.n, dense_rank() over (order by hogql_f.f) as k from ${firsts}) hogql_u`;
    return arrayOf(sql`(select coalesce(jsonb_agg(hogql_u.k order by hogql_u.n), '[]'::jsonb) from ${ranked})`, 'int', false);
  }),
  overOne('arrayCompact', 1, 1, (_c, elements, array) => {
    // Consecutive equal elements kept once.
    const marked = sql`(select ${elements.raw[0]!} as v, ${elements.n} as n, lag(${elements.raw[0]!}) over (order by ${elements.n}) as previous from ${elements.from}) hogql_c`;
    return sameElements(array, sql`(select coalesce(jsonb_agg(hogql_c.v order by hogql_c.n), '[]'::jsonb) from ${marked} where hogql_c.n = 1 or hogql_c.v <> hogql_c.previous)`, false);
  }),
  ...(['arrayPushBack', 'arrayPushFront'] as const).map(
    (name): FunctionDef => ({
      name,
      minArgs: 2,
      maxArgs: 2,
      compile: (c, args) => {
        const array = arrayArg(c, arg(args, 0), name);
        const item = asElementOf(c, array, c.compile(arg(args, 1)), name);
        const one = sql`jsonb_build_array(${item.value})`;
        const base = sql`coalesce(${array.sql}, '[]'::jsonb)`;
        const fragment = name === 'arrayPushBack' ? sql`(${base} || ${one})` : sql`(${one} || ${base})`;
        return { ...arrayOf(fragment, item.type, false, array.aggregate), elementNullable: item.nullable };
      },
    }),
  ),
  overOne('arrayPopBack', 1, 1, (_c, _elements, array) => sameElements(array, sql`(coalesce(${array.sql}, '[]'::jsonb) - (-1))`, false)),
  overOne('arrayPopFront', 1, 1, (_c, _elements, array) => sameElements(array, sql`(coalesce(${array.sql}, '[]'::jsonb) - 0)`, false)),
  overOne('arraySlice', 2, 3, (c, elements, array, args) => {
    // ClickHouse's positions: the offset from 1 (negative from the end, 0 gives nothing); a negative length
    // stops that many elements before the end.
    const offset = coerce(c.numeric(c.compile(arg(args, 1))), 'int', c.scope).sql;
    const size = sql`coalesce(jsonb_array_length(${array.sql}), 0)`;
    const start = sql`(case when ${offset} > 0 then ${offset} when ${offset} < 0 then ${size} + ${offset} + 1 end)`;
    let end: Fragment = size;
    if (args.length > 2) {
      const length = coerce(c.numeric(c.compile(arg(args, 2))), 'int', c.scope).sql;
      end = sql`(case when ${length} >= 0 then ${start} + ${length} - 1 else ${size} + ${length} end)`;
    }
    return sameElements(array, collect(elements, elements.raw[0]!, sql`${elements.n} between ${start} and ${end}`), false);
  }),
  overOne('arrayResize', 2, 3, (c, _elements, array, args) => {
    const size = boundedCount(c, arg(args, 1), 'arrayResize');
    if (arg(args, 1).kind === 'constant' && typeof (arg(args, 1) as { value: unknown }).value === 'number' && ((arg(args, 1) as { value: number }).value < 0)) {
      throw new HogQLError('arrayResize() takes a size of 0 or more here.');
    }
    const type = elementType(array);
    const extender = args.length > 2 ? asElementOf(c, array, c.compile(arg(args, 2)), 'arrayResize').value : toJsonb(typed(defaultOf(type) ?? keyword('null'), defaultOf(type) ? type : 'null', false), c.scope);
    const series = sql`generate_series(1, least(greatest(${size}, 0), ${keyword(String(rangeBound(c)))})) hogql_s(i)`;
    const fragment = sql`(select coalesce(jsonb_agg(coalesce(${array.sql} -> (hogql_s.i - 1)::int, ${extender}) order by hogql_s.i), '[]'::jsonb) from ${series})`;
    return sameElements(array, fragment, false);
  }),
  overOne('arrayFlatten', 1, 1, (_c, _elements, array) => {
    // Nested arrays unwrapped up to eight levels deep, in order (lax mode reads a scalar as its own array).
    const fragment = sql`coalesce(jsonb_path_query_array(${array.sql}, 'lax $[*][*][*][*][*][*][*][*]'), '[]'::jsonb)`;
    // The innermost elements' type, where every level's is known.
    let shape: ArrayShape | undefined = shapeOf(array);
    while (shape?.element === 'array' && shape.tupleTypes === undefined) shape = shape.elementShape;
    const element = shape && shape.tupleTypes === undefined ? (shape.element ?? 'json') : 'json';
    return { ...arrayOf(fragment, element, false), elementNullable: element === 'json' || shape?.elementNullable === true };
  }),
  {
    name: 'arrayIntersect',
    minArgs: 1,
    maxArgs: Infinity,
    compile: (c, args) => {
      const arrays = args.map((expr) => arrayArg(c, expr, 'arrayIntersect'));
      const elements = elementsOf(c, [arrays[0]!]);
      const others = arrays.slice(1).map((other) => sql`exists (select from jsonb_array_elements(${other.sql}) hogql_o(v) where hogql_o.v = ${elements.raw[0]!})`);
      const where = others.length > 0 ? sql` and ${join(others, ' and ')}` : keyword('');
      const firsts = sql`(select ${elements.raw[0]!} as v, min(${elements.n}) as n from ${elements.from} where ${elements.raw[0]!} <> 'null'::jsonb${where} group by 1) hogql_d`;
      const fragment = sql`(select coalesce(jsonb_agg(hogql_d.v order by hogql_d.n), '[]'::jsonb) from ${firsts})`;
      return { ...sameElements(arrays[0]!, fragment, arrays.some((array) => array.aggregate)) };
    },
  },
  overOne('arrayStringConcat', 1, 2, (c, elements, _array, args) => {
    const separator = args.length > 1 ? coerce(c.compile(arg(args, 1)), 'string', c.scope).sql : keyword("''");
    const text = sql`(case jsonb_typeof(${elements.raw[0]!}) when 'string' then ${elements.raw[0]!} #>> '{}' else (${elements.raw[0]!})::text end)`;
    const where = sql`${elements.raw[0]!} <> 'null'::jsonb`;
    return typed(sql`(select coalesce(string_agg(${text}, ${separator} order by ${elements.n}), '') from ${elements.from} where ${where})`, 'string', false);
  }),
  overOne('arrayCumSum', 1, 1, (c, elements) => {
    const number = numberOf(c, elements.items[0]!);
    const sums = sql`(select ${elements.n} as n, sum(${number.sql}) over (order by ${elements.n}) as s from ${elements.from}) hogql_s`;
    return arrayOf(sql`(select coalesce(jsonb_agg(hogql_s.s order by hogql_s.n), '[]'::jsonb) from ${sums})`, number.type, false);
  }),
  overOne('arrayCumSumNonNegative', 1, 1, (c, elements) => {
    // A running sum that restarts from 0 whenever it would go below: the plain running sum less its lowest
    // point so far (when that is below 0).
    const number = numberOf(c, elements.items[0]!);
    const sums = sql`(select ${elements.n} as n, sum(${number.sql}) over (order by ${elements.n}) as s from ${elements.from}) hogql_s`;
    const kept = sql`(select hogql_s.n, hogql_s.s - least(0, min(hogql_s.s) over (order by hogql_s.n)) as s from ${sums}) hogql_k`;
    return arrayOf(sql`(select coalesce(jsonb_agg(hogql_k.s order by hogql_k.n), '[]'::jsonb) from ${kept})`, number.type, false);
  }),
  overOne('arrayDifference', 1, 1, (c, elements) => {
    const number = numberOf(c, elements.items[0]!);
    const differences = sql`(select ${elements.n} as n, coalesce(${number.sql} - lag(${number.sql}) over (order by ${elements.n}), 0) as d from ${elements.from}) hogql_s`;
    return arrayOf(sql`(select coalesce(jsonb_agg(hogql_s.d order by hogql_s.n), '[]'::jsonb) from ${differences})`, number.type, false);
  }),
  {
    name: 'arrayWithConstant',
    minArgs: 2,
    maxArgs: 2,
    compile: (c, args) => {
      const size = boundedCount(c, arg(args, 0), 'arrayWithConstant');
      const value = c.compile(arg(args, 1));
      const series = sql`generate_series(1, least(greatest(${size}, 0), ${keyword(String(rangeBound(c)))})) hogql_s(i)`;
      const type = value.type === 'null' ? 'json' : value.type;
      return { ...arrayOf(sql`(select coalesce(jsonb_agg(coalesce(${toJsonb(value, c.scope)}, 'null'::jsonb)), '[]'::jsonb) from ${series})`, type, false, value.aggregate), elementNullable: value.nullable };
    },
  },
  ...(['arrayRotateLeft', 'arrayRotateRight'] as const).map((name) =>
    overOne(name, 2, 2, (c, elements, array, args) => {
      const shift = coerce(c.numeric(c.compile(arg(args, 1))), 'int', c.scope).sql;
      const size = sql`greatest(jsonb_array_length(${array.sql}), 1)`;
      const signed = name === 'arrayRotateLeft' ? sql`(${elements.n} - 1 - ${shift})` : sql`(${elements.n} - 1 + ${shift})`;
      const order = sql`((${signed} % ${size}) + ${size}) % ${size}`;
      return sameElements(array, collect(elements, elements.raw[0]!, null, order), false);
    }),
  ),
  overOne('has', 2, 2, (c, elements, array, args) => {
    const equal = elementEquals(c, elements, array, c.compile(arg(args, 1)), 'has');
    return flag(sql`exists (select from ${elements.from} where ${equal})`);
  }),
  ...(['hasAll', 'hasAny'] as const).map((name) =>
    overOne(name, 2, 2, (c, elements, _array, args) => {
      const wanted = arrayArg(c, arg(args, 1), name);
      // Every (some) element of the second array is in the first: the elements of the first are the rows.
      const inFirst = sql`exists (select from ${elements.from} where ${elements.raw[0]!} = hogql_x.v)`;
      const body =
        name === 'hasAll'
          ? sql`(not exists (select from jsonb_array_elements(${wanted.sql}) hogql_x(v) where not ${inFirst}))`
          : sql`exists (select from jsonb_array_elements(${wanted.sql}) hogql_x(v) where ${inFirst})`;
      return flag(body, wanted.aggregate);
    }),
  ),
  overOne('hasSubstr', 2, 2, (c, elements, array, args) => {
    // The second array occurs in the first as a contiguous run, in order.
    const wanted = arrayArg(c, arg(args, 1), 'hasSubstr');
    const mismatch = sql`exists (select from jsonb_array_elements(${wanted.sql}) with ordinality hogql_x(v, n) where (${array.sql} -> (${elements.n} + hogql_x.n - 2)::int) is distinct from hogql_x.v)`;
    const body = sql`(coalesce(jsonb_array_length(${wanted.sql}), 0) = 0 or exists (select from ${elements.from} where not ${mismatch}))`;
    return flag(body, wanted.aggregate);
  }),
  overOne('indexOf', 2, 2, (c, elements, array, args) => {
    const equal = elementEquals(c, elements, array, c.compile(arg(args, 1)), 'indexOf');
    return typed(sql`coalesce((select min(${elements.n}) from ${elements.from} where ${equal}), 0)::bigint`, 'int', false);
  }),
  overOne('countEqual', 2, 2, (c, elements, array, args) => {
    const equal = elementEquals(c, elements, array, c.compile(arg(args, 1)), 'countEqual');
    return typed(sql`(select count(*) from ${elements.from} where ${equal})`, 'int', false);
  }),
];

const NO_FOLD = 'it runs a lambda over an accumulator element after element, which a query over the elements as a set of rows cannot do exactly.';

export const ARRAYS: Family = {
  title: 'Arrays',
  definitions: DEFINITIONS,
  unavailable: {
    arrayAUC: 'ClickHouse defines its handling of ties and edge cases bit for bit; no exact equivalent here.',
    arrayFold: NO_FOLD,
    arrayProduct: 'PostgreSQL has no exact product aggregate (a product through logarithms is not exact).',
    generateSeries: 'it is a table function; use range(start, end, step) for an array of the same numbers.',
  },
};
