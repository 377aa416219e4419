/**
 * PostHog's aggregate functions (posthog/hogql/functions/aggregations.py) beyond the first ones (count, sum, avg,
 * min, max, uniq, any, argMin/argMax, groupArray, median, quantile and their If forms, which functions.ts and
 * select/functions.ts define). ClickHouse's aggregates skip null arguments; so do these, and a `…If` form is its
 * aggregate over the rows where the condition holds: each argument is null on the other rows.
 *
 * ClickHouse's approximate functions (uniqHLL12, uniqTheta, medianTDigest, …) are exact here: the same answer as
 * their exact forms, which is what an approximation aims at. Statistics ClickHouse answers as Float64
 * (variances, covariances, correlation, skewness, regression) follow its formulas over float8 sums, so that they
 * round as its do, and are written as the shortest text that reads back as the same float8, as it prints them.
 */
import type { Expr } from '../ast.js';
import { elementOf } from '../arrays.js';
import type { Compiler } from '../compiler.js';
import { HogQLError } from '../errors.js';
import type { FunctionDef } from '../functions.js';
// select/functions.ts imports the library, whose index imports this file: functionDefinition is only called at
// compile time, and this module is reached through library/index.ts, never imported first.
import { functionDefinition } from '../select/functions.js';
import { join, keyword, param, rowCount, sql, type Fragment } from '../sql.js';
import { arrayOf, coerce, constant, typed, type HogQLType, type Typed } from '../types.js';
import type { Family } from './index.js';

const NULL: Expr = { kind: 'constant', value: null };
const ONE: Expr = { kind: 'constant', value: 1 };

/** The arguments of a `…If` form: each value null where the condition (the last argument) does not hold. */
function onlyWhere(args: readonly Expr[]): Expr[] {
  const condition = args[args.length - 1]!;
  return args.slice(0, -1).map((value) => ({ kind: 'call', name: 'if', args: [condition, value, NULL] }));
}

/** Another function's definition, compiled here: the caller is the aggregate (so nesting is still refused). */
function compileAs(c: Compiler, name: string, args: readonly Expr[], params: readonly Expr[] = []): Typed {
  const definition = functionDefinition(name);
  if (!definition) throw new Error(`no function ${name}`);
  return definition.compile(c, args, params);
}

/** A value as an aggregate reads it: JSON nulls are SQL nulls. */
function rowValue(value: Typed): Fragment {
  return value.type === 'json' ? sql`nullif(${value.sql}, 'null'::jsonb)` : value.sql;
}

/** A number for a statistic, in float8 as ClickHouse's Float64. */
function float64(c: Compiler, expr: Expr): Fragment {
  return sql`(${coerce(c.numeric(c.compile(expr)), 'float', c.scope).sql})::float8`;
}

/** A float8 result as the shortest text that reads back as it (as ClickHouse prints a Float64); NaN as null. */
function printedFloat(fragment: Fragment): Fragment {
  return sql`nullif(((${fragment})::float8)::text, 'NaN')::numeric`;
}

function numberFromJson(element: Fragment): Fragment {
  return sql`hogql_to_number(${element})`;
}

/**
 * A value as an element of an array an aggregate builds: a property as its text, as PostHog's properties are
 * strings (1 and "1" are one value "1"); null where it is missing.
 */
function asElement(value: Typed): { sql: Fragment; element: HogQLType } {
  if (value.type === 'json') return { sql: sql`to_jsonb(nullif(${value.sql}, 'null'::jsonb) #>> '{}')`, element: 'string' };
  return { sql: sql`to_jsonb(${value.sql})`, element: value.type === 'null' ? 'json' : value.type };
}

function constantNumber(expr: Expr | undefined, what: string, low: number, high: number, integer: boolean): number {
  if (!expr || expr.kind !== 'constant' || typeof expr.value !== 'number' || expr.value < low || expr.value > high || (integer && !Number.isInteger(expr.value))) {
    throw new HogQLError(`${what} must be ${integer ? 'an integer' : 'a number'} constant from ${low} to ${high}.`);
  }
  return expr.value;
}

// Combinators ---------------------------------------------------------------------------------------------------

/** The bases PostHog combines with suffixes (COMBINATOR_AGGREGATIONS), each also over arrays' elements (…Array). */
interface CombinedBase {
  name: string;
  /** The function that aggregates rows (countDistinct is uniq). */
  rows: string;
  /** The least and most arguments of the base (count takes none or one). */
  args: readonly [number, number];
  /** The aggregate over elements of the arrays (jsonb values named by `element`), skipping JSON nulls. */
  overElements(element: Fragment): { sql: Fragment; type: HogQLType };
}

const COMBINED_BASES: readonly CombinedBase[] = [
  { name: 'sum', rows: 'sum', args: [1, 1], overElements: (e) => ({ sql: sql`coalesce(sum(${numberFromJson(e)}), 0)`, type: 'float' }) },
  { name: 'avg', rows: 'avg', args: [1, 1], overElements: (e) => ({ sql: sql`avg(${numberFromJson(e)})`, type: 'float' }) },
  { name: 'min', rows: 'min', args: [1, 1], overElements: (e) => ({ sql: sql`min(${numberFromJson(e)})`, type: 'float' }) },
  { name: 'max', rows: 'max', args: [1, 1], overElements: (e) => ({ sql: sql`max(${numberFromJson(e)})`, type: 'float' }) },
  { name: 'count', rows: 'count', args: [0, 1], overElements: (e) => ({ sql: sql`count(nullif(${e}, 'null'::jsonb))`, type: 'int' }) },
  { name: 'countDistinct', rows: 'uniq', args: [1, 1], overElements: (e) => ({ sql: sql`count(distinct nullif(${e}, 'null'::jsonb))`, type: 'int' }) },
  {
    name: 'median',
    rows: 'median',
    args: [1, 1],
    overElements: (e) => ({ sql: sql`percentile_cont(0.5) within group (order by ${numberFromJson(e)})`, type: 'float' }),
  },
];

/** Names the other tables define already (they keep their definitions). */
const DEFINED_ELSEWHERE = new Set(['sum', 'avg', 'min', 'max', 'count', 'countdistinct', 'median', 'sumif', 'avgif', 'minif', 'maxif', 'countif']);

type Suffix = 'Array' | 'ForEach' | 'OrNull' | 'OrDefault' | 'If';

/** The suffix chains PostHog generates that run here: an optional Array or ForEach, then OrNull or OrDefault, then If. */
const RUNNING_CHAINS: readonly (readonly Suffix[])[] = (['ForEach', 'Array', null] as const)
  .flatMap((over) => (['OrNull', 'OrDefault', null] as const).flatMap((empty) => [false, true].map((conditional) => [over, empty, conditional && 'If'])))
  .map((chain) => chain.filter((suffix): suffix is Suffix => typeof suffix === 'string'))
  .filter((chain) => chain.length > 0);

const REFUSED_COMBINATORS: Readonly<Record<string, string>> = {
  State: 'the -State combinator returns ClickHouse’s internal aggregation state, which has no form here.',
  Merge: 'the -Merge combinator reads ClickHouse’s internal aggregation states, which are never stored here.',
  Map: 'the -Map combinator aggregates ClickHouse Map values, and HogQL values here have no Map type.',
  ArgMin: 'the -ArgMin combinator is not implemented here; use argMin() on a grouped subquery.',
  ArgMax: 'the -ArgMax combinator is not implemented here; use argMax() on a grouped subquery.',
};

/** The default of a result type, as ClickHouse's -OrDefault gives for nothing to aggregate. */
function defaultOf(type: HogQLType): Fragment | null {
  switch (type) {
    case 'int':
    case 'float':
      return keyword('0');
    case 'string':
      return keyword("''");
    case 'boolean':
      return keyword('false');
    default:
      return null;
  }
}

function combined(base: CombinedBase, chain: readonly Suffix[]): FunctionDef {
  const name = base.name + chain.join('');
  const conditional = chain.includes('If');
  const overArrays = chain.includes('Array') || chain.includes('ForEach');
  const extra = conditional ? 1 : 0;
  const [minArgs, maxArgs] = overArrays ? [1 + extra, 1 + extra] : [base.args[0] + extra, base.args[1] + extra];
  return {
    name,
    minArgs,
    maxArgs,
    aggregate: true,
    compile: (c, args) => {
      let values = conditional ? onlyWhere(args) : [...args];
      if (overArrays) {
        const list = coerce(c.compile(values[0]!), 'array', c.scope);
        const rows = sql`coalesce(jsonb_agg(${list.sql}) filter (where jsonb_typeof(${list.sql}) = 'array'), '[]'::jsonb)`;
        const element = keyword('hogql_array_element');
        const result = base.overElements(element);
        if (chain.includes('ForEach')) {
          // An aggregate per position, over the arrays long enough to have it: as long as the longest array.
          const positions = sql`(select hogql_position, ${result.sql} as hogql_value from jsonb_array_elements(${rows}) as hogql_array_rows(hogql_array), jsonb_array_elements(hogql_array_rows.hogql_array) with ordinality as hogql_array_elements(hogql_array_element, hogql_position) group by hogql_position)`;
          const each = sql`(select coalesce(jsonb_agg(hogql_value order by hogql_position), '[]'::jsonb) from ${positions} as hogql_positions)`;
          if (!chain.includes('OrNull')) return arrayOf(each, result.type, false);
          return arrayOf(sql`(case when jsonb_array_length(${rows}) = 0 then null else ${each} end)`, result.type, true);
        }
        let body = result.sql;
        if (chain.includes('OrNull')) body = sql`(case when count(*) = 0 then null else ${body} end)`;
        const fallback = defaultOf(result.type);
        if (chain.includes('OrDefault') && fallback) body = sql`coalesce(${body}, ${fallback})`;
        const query = sql`(select ${body} from jsonb_array_elements(${rows}) as hogql_array_rows(hogql_array), jsonb_array_elements(hogql_array_rows.hogql_array) as hogql_array_elements(hogql_array_element) where jsonb_typeof(hogql_array_element) <> 'null')`;
        return typed(query, result.type, !(result.type === 'int' && !chain.includes('OrNull')) && !chain.includes('OrDefault'));
      }
      // countIf(cond): count() over the rows where the condition holds.
      if (base.name === 'count' && values.length === 0 && conditional) values = onlyWhere([ONE, args[0]!]);
      const result = compileAs(c, base.rows, values);
      let body = result.sql;
      let nullable = result.nullable;
      if (chain.includes('OrNull')) {
        const counted = values.length > 0 ? sql`count(${rowValue(c.compile(values[0]!))})` : keyword('count(*)');
        body = sql`(case when ${counted} = 0 then null else ${body} end)`;
        nullable = true;
      }
      const fallback = defaultOf(result.type);
      if (chain.includes('OrDefault') && fallback) {
        body = sql`coalesce(${body}, ${fallback})`;
        nullable = false;
      }
      return { ...typed(body, result.type, nullable), element: result.element };
    },
  };
}

/** Every name PostHog generates from the bases and suffixes (aggregations.py's rules), with the first suffix that is refused. */
function generatedNames(): { name: string; refused: string | null }[] {
  const next: Readonly<Record<string, readonly string[]>> = {
    If: [],
    Array: ['If', 'OrDefault', 'OrNull'],
    Map: ['If', 'OrDefault', 'OrNull'],
    State: ['If', 'OrDefault', 'OrNull'],
    Merge: ['If', 'OrDefault', 'OrNull'],
    ForEach: ['If', 'OrDefault', 'OrNull'],
    OrDefault: ['If'],
    OrNull: ['If'],
    ArgMin: ['If', 'OrDefault', 'OrNull'],
    ArgMax: ['If', 'OrDefault', 'OrNull'],
  };
  const names: { name: string; refused: string | null }[] = [];
  const walk = (base: string, chain: string[]) => {
    if (chain.length > 0) names.push({ name: base + chain.join(''), refused: chain.find((suffix) => Object.hasOwn(REFUSED_COMBINATORS, suffix)) ?? null });
    const following = chain.length === 0 ? Object.keys(next) : next[chain[chain.length - 1]!]!;
    for (const suffix of following) if (!chain.includes(suffix)) walk(base, [...chain, suffix]);
  };
  for (const base of COMBINED_BASES) walk(base.name, []);
  return names;
}

// Other aggregates ------------------------------------------------------------------------------------------------

/** `nameIf(…, cond)`: `target(…)` over the rows where cond holds (`args` values, or any number of them: Infinity). */
function withCondition(name: string, target: string, args: number, params?: readonly [number, number]): FunctionDef {
  return { name, minArgs: args === Infinity ? 2 : args + 1, maxArgs: args + 1, aggregate: true, params, compile: (c, all, ps) => compileAs(c, target, onlyWhere(all), ps) };
}

/** Both `name` and `nameIf`. */
function withIf(definition: FunctionDef): FunctionDef[] {
  const { name, minArgs, maxArgs } = definition;
  const conditional: FunctionDef = {
    name: `${name}If`,
    minArgs: minArgs + 1,
    maxArgs: maxArgs + 1,
    aggregate: true,
    params: definition.params,
    compile: (c, args, params) => definition.compile(c, onlyWhere(args), params),
  };
  return [definition, conditional];
}

/** Same as `target`, under another name (uniqHLL12 is uniq here). */
function sameAs(name: string, target: string, minArgs: number, maxArgs: number): FunctionDef {
  return { name, minArgs, maxArgs, aggregate: true, compile: (c, args, params) => compileAs(c, target, args, params) };
}

/**
 * The sums of powers ClickHouse's simple statistics keep (count, Σx, Σx², …, Σy, Σxy, Σy²), in float8 over the rows
 * where every argument is present; the statistics are its formulas over them, so that they round as its do.
 */
interface Sums {
  n: Fragment;
  x: Fragment;
  xx: Fragment;
  xxx: Fragment;
  xxxx: Fragment;
  y: Fragment;
  xy: Fragment;
  yy: Fragment;
}

function statistic(name: string, arity: 1 | 2, formula: (sums: Sums) => Fragment): FunctionDef {
  return {
    name,
    minArgs: arity,
    maxArgs: arity,
    aggregate: true,
    compile: (c, args) => {
      const x = float64(c, args[0]!);
      const y = arity === 2 ? float64(c, args[1]!) : keyword('0::float8');
      const present = arity === 2 ? sql` filter (where ${x} is not null and ${y} is not null)` : keyword('');
      const sum = (value: Fragment) => sql`sum(${value})${present}`;
      const sums: Sums = {
        // A count of none is null, so that every formula dividing by it is null (ClickHouse's nan).
        n: sql`nullif(count(${x})${present}, 0)::float8`,
        x: sum(x),
        xx: sum(sql`${x} * ${x}`),
        xxx: sum(sql`${x} * ${x} * ${x}`),
        xxxx: sum(sql`${x} * ${x} * ${x} * ${x}`),
        y: sum(y),
        xy: sum(sql`${x} * ${y}`),
        yy: sum(sql`${y} * ${y}`),
      };
      return typed(printedFloat(formula(sums)), 'float', true);
    },
  };
}

const populationVariance = ({ n, x, xx }: Sums) => sql`((${xx} - ${x} * ${x} / ${n}) / ${n})`;
const sampleVariance = ({ n, x, xx }: Sums) => sql`((${xx} - ${x} * ${x} / ${n}) / nullif(${n} - 1, 0))`;
const positive = (value: Fragment) => sql`nullif(greatest(${value}, 0), 0)`;
const thirdMoment = ({ n, x, xx, xxx }: Sums) => sql`((${xxx} - (3 * ${xx} - 2 * ${x} * ${x} / ${n}) * ${x} / ${n}) / ${n})`;
const fourthMoment = ({ n, x, xx, xxx, xxxx }: Sums) =>
  sql`((${xxxx} - (4 * ${xxx} - (6 * ${xx} - 3 * ${x} * ${x} / ${n}) * ${x} / ${n}) * ${x} / ${n}) / ${n})`;

const varPop = statistic('varPop', 1, (sums) => populationVariance(sums));
const varSamp = statistic('varSamp', 1, (sums) => sampleVariance(sums));
const stddevPop = statistic('stddevPop', 1, (sums) => sql`sqrt(greatest(${populationVariance(sums)}, 0))`);
const stddevSamp = statistic('stddevSamp', 1, (sums) => sql`sqrt(greatest(${sampleVariance(sums)}, 0))`);
const covarPop = statistic('covarPop', 2, ({ n, x, y, xy }) => sql`((${xy} - ${x} * ${y} / ${n}) / ${n})`);
const covarSamp = statistic('covarSamp', 2, ({ n, x, y, xy }) => sql`((${xy} - ${x} * ${y} / ${n}) / nullif(${n} - 1, 0))`);
const corr = statistic(
  'corr',
  2,
  ({ n, x, y, xy, xx, yy }) => sql`((${n} * ${xy} - ${x} * ${y}) / nullif(sqrt(greatest((${n} * ${xx} - ${x} * ${x}) * (${n} * ${yy} - ${y} * ${y}), 0)), 0))`,
);
// Skewness and kurtosis: the central moment over n, divided by the population's variance (over n) or the
// sample's (over n - 1) to the power 1.5 or 2, as ClickHouse divides them; no answer for no spread.
const skewPop = statistic('skewPop', 1, (sums) => sql`(${thirdMoment(sums)} / power(${positive(populationVariance(sums))}, 1.5))`);
const skewSamp = statistic('skewSamp', 1, (sums) => sql`(${thirdMoment(sums)} / power(${positive(sampleVariance(sums))}, 1.5))`);
const kurtPop = statistic('kurtPop', 1, (sums) => sql`(${fourthMoment(sums)} / power(${positive(populationVariance(sums))}, 2))`);
const kurtSamp = statistic('kurtSamp', 1, (sums) => sql`(${fourthMoment(sums)} / power(${positive(sampleVariance(sums))}, 2))`);

/** medianExactLow/High: the lower or upper middle value of the sorted values (the same one for an odd count). */
function middle(name: string, upper: boolean): FunctionDef {
  return {
    name,
    minArgs: 1,
    maxArgs: 1,
    aggregate: true,
    compile: (c, args) => {
      const value = coerce(c.numeric(c.compile(args[0]!)), 'float', c.scope);
      const v = value.sql;
      const sorted = sql`(array_agg(${v} order by ${v}) filter (where ${v} is not null))`;
      const index = upper ? sql`(count(${v}) / 2 + 1)::int` : sql`((count(${v}) + 1) / 2)::int`;
      return typed(sql`${sorted}[${index}]`, 'float', true);
    },
  };
}

function quantileLevel(expr: Expr | undefined, fn: string): number {
  return constantNumber(expr, `The level of ${fn}()`, 0, 1, false);
}

/** quantileExact(level)(x): the value at position floor(level × n) of the sorted values (the last one for level 1). */
const quantileExact: FunctionDef = {
  name: 'quantileExact',
  minArgs: 1,
  maxArgs: 1,
  params: [1, 1],
  aggregate: true,
  compile: (c, args, params) => {
    const level = quantileLevel(params[0], 'quantileExact');
    const v = coerce(c.numeric(c.compile(args[0]!)), 'float', c.scope).sql;
    const sorted = sql`(array_agg(${v} order by ${v}) filter (where ${v} is not null))`;
    const index = sql`least(floor(${param(level, 'float8')} * count(${v}))::int + 1, count(${v})::int)`;
    return typed(sql`${sorted}[${index}]`, 'float', true);
  },
};

const quantiles: FunctionDef = {
  name: 'quantiles',
  minArgs: 1,
  maxArgs: 1,
  params: [1, 100],
  aggregate: true,
  compile: (c, args, params) => {
    const levels = params.map((level) => param(quantileLevel(level, 'quantiles'), 'float8'));
    const v = float64(c, args[0]!);
    const body = sql`percentile_cont(array[${join(levels, ', ')}]) within group (order by ${v})`;
    // No values: a null for each level (ClickHouse's nan, which JSON cannot hold).
    const empty = sql`to_jsonb(array[${join(levels.map(() => keyword('null::float8')), ', ')}])`;
    return arrayOf(sql`coalesce(to_jsonb(${body}), ${empty})`, 'float', false);
  },
};

/** The most frequent values, most frequent first (ties by value): exact here, where ClickHouse's topK estimates. */
const topK: FunctionDef = {
  name: 'topK',
  minArgs: 1,
  maxArgs: 1,
  params: [1, 1],
  aggregate: true,
  compile: (c, args, params) => {
    const limit = constantNumber(params[0], 'The number of values of topK()', 1, 10_000, true);
    const value = c.compile(args[0]!);
    const { sql: v, element } = asElement(value);
    const all = sql`coalesce(jsonb_agg(${v}) filter (where ${v} is not null), '[]'::jsonb)`;
    const counted = sql`(select hogql_top_value, count(*) as hogql_top_count from jsonb_array_elements(${all}) as hogql_top_values(hogql_top_value) group by hogql_top_value order by hogql_top_count desc, hogql_top_value limit ${rowCount(limit)})`;
    const list = sql`(select coalesce(jsonb_agg(hogql_top_value order by hogql_top_count desc, hogql_top_value), '[]'::jsonb) from ${counted} as hogql_top)`;
    return arrayOf(list, element, false);
  },
};

const groupUniqArray: FunctionDef = {
  name: 'groupUniqArray',
  minArgs: 1,
  maxArgs: 1,
  aggregate: true,
  compile: (c, args) => {
    const value = c.compile(args[0]!);
    const { sql: v, element } = asElement(value);
    return arrayOf(sql`coalesce(jsonb_agg(distinct ${v}) filter (where ${v} is not null), '[]'::jsonb)`, element, false);
  },
};

/** groupUniqArrayArray([max_size])(arrays): the distinct elements of all the arrays (at most max_size of them). */
const groupUniqArrayArray: FunctionDef = {
  name: 'groupUniqArrayArray',
  minArgs: 1,
  maxArgs: 1,
  params: [0, 1],
  aggregate: true,
  compile: (c, args, params) => {
    const limit = params.length > 0 ? constantNumber(params[0], 'The size of groupUniqArrayArray()', 1, 1_000_000, true) : null;
    const list = coerce(c.compile(args[0]!), 'array', c.scope);
    const rows = sql`coalesce(jsonb_agg(${list.sql}) filter (where jsonb_typeof(${list.sql}) = 'array'), '[]'::jsonb)`;
    const limited = limit === null ? keyword('') : sql` limit ${rowCount(limit)}`;
    const distinct = sql`(select distinct hogql_array_element from jsonb_array_elements(${rows}) as hogql_array_rows(hogql_array), jsonb_array_elements(hogql_array_rows.hogql_array) as hogql_array_elements(hogql_array_element) where jsonb_typeof(hogql_array_element) <> 'null' order by hogql_array_element${limited})`;
    return arrayOf(sql`(select coalesce(jsonb_agg(hogql_array_element order by hogql_array_element), '[]'::jsonb) from ${distinct} as hogql_distinct)`, list.element ?? 'json', false);
  },
};

function groupBit(name: string, sqlName: 'bit_and' | 'bit_or' | 'bit_xor'): FunctionDef {
  return {
    name,
    minArgs: 1,
    maxArgs: 1,
    aggregate: true,
    compile: (c, args) => {
      const value = coerce(c.numeric(c.compile(args[0]!)), 'int', c.scope);
      return typed(sql`coalesce(${keyword(sqlName)}(${value.sql}), 0)`, 'int', false);
    },
  };
}

const anyLast: FunctionDef = {
  name: 'anyLast',
  minArgs: 1,
  maxArgs: 1,
  aggregate: true,
  compile: (c, args) => {
    const value = c.compile(args[0]!);
    const v = rowValue(value);
    const values = sql`(array_agg(${v}) filter (where ${v} is not null))`;
    return { ...typed(sql`${values}[cardinality(${values})]`, value.type, true), element: value.element };
  },
};

/** The most frequent value (the least of those tied): exact here, where ClickHouse's anyHeavy estimates. */
const anyHeavy: FunctionDef = {
  name: 'anyHeavy',
  minArgs: 1,
  maxArgs: 1,
  aggregate: true,
  compile: (c, args) => {
    const value = c.compile(args[0]!);
    return { ...typed(sql`mode() within group (order by ${rowValue(value)})`, value.type, true), element: value.element };
  },
};

const avgWeighted: FunctionDef = {
  name: 'avgWeighted',
  minArgs: 2,
  maxArgs: 2,
  aggregate: true,
  compile: (c, args) => {
    const [x, w] = args.map((value) => coerce(c.numeric(c.compile(value)), 'float', c.scope).sql) as [Fragment, Fragment];
    const both = sql`${x} is not null and ${w} is not null`;
    return typed(sql`(sum(${x} * ${w}) filter (where ${both}) / nullif(sum(${w}) filter (where ${both}), 0))`, 'float', true);
  },
};

/** simpleLinearRegression(x, y): (k, b) of y = kx + b by least squares. */
const simpleLinearRegression: FunctionDef = {
  ...statistic('simpleLinearRegression', 2, () => keyword('null')),
  compile: (c, args) => {
    const parts = (formula: (sums: Sums) => Fragment) => statistic('simpleLinearRegression', 2, formula).compile(c, args, []).sql;
    const slope = ({ n, x, y, xy, xx }: Sums) => sql`((${xy} - ${x} * ${y} / ${n}) / nullif(${xx} - ${x} * ${x} / ${n}, 0))`;
    const intercept = (sums: Sums) => sql`((${sums.y} - ${slope(sums)} * ${sums.x}) / ${sums.n})`;
    return arrayOf(sql`jsonb_build_array(${parts(slope)}, ${parts(intercept)})`, 'float', false);
  },
};

const stringAgg: FunctionDef = {
  name: 'string_agg',
  minArgs: 2,
  maxArgs: 2,
  aggregate: true,
  compile: (c, args) => {
    const separator = args[1]!;
    if (separator.kind !== 'constant' || typeof separator.value !== 'string') throw new HogQLError('The separator of string_agg() must be a string constant.');
    const text = coerce(c.compile(args[0]!), 'string', c.scope);
    return typed(sql`coalesce(string_agg(${text.sql}, ${param(separator.value, 'text')}), '')`, 'string', false);
  },
};

const every: FunctionDef = {
  name: 'every',
  minArgs: 1,
  maxArgs: 1,
  aggregate: true,
  compile: (c, args) => {
    const value = coerce(c.compile(args[0]!), 'boolean', c.scope);
    return typed(sql`coalesce(bool_and(${value.sql}), false)`, 'boolean', false);
  },
};

const groupBitmap: FunctionDef = {
  name: 'groupBitmap',
  minArgs: 1,
  maxArgs: 1,
  aggregate: true,
  compile: (c, args) => {
    const value = coerce(c.numeric(c.compile(args[0]!)), 'int', c.scope);
    return typed(sql`count(distinct ${value.sql})`, 'int', false);
  },
};

/** A number, exact (numeric). */
function exact(c: Compiler, expr: Expr): Fragment {
  return coerce(c.numeric(c.compile(expr)), 'float', c.scope).sql;
}

/**
 * maxIntersections(start, end) and maxIntersectionsPosition(start, end): over the intervals (an interval with a
 * null or zero end skipped, as ClickHouse skips it), the most that overlap at one point, and the first point where
 * that many do. Points are swept in order, an interval's end before another's start at the same point, so
 * intervals that only touch do not overlap.
 */
function intersections(name: string, answer: 'count' | 'position'): FunctionDef {
  return {
    name,
    minArgs: 2,
    maxArgs: 2,
    aggregate: true,
    compile: (c, args) => {
      const [start, end] = [exact(c, args[0]!), exact(c, args[1]!)];
      const kept = sql`${start} is not null and ${start} <> 0 and ${end} is not null and ${end} <> 0`;
      const intervals = sql`coalesce(jsonb_agg(jsonb_build_array(${start}, ${end})) filter (where ${kept}), '[]'::jsonb)`;
      const points = sql`(select hogql_point, sum(hogql_change) over (order by hogql_point, hogql_change rows unbounded preceding) as hogql_open from jsonb_array_elements(${intervals}) as hogql_intervals(hogql_interval), lateral (values ((hogql_interval ->> 0)::numeric, 1), ((hogql_interval ->> 1)::numeric, -1)) as hogql_points(hogql_point, hogql_change))`;
      if (answer === 'count') return typed(sql`(select coalesce(max(hogql_open), 0)::bigint from ${points} as hogql_sweep)`, 'int', false);
      return typed(sql`coalesce((select hogql_point from ${points} as hogql_sweep order by hogql_open desc, hogql_point limit 1), 0)`, 'float', false);
    },
  };
}

/** A moment or a number as a numeric that orders as it does (a DateTime in seconds, a Date in days). */
function orderingNumber(c: Compiler, expr: Expr, what: string): Fragment {
  const value = c.compile(expr);
  if (value.type === 'datetime') return sql`extract(epoch from ${value.sql})`;
  if (value.type === 'date') return sql`(${value.sql} - date '1970-01-01')::numeric`;
  if (['int', 'float', 'json', 'boolean'].includes(value.type)) return coerce(c.numeric(value), 'float', c.scope).sql;
  throw new HogQLError(`${what} must be a DateTime, a Date or a number.`);
}

/** deltaSumTimestamp(value, timestamp): the sum of the rises from each value to the next, in timestamp order. */
const deltaSumTimestamp: FunctionDef = {
  name: 'deltaSumTimestamp',
  minArgs: 2,
  maxArgs: 2,
  aggregate: true,
  compile: (c, args) => {
    const value = exact(c, args[0]!);
    const at = orderingNumber(c, args[1]!, 'The timestamp of deltaSumTimestamp()');
    const pairs = sql`coalesce(jsonb_agg(jsonb_build_array(${at}, ${value})) filter (where ${at} is not null and ${value} is not null), '[]'::jsonb)`;
    const steps = sql`(select (hogql_pair ->> 1)::numeric - lag((hogql_pair ->> 1)::numeric) over (order by (hogql_pair ->> 0)::numeric, hogql_order) as hogql_step from jsonb_array_elements(${pairs}) with ordinality as hogql_pairs(hogql_pair, hogql_order))`;
    return typed(sql`(select coalesce(sum(greatest(hogql_step, 0)), 0) from ${steps} as hogql_steps)`, 'float', false);
  },
};

/** ClickHouse's most conditions of windowFunnel(). */
const MAX_FUNNEL_STEPS = 32;

/**
 * windowFunnel(window)(timestamp, cond1, cond2, …): the furthest step reached of a funnel whose steps all come
 * within `window` of its first (hogql_window_funnel, migration 20261129110000, runs ClickHouse's default mode). A
 * DateTime counts in whole seconds (as ClickHouse's DateTime), a Date in days, a number as it is.
 */
const windowFunnel: FunctionDef = {
  name: 'windowFunnel',
  minArgs: 2,
  maxArgs: MAX_FUNNEL_STEPS + 1,
  params: [1, 4],
  aggregate: true,
  compile: (c, args, params) => {
    if (params.length > 1) {
      throw new HogQLError('windowFunnel() runs in its default mode only: its modes (strict_deduplication, strict_order, strict_increase, …) are not supported.');
    }
    const window = constantNumber(params[0], 'The window of windowFunnel()', 0, Number.MAX_SAFE_INTEGER, true);
    const moment = c.compile(args[0]!);
    // A DateTime in whole seconds, as ClickHouse's DateTime.
    const at = moment.type === 'datetime' ? sql`floor(extract(epoch from ${moment.sql}))` : orderingNumber(c, args[0]!, 'The timestamp of windowFunnel()');
    const conditions = args.slice(1).map((condition, index) => sql`(case when ${c.condition(condition)} then ${keyword(String(2 ** index))} else 0 end)`);
    const mask = sql`(${join(conditions, ' | ')})::bigint`;
    const events = sql`jsonb_agg(jsonb_build_array(${at}, ${mask})) filter (where ${at} is not null and ${mask} <> 0)`;
    return typed(sql`hogql_window_funnel(${param(window, 'numeric')}, ${keyword(String(conditions.length))}, ${events})`, 'int', false);
  },
};

/**
 * sumMap(keys, values…), minMap and maxMap: ClickHouse's aggregates over arrays of keys and arrays of values
 * (position by position), answering a tuple of the keys in order and, for each array of values, the sum (least,
 * greatest) of the values of each key. Keys sort as ClickHouse sorts them: numbers by value, text by its bytes.
 */
function mappedArrays(name: string, sqlName: 'sum' | 'min' | 'max'): FunctionDef {
  return {
    name,
    minArgs: 1,
    maxArgs: 1 + MAX_MAPPED_VALUES,
    aggregate: true,
    compile: (c, args) => {
      const [keys, ...values] = args.length === 1 ? tupleOfArrays(c, args[0]!, name) : args.map((expr) => coerce(c.compile(expr), 'array', c.scope));
      const keyType = keys!.element ?? 'json';
      const rows = sql`coalesce(jsonb_agg(jsonb_build_array(${join([keys!.sql, ...values.map((value) => value.sql)], ', ')})) filter (where jsonb_typeof(${keys!.sql}) = 'array'), '[]'::jsonb)`;
      const keyOrder =
        keyType === 'string' ? keyword(`(hogql_key #>> '{}') collate "C"`) : keyType === 'int' || keyType === 'float' ? keyword(`(hogql_key #>> '{}')::numeric`) : keyword('hogql_key');
      const totals = values.map((value, index) => {
        const element = sql`(hogql_map_row -> ${rowCount(index + 1)} -> (hogql_position::int - 1))`;
        // Text is compared by its bytes for min and max; everything else is a number.
        if (sqlName !== 'sum' && value.element === 'string') return { sql: sql`to_jsonb(${keyword(sqlName)}((${element} #>> '{}') collate "C"))`, type: 'string' as HogQLType };
        const type: HogQLType = value.element === 'int' ? 'int' : 'float';
        return { sql: sql`to_jsonb(${keyword(sqlName)}(${numberFromJson(element)}))`, type };
      });
      const grouped = sql`(select hogql_key, ${join(totals.map((total, index) => sql`${total.sql} as ${keyword(`hogql_total_${index}`)}`), ', ')} from jsonb_array_elements(${rows}) as hogql_map_rows(hogql_map_row), jsonb_array_elements(hogql_map_row -> 0) with ordinality as hogql_map_keys(hogql_key, hogql_position) where jsonb_typeof(hogql_key) <> 'null' group by hogql_key)`;
      const arrays = [keyword('hogql_key'), ...totals.map((_total, index) => keyword(`hogql_total_${index}`))].map((column) => sql`coalesce(jsonb_agg(${column} order by ${keyOrder}), '[]'::jsonb)`);
      const tuple = sql`(select jsonb_build_array(${join(arrays, ', ')}) from ${grouped} as hogql_map)`;
      const tupleShapes = [{ element: keyType }, ...totals.map((total) => ({ element: total.type }))];
      return { ...arrayOf(tuple, 'array', false), elementNullable: false, tupleTypes: [keys!.type, ...values.map(() => 'array' as HogQLType)], tupleShapes };
    },
  };
}

/** sumMap((keys, values…)): the arrays of a tuple, as the arguments they stand for. */
function tupleOfArrays(c: Compiler, expr: Expr, name: string): Typed[] {
  const tuple = c.compile(expr);
  const types = tuple.tupleTypes ?? [];
  if (types.length < 2 || types.length > 1 + MAX_MAPPED_VALUES || types.some((type) => type !== 'array')) {
    throw new HogQLError(`${name}() of one argument needs a tuple of arrays: the keys, then the values.`);
  }
  return types.map((_type, index) => elementOf(tuple, constant(index + 1), true, c.scope));
}

/** How many arrays of values sumMap() and its kin take beside the keys. */
const MAX_MAPPED_VALUES = 16;

const DEFINITIONS: FunctionDef[] = [
  ...COMBINED_BASES.flatMap((base) => RUNNING_CHAINS.map((chain) => combined(base, chain))).filter(
    (definition) => !DEFINED_ELSEWHERE.has(definition.name.toLowerCase()),
  ),
  withCondition('anyIf', 'any', 1),
  ...withIf(anyLast),
  ...withIf(anyHeavy),
  withCondition('argMinIf', 'argMin', 2),
  withCondition('argMaxIf', 'argMax', 2),
  ...withIf(stddevPop),
  ...withIf(stddevSamp),
  ...withIf(varPop),
  ...withIf(varSamp),
  ...withIf(covarPop),
  ...withIf(covarSamp),
  corr,
  ...withIf(skewPop),
  ...withIf(skewSamp),
  ...withIf(kurtPop),
  ...withIf(kurtSamp),
  sameAs('array_agg', 'groupArray', 1, 1),
  withCondition('groupArrayIf', 'groupArray', 1),
  stringAgg,
  every,
  ...withIf(avgWeighted),
  topK,
  ...withIf(groupUniqArray),
  ...withIf(groupUniqArrayArray),
  ...withIf(groupBit('groupBitAnd', 'bit_and')),
  ...withIf(groupBit('groupBitOr', 'bit_or')),
  ...withIf(groupBit('groupBitXor', 'bit_xor')),
  ...withIf(groupBitmap),
  sameAs('uniqHLL12', 'uniq', 1, Infinity),
  sameAs('uniqTheta', 'uniq', 1, Infinity),
  withCondition('uniqExactIf', 'uniq', Infinity),
  withCondition('uniqHLL12If', 'uniq', Infinity),
  withCondition('uniqThetaIf', 'uniq', Infinity),
  ...withIf(middle('medianExact', true)),
  ...withIf(middle('medianExactLow', false)),
  ...withIf(middle('medianExactHigh', true)),
  ...withIf(sameAs('medianDeterministic', 'median', 1, 1)),
  ...withIf(sameAs('medianTDigest', 'median', 1, 1)),
  ...withIf(sameAs('medianBFloat16', 'median', 1, 1)),
  withCondition('quantileIf', 'quantile', 1, [1, 1]),
  quantiles,
  withCondition('quantilesIf', 'quantiles', 1, [1, 100]),
  quantileExact,
  ...withIf(simpleLinearRegression),
  windowFunnel,
  ...withIf(mappedArrays('sumMap', 'sum')),
  ...withIf(mappedArrays('minMap', 'min')),
  ...withIf(mappedArrays('maxMap', 'max')),
  ...withIf(deltaSumTimestamp),
  ...withIf(intersections('maxIntersections', 'count')),
  ...withIf(intersections('maxIntersectionsPosition', 'position')),
];

const STATE = REFUSED_COMBINATORS.State!;
const MERGE = REFUSED_COMBINATORS.Merge!;
const MAP = REFUSED_COMBINATORS.Map!;
const INSERT_AT =
  'a position given twice keeps whichever value ClickHouse reads first, and the array is as long as the largest position in the data; it is not implemented here.';
const CROSS_TAB =
  'ClickHouse’s versions answer it differently (its formula changed, and it counts values by a 64-bit hash), so no one answer can be called its; it is not implemented here.';
const ROW_ORDER = 'its answer depends on the order ClickHouse reads rows in, which a query cannot fix; use a window function with ORDER BY instead.';
const NEEDS_WEIGHT = 'ClickHouse needs a weight as its second argument, which PostHog’s mapping does not let through; use quantile() or median().';

/** Names the -Map combinator would refuse that are defined above (sumMap over arrays of keys and values). */
const DEFINED_NAMES = new Set(DEFINITIONS.map((definition) => definition.name));

const UNAVAILABLE: Record<string, string> = {
  ...Object.fromEntries(generatedNames().flatMap(({ name, refused }) => (refused && !DEFINED_NAMES.has(name) ? [[name, REFUSED_COMBINATORS[refused]!]] : []))),
  countState: STATE,
  countStateIf: STATE,
  countMerge: MERGE,
  countMapIf: MAP,
  avgMapState: STATE,
  avgMapMerge: MERGE,
  avgMapMergeIf: MERGE,
  sumForEachState: STATE,
  sumForEachMerge: MERGE,
  argMinState: STATE,
  argMaxState: STATE,
  argMinMerge: MERGE,
  argMaxMerge: MERGE,
  uniqExactState: STATE,
  uniqExactMerge: MERGE,
  uniqState: STATE,
  uniqStateIf: STATE,
  uniqMerge: MERGE,
  uniqMergeIf: MERGE,
  uniqMap: MAP,
  uniqMapMerge: MERGE,
  uniqMapMergeIf: MERGE,
  uniqUpToMerge: MERGE,
  quantilesState: STATE,
  quantilesStateIf: STATE,
  quantilesMerge: MERGE,
  quantilesMergeIf: MERGE,
  groupBitmapState: STATE,
  groupBitmapAnd: 'it combines ClickHouse bitmap states, which have no form here; groupBitmap() counts distinct integers.',
  groupBitmapAndIf: 'it combines ClickHouse bitmap states, which have no form here; groupBitmap() counts distinct integers.',
  groupBitmapAndState: STATE,
  groupBitmapOr: 'it combines ClickHouse bitmap states, which have no form here; groupBitmap() counts distinct integers.',
  groupBitmapOrIf: 'it combines ClickHouse bitmap states, which have no form here; groupBitmap() counts distinct integers.',
  groupBitmapOrState: STATE,
  groupBitmapXor: 'it combines ClickHouse bitmap states, which have no form here; groupBitmap() counts distinct integers.',
  groupBitmapXorIf: 'it combines ClickHouse bitmap states, which have no form here; groupBitmap() counts distinct integers.',
  sumMapMerge: MERGE,
  sumMapMergeIf: MERGE,
  sumWithOverflow: 'it wraps around at the width of ClickHouse’s integer type of the argument, which values here do not have; use sum().',
  sumWithOverflowIf: 'it wraps around at the width of ClickHouse’s integer type of the argument, which values here do not have; use sumIf().',
  groupArrayMovingAvg: ROW_ORDER,
  groupArrayMovingAvgIf: ROW_ORDER,
  groupArrayMovingSum: ROW_ORDER,
  groupArrayMovingSumIf: ROW_ORDER,
  deltaSum: ROW_ORDER,
  deltaSumIf: ROW_ORDER,
  groupArraySample: 'it picks a random sample, so the same query could answer differently each time; use groupArray() with LIMIT in a subquery.',
  groupArraySampleIf: 'it picks a random sample, so the same query could answer differently each time; use groupArrayIf().',
  groupArrayInsertAt: INSERT_AT,
  groupArrayInsertAtIf: INSERT_AT,
  json_agg: 'ClickHouse’s toJSONString() text (its number formats and escapes) is not reproduced here; use groupArray(), which answers a JSON array.',
  medianExactWeighted: NEEDS_WEIGHT,
  medianExactWeightedIf: NEEDS_WEIGHT,
  medianTimingWeighted: NEEDS_WEIGHT,
  medianTimingWeightedIf: NEEDS_WEIGHT,
  medianTDigestWeighted: NEEDS_WEIGHT,
  medianTDigestWeightedIf: NEEDS_WEIGHT,
  medianTiming: 'ClickHouse’s quantileTiming rounds and caps its values in its own way, which is not reproduced here; use medianExact().',
  medianTimingIf: 'ClickHouse’s quantileTiming rounds and caps its values in its own way, which is not reproduced here; use medianExactIf().',
  percentile_cont: 'it needs WITHIN GROUP (ORDER BY …), which HogQL here does not read; use quantile(p)(x).',
  percentile_disc: 'it needs WITHIN GROUP (ORDER BY …), which HogQL here does not read; use quantileExact(p)(x).',
  contingency: CROSS_TAB,
  contingencyIf: CROSS_TAB,
  cramersV: CROSS_TAB,
  cramersVIf: CROSS_TAB,
  cramersVBiasCorrected: CROSS_TAB,
  cramersVBiasCorrectedIf: CROSS_TAB,
  theilsU: CROSS_TAB,
  theilsUIf: CROSS_TAB,
};

export const AGGREGATES: Family = { title: 'Aggregates', definitions: DEFINITIONS, unavailable: UNAVAILABLE };
