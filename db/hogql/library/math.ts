/**
 * ClickHouse's mathematical, rounding, arithmetic (the named ones: intDiv, gcd, …; the operator forms are the
 * operators' family), bit and "other" number functions. ClickHouse computes them in Float64, where a logarithm
 * of 0 is -inf and a square root of -1 is NaN: PostgreSQL raises an error instead, so every domain is checked in
 * SQL and answers what ClickHouse does (NaN and infinities show as null in JSON, as PostHog's JSON does).
 */
import type { Expr } from '../ast.js';
import type { Compiler } from '../compiler.js';
import { HogQLError } from '../errors.js';
import type { FunctionDef } from '../functions.js';
import { join, keyword, param, sql, type Fragment } from '../sql.js';
import { coerce, typed, unifiedType, type HogQLType, type Typed } from '../types.js';
import type { Family } from './index.js';
import { arg, derived, int4, numeric, to } from './common.js';

const NAN = keyword("'NaN'::float8");
const INFINITY = keyword("'Infinity'::float8");
const MINUS_INFINITY = keyword("'-Infinity'::float8");

/**
 * A float8 as the exact numeric of its shortest text: a cast straight to numeric keeps 15 digits only, where
 * ClickHouse shows all 17 (pi() is 3.141592653589793).
 */
const asNumeric = (x: Fragment) => sql`((${x})::text)::numeric`;

/** A one-argument Float64 function: `body` gets the argument as float8 and answers float8. */
function float1(name: string, body: (x: Fragment) => Fragment): FunctionDef {
  return {
    name,
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => {
      const x = numeric(c, arg(args, 0));
      return derived(asNumeric(body(sql`(${x.sql})::float8`)), 'float', [x]);
    },
  };
}

function float2(name: string, body: (x: Fragment, y: Fragment) => Fragment): FunctionDef {
  return {
    name,
    minArgs: 2,
    maxArgs: 2,
    compile: (c, args) => {
      const [x, y] = [numeric(c, arg(args, 0)), numeric(c, arg(args, 1))];
      return derived(asNumeric(body(sql`(${x.sql})::float8`, sql`(${y.sql})::float8`)), 'float', [x, y]);
    },
  };
}

/** A function PostgreSQL refuses infinite arguments to (sin, cos, tan): NaN for them, as in C. */
const finiteOnly = (fn: string) => (x: Fragment) => sql`(case when abs(${x}) = ${INFINITY} then ${NAN} else ${keyword(fn)}(${x}) end)`;

const logarithm = (body: (x: Fragment) => Fragment) => (x: Fragment) =>
  sql`(case when ${x} > 0 then ${body(x)} when ${x} = 0 then ${MINUS_INFINITY} else ${NAN} end)`;

/** round/floor/ceil/trunc to `places` decimal places (negative: tens, hundreds, …). */
type Rounding = 'round' | 'roundBankers' | 'floor' | 'ceil' | 'trunc';

function rounding(name: string, mode: Rounding): FunctionDef {
  return {
    name,
    minArgs: 1,
    maxArgs: 2,
    compile: (c, args) => {
      const value = numeric(c, arg(args, 0));
      const places = args.length > 1 ? to(c, arg(args, 1), 'int') : null;
      // Past 40 places either way nothing changes that a Float64 or an Int64 could show.
      const n = places ? sql`least(greatest(${places.sql}, -40), 40)::int` : keyword('0');
      const parts = [value, ...(places ? [places] : [])];
      if (value.type === 'float' && (mode === 'round' || mode === 'roundBankers')) {
        // A Float64 rounds half to even (2.5 to 2), as C's rint() does: so does PostgreSQL's round(float8).
        const scale = sql`power(10::float8, ${n})`;
        // A double of 2^52 or more has no fraction to round (and its product with the scale could overflow).
        const x = sql`(${value.sql})::float8`;
        const rounded = sql`(case when ${n} >= 0 and abs(${x}) >= 4503599627370496 then ${x} else round(${x} * ${scale}) / ${scale} end)`;
        return derived(asNumeric(rounded), 'float', parts);
      }
      const x = sql`(${value.sql})::numeric`;
      // 10^n as an exact numeric for n >= 0 only (a negative power of numeric keeps 16 places): tens and
      // hundreds divide by 10^-n instead.
      const up = sql`power(10::numeric, abs(${n}))`;
      const scaled = sql`(case when ${n} >= 0 then ${x} * ${up} else ${x} / ${up} end)`;
      const fn: Record<Rounding, Fragment> = {
        // Integers (and exact numbers) round half away from zero; roundBankers() half to even.
        round: sql`round(${scaled})`,
        roundBankers: sql`(case when abs(${scaled} - trunc(${scaled})) = 0.5 then 2 * round(${scaled} / 2) else round(${scaled}) end)`,
        floor: sql`floor(${scaled})`,
        ceil: sql`ceil(${scaled})`,
        trunc: sql`trunc(${scaled})`,
      };
      const result = sql`(case when ${n} >= 0 then ${fn[mode]} / ${up} else ${fn[mode]} * ${up} end)`;
      if (value.type === 'int') return derived(sql`hogql_trunc_int(${result})`, 'int', parts);
      return derived(sql`(${result})::numeric`, 'float', parts);
    },
  };
}

/** The largest of `bounds` that is at most the value; 0 below the first. */
function roundTo(name: string, bounds: readonly number[]): FunctionDef {
  return {
    name,
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => {
      const x = numeric(c, arg(args, 0));
      const whens = [...bounds].reverse().map((bound) => sql`when ${x.sql} >= ${keyword(String(bound))} then ${keyword(String(bound))}`);
      return derived(sql`(case ${join(whens, ' ')} else 0 end)::bigint`, 'int', [x]);
    },
  };
}

function int2(name: string, body: (a: Fragment, b: Fragment) => Fragment, result: HogQLType = 'int'): FunctionDef {
  return {
    name,
    minArgs: 2,
    maxArgs: 2,
    compile: (c, args) => {
      const [a, b] = [to(c, arg(args, 0), 'int'), to(c, arg(args, 1), 'int')];
      return derived(body(a.sql, b.sql), result, [a, b]);
    },
  };
}

/** Integer division: the quotient truncated toward zero; NULL for a division by zero (an error in ClickHouse). */
function intDiv(name: string, byZero: 'null' | 'zero'): FunctionDef {
  return {
    name,
    minArgs: 2,
    maxArgs: 2,
    compile: (c, args) => {
      const [a, b] = [numeric(c, arg(args, 0)), numeric(c, arg(args, 1))];
      const quotient = sql`hogql_trunc_int(trunc((${a.sql})::numeric / nullif((${b.sql})::numeric, 0)))`;
      return derived(byZero === 'zero' ? sql`(case when ${b.sql} = 0 then 0 else ${quotient} end)` : quotient, 'int', [a, b], true);
    },
  };
}

/** A remainder with the dividend's sign (moduloOrZero) or never negative (positiveModulo). */
function remainder(name: string, positive: boolean): FunctionDef {
  return {
    name,
    minArgs: 2,
    maxArgs: 2,
    compile: (c, args) => {
      const [a, b] = [numeric(c, arg(args, 0)), numeric(c, arg(args, 1))];
      const type: HogQLType = a.type === 'int' && b.type === 'int' ? 'int' : 'float';
      const [x, y] = [coerce(a, type, c.scope).sql, coerce(b, type, c.scope).sql];
      const rest = sql`(${x} % nullif(${y}, 0))`;
      const body = positive ? sql`(case when ${rest} < 0 then ${rest} + abs(${y}) else ${rest} end)` : sql`(case when ${y} = 0 then 0 else ${rest} end)`;
      return derived(body, type, [a, b], positive ? true : undefined);
    },
  };
}

/**
 * least()/greatest() of two or more values (ClickHouse takes any number): NULL when one of them is, as in
 * ClickHouse (PostgreSQL's skip nulls).
 */
function extreme(name: string, sqlName: 'least' | 'greatest'): FunctionDef {
  return {
    name,
    minArgs: 2,
    maxArgs: Infinity,
    compile: (c, args) => {
      const values = args.map((item) => c.compile(item));
      const unified = unifiedType(values);
      const type: HogQLType = unified === 'json' ? 'float' : unified === 'null' ? 'int' : unified;
      const parts = values.map((value) => coerce(value, type, c.scope));
      const anyNull = join(parts.map((part) => sql`${part.sql} is null`), ' or ');
      const body = sql`(case when ${anyNull} then null else ${keyword(sqlName)}(${join(parts.map((part) => part.sql), ', ')}) end)`;
      return derived(body, type, parts);
    },
  };
}

function float2Nullable(name: string, sqlName: 'least' | 'greatest'): FunctionDef {
  return {
    name,
    minArgs: 2,
    maxArgs: 2,
    compile: (c, args) => {
      const [a, b] = [numeric(c, arg(args, 0)), numeric(c, arg(args, 1))];
      const [x, y] = [sql`(${a.sql})::numeric`, sql`(${b.sql})::numeric`];
      return derived(sql`(case when ${x} is null or ${y} is null then null else ${keyword(sqlName)}(${x}, ${y}) end)`, 'float', [a, b]);
    },
  };
}

const finiteTest = (x: Fragment) => sql`(${x})::numeric not in ('NaN'::numeric, 'Infinity'::numeric, '-Infinity'::numeric)`;

function numberTest(name: string, test: (x: Fragment) => Fragment): FunctionDef {
  return {
    name,
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => {
      const x = numeric(c, arg(args, 0));
      return c.boolean(sql`coalesce(${test(x.sql)}, false)`, [x]);
    },
  };
}

/** formatReadable…: the number in the largest unit it reaches, with two decimals. */
function readable(name: string, base: number, units: readonly string[]): FunctionDef {
  return {
    name,
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => {
      const x = numeric(c, arg(args, 0));
      const value = sql`(${x.sql})::numeric`;
      const exponent = sql`least(greatest(floor(log(${keyword(String(base))}, greatest(abs(${value}), 1))), 0), ${keyword(String(units.length - 1))})::int`;
      const shown = sql`to_char(${value} / power(${keyword(String(base))}::numeric, ${exponent}), 'FM999999999999999999990.00')`;
      const unit = sql`(${param(`{${units.map((u) => `"${u}"`).join(',')}}`, 'text')}::text[])[${exponent} + 1]`;
      return derived(sql`(${shown} || ${unit})`, 'string', [x]);
    },
  };
}

const bitWidth = (a: Fragment) => sql`length(replace((${a})::bit(64)::text, '0', ''))::bigint`;

function bitTestMany(name: string, every: boolean): FunctionDef {
  return {
    name,
    minArgs: 3,
    maxArgs: Infinity,
    compile: (c, args) => {
      const [value, ...bits] = args.map((item) => to(c, item, 'int'));
      const tests = bits.map((bit) => sql`(${bit.sql} between 0 and 63 and ((${value!.sql} >> ${int4(bit.sql)}) & 1) = 1)`);
      return c.boolean(sql`coalesce((${join(tests, every ? ' and ' : ' or ')}), false)`, [value!, ...bits]);
    },
  };
}

function transform(c: Compiler, args: readonly Expr[]): Typed {
  // transform(x, [from…], [to…][, default]): the `to` at the place of the first `from` equal to x.
  const value = c.compile(arg(args, 0));
  const arrays = [1, 2].map((index) => {
    const list = c.compile(arg(args, index));
    if (list.type !== 'array' && list.type !== 'json') throw new HogQLError('The second and third arguments of transform() must be arrays.');
    return sql`(case when jsonb_typeof(${list.sql}) = 'array' then ${list.sql} else '[]'::jsonb end)`;
  }) as [Fragment, Fragment];
  const key = value.type === 'json' ? value.sql : coerce(value, 'json', c.scope).sql;
  const fallback = args.length > 3 ? coerce(c.compile(arg(args, 3)), 'json', c.scope).sql : key;
  const found = sql`(select target.value from jsonb_array_elements(${arrays[0]}) with ordinality as source(value, index) join jsonb_array_elements(${arrays[1]}) with ordinality as target(value, index) on source.index = target.index where source.value = ${key} order by source.index limit 1)`;
  return typed(sql`coalesce(${found}, ${fallback})`, 'json', true, value.aggregate);
}

const DEFINITIONS: FunctionDef[] = [
  { name: 'e', minArgs: 0, maxArgs: 0, compile: () => typed(asNumeric(keyword('exp(1::float8)')), 'float', false) },
  { name: 'pi', minArgs: 0, maxArgs: 0, compile: () => typed(asNumeric(keyword('pi()')), 'float', false) },
  float1('exp', (x) => sql`(case when ${x} > 709.78 then ${INFINITY} when ${x} < -745.2 then 0 else exp(${x}) end)`),
  float1('log', logarithm((x) => sql`ln(${x})`)),
  float1('ln', logarithm((x) => sql`ln(${x})`)),
  float1('exp2', (x) => sql`hogql_power(2, ${x})`),
  float1('log2', logarithm((x) => sql`log(2::numeric, (${x})::numeric)::float8`)),
  float1('exp10', (x) => sql`hogql_power(10, ${x})`),
  float1('log10', logarithm((x) => sql`log(${x})`)),
  float1('sqrt', (x) => sql`(case when ${x} < 0 then ${NAN} else sqrt(${x}) end)`),
  float1('cbrt', (x) => sql`cbrt(${x})`),
  float1('sin', finiteOnly('sin')),
  float1('cos', finiteOnly('cos')),
  float1('tan', finiteOnly('tan')),
  float1('asin', (x) => sql`(case when abs(${x}) <= 1 then asin(${x}) else ${NAN} end)`),
  float1('acos', (x) => sql`(case when abs(${x}) <= 1 then acos(${x}) else ${NAN} end)`),
  float1('atan', (x) => sql`atan(${x})`),
  float2('pow', (x, y) => sql`hogql_power(${x}, ${y})`),
  float2('power', (x, y) => sql`hogql_power(${x}, ${y})`),
  {
    name: 'intExp2',
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => {
      const x = to(c, arg(args, 0), 'int');
      return derived(sql`(case when ${x.sql} < 0 then 0 when ${x.sql} > 62 then null else power(2::numeric, ${x.sql})::bigint end)`, 'int', [x], true);
    },
  },
  {
    name: 'intExp10',
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => {
      const x = to(c, arg(args, 0), 'int');
      return derived(sql`(case when ${x.sql} < 0 then 0 when ${x.sql} > 18 then null else power(10::numeric, ${x.sql})::bigint end)`, 'int', [x], true);
    },
  },
  float1('cosh', (x) => sql`(case when abs(${x}) > 710 then ${INFINITY} else cosh(${x}) end)`),
  float1('sinh', (x) => sql`(case when ${x} > 710 then ${INFINITY} when ${x} < -710 then ${MINUS_INFINITY} else sinh(${x}) end)`),
  float1('acosh', (x) => sql`(case when ${x} >= 1 then acosh(${x}) else ${NAN} end)`),
  float1('asinh', (x) => sql`asinh(${x})`),
  float1('atanh', (x) => sql`(case when abs(${x}) < 1 then atanh(${x}) when ${x} = 1 then ${INFINITY} when ${x} = -1 then ${MINUS_INFINITY} else ${NAN} end)`),
  float2('atan2', (y, x) => sql`atan2(${y}, ${x})`),
  float2('hypot', (x, y) => {
    // Past 1e150 the squares would overflow: both sides are scaled by 2^600 first, which is exact.
    const m = sql`greatest(abs(${x}), abs(${y}))`;
    const scale = keyword("'4.149515568880993e180'::float8");
    const scaled = sql`sqrt((${x} / ${scale}) * (${x} / ${scale}) + (${y} / ${scale}) * (${y} / ${scale})) * ${scale}`;
    return sql`(case when ${m} = ${INFINITY} then ${INFINITY} when ${m} < 1e150 then sqrt(${x} * ${x} + ${y} * ${y}) else ${scaled} end)`;
  }),
  float1('log1p', (x) => sql`(case when ${x} > -1 then ln(1 + ${x}) when ${x} = -1 then ${MINUS_INFINITY} else ${NAN} end)`),
  {
    name: 'sign',
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => {
      const x = numeric(c, arg(args, 0));
      return derived(sql`sign((${x.sql})::numeric)::bigint`, 'int', [x]);
    },
  },
  float1('degrees', (x) => sql`(case when abs(${x}) > 1e306 then sign(${x}) * ${INFINITY} else degrees(${x}) end)`),
  float1('radians', (x) => sql`radians(${x})`),
  {
    name: 'factorial',
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => {
      // ClickHouse's factorial is of 0 to 20 (an Int64); a negative number's is 1; past 20 is an error there.
      const n = to(c, arg(args, 0), 'int');
      return derived(sql`(case when ${n.sql} < 0 then 1 when ${n.sql} <= 20 then factorial(${n.sql})::bigint end)`, 'int', [n], true);
    },
  },
  {
    name: 'width_bucket',
    minArgs: 4,
    maxArgs: 4,
    compile: (c, args) => {
      const [x, low, high] = [0, 1, 2].map((index) => numeric(c, arg(args, index))) as [Typed, Typed, Typed];
      const count = to(c, arg(args, 3), 'int');
      const f = (value: Typed) => sql`(${value.sql})::float8`;
      // PostgreSQL raises an error for NaN, infinite bounds and a count of 0: ClickHouse's answer there is NULL too.
      const finite = (value: Typed) => sql`abs(${f(value)}) < ${INFINITY}`;
      const body = sql`(case when ${count.sql} > 0 and ${f(low)} <> ${f(high)} and ${finite(x)} and ${finite(low)} and ${finite(high)} then width_bucket(${f(x)}, ${f(low)}, ${f(high)}, ${int4(count.sql)})::bigint end)`;
      return derived(body, 'int', [x, low, high, count], true);
    },
  },

  rounding('roundBankers', 'roundBankers'),
  rounding('trunc', 'trunc'),
  {
    name: 'roundToExp2',
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => {
      const x = numeric(c, arg(args, 0));
      const v = sql`(${x.sql})::numeric`;
      const body = sql`(case when ${v} < 1 then 0 else power(2::numeric, floor(log(2::numeric, ${v}))) end)`;
      return x.type === 'int' ? derived(sql`(${body})::bigint`, 'int', [x]) : derived(body, 'float', [x]);
    },
  },
  roundTo('roundDuration', [1, 10, 30, 60, 120, 180, 240, 300, 600, 1200, 1800, 3600, 7200, 18000, 36000]),
  {
    name: 'roundAge',
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => {
      const x = numeric(c, arg(args, 0));
      const v = x.sql;
      return derived(sql`(case when ${v} < 1 then 0 when ${v} < 18 then 17 when ${v} < 25 then 18 when ${v} < 35 then 25 when ${v} < 45 then 35 when ${v} < 55 then 45 else 55 end)::bigint`, 'int', [x]);
    },
  },
  {
    name: 'roundDown',
    minArgs: 2,
    maxArgs: 2,
    compile: (c, args) => {
      const x = numeric(c, arg(args, 0));
      const list = c.compile(arg(args, 1));
      if (list.type !== 'array' && list.type !== 'json') throw new HogQLError('The second argument of roundDown() must be an array of numbers.');
      const bounds = sql`(select hogql_to_number(bound) as bound from jsonb_array_elements(case when jsonb_typeof(${list.sql}) = 'array' then ${list.sql} else '[]'::jsonb end) as bound)`;
      const body = sql`(select coalesce(max(b.bound) filter (where b.bound <= (${x.sql})::numeric), min(b.bound)) from ${bounds} as b)`;
      return derived(body, 'float', [x, list], true);
    },
  },
  { name: 'rand', minArgs: 0, maxArgs: 0, compile: () => typed(keyword('floor(random() * 4294967296)::bigint'), 'int', false) },

  intDiv('intDiv', 'null'),
  intDiv('intDivOrZero', 'zero'),
  remainder('moduloOrZero', false),
  remainder('positiveModulo', true),
  int2('gcd', (a, b) => sql`hogql_trunc_int(gcd((${a})::numeric, (${b})::numeric))`),
  int2('lcm', (a, b) => sql`hogql_trunc_int(lcm((${a})::numeric, (${b})::numeric))`),
  float2Nullable('max2', 'greatest'),
  float2Nullable('min2', 'least'),

  int2('bitAnd', (a, b) => sql`(${a} & ${b})`),
  int2('bitOr', (a, b) => sql`(${a} | ${b})`),
  int2('bitXor', (a, b) => sql`(${a} # ${b})`),
  int2('bitShiftLeft', (a, n) => sql`(case when ${n} between 0 and 63 then ${a} << (${n})::int else 0 end)`),
  int2('bitShiftRight', (a, n) => sql`(case when ${n} between 0 and 63 then ${a} >> (${n})::int when ${a} < 0 then -1 else 0 end)`),
  int2('bitTest', (a, n) => sql`(case when ${n} between 0 and 63 then (${a} >> (${n})::int) & 1 end)`),
  bitTestMany('bitTestAll', true),
  bitTestMany('bitTestAny', false),
  {
    name: 'bitCount',
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => {
      const a = to(c, arg(args, 0), 'int');
      return derived(bitWidth(a.sql), 'int', [a]);
    },
  },
  int2('bitHammingDistance', (a, b) => bitWidth(sql`(${a} # ${b})`)),

  numberTest('isFinite', finiteTest),
  numberTest('isInfinite', (x) => sql`abs((${x})::numeric) = 'Infinity'::numeric`),
  numberTest('isNaN', (x) => sql`(${x})::numeric = 'NaN'::numeric`),
  {
    name: 'ifNotFinite',
    minArgs: 2,
    maxArgs: 2,
    compile: (c, args) => {
      const [x, fallback] = [numeric(c, arg(args, 0)), numeric(c, arg(args, 1))];
      const body = sql`(case when ${finiteTest(x.sql)} then (${x.sql})::numeric else (${fallback.sql})::numeric end)`;
      return derived(body, 'float', [x, fallback]);
    },
  },
  { name: 'transform', minArgs: 3, maxArgs: 4, compile: transform },
  readable('formatReadableDecimalSize', 1000, [' B', ' KB', ' MB', ' GB', ' TB', ' PB', ' EB']),
  readable('formatReadableSize', 1024, [' B', ' KiB', ' MiB', ' GiB', ' TiB', ' PiB', ' EiB']),
  readable('formatReadableQuantity', 1000, ['', ' thousand', ' million', ' billion', ' trillion', ' quadrillion']),
  {
    name: 'formatReadableTimeDelta',
    minArgs: 1,
    maxArgs: 2,
    compile: (c, args) => {
      if (args.length > 1) throw new HogQLError('formatReadableTimeDelta() takes the seconds only here (its largest unit is years).');
      // Whole seconds in years of 365 days, months of 30.5 days, days, hours, minutes and seconds, the units
      // that are not 0 joined by ", " and a last " and "; 0 is "0 seconds".
      const x = numeric(c, arg(args, 0));
      const units: readonly [string, number][] = [['year', 31_536_000], ['month', 2_635_200], ['day', 86_400], ['hour', 3_600], ['minute', 60], ['second', 1]];
      const parts = units.map(([unit, seconds], index) => {
        const larger = units.slice(0, index).map(([, size]) => size);
        // What is left below the larger units, in this unit.
        const rest = larger.reduce<Fragment>((inner, size) => sql`mod(${inner}, ${keyword(String(size))})`, keyword('t.s'));
        const count = sql`floor(${rest} / ${keyword(String(seconds))})`;
        return sql`(case when ${count} > 0 then ${count}::text || ${keyword(`' ${unit}'`)} || (case when ${count} > 1 then 's' else '' end) end)`;
      });
      const list = sql`array_remove(array[${join(parts, ', ')}], null)`;
      const body = sql`(select (case cardinality(l.parts) when 0 then '0 seconds' when 1 then l.parts[1] else array_to_string(l.parts[1:cardinality(l.parts) - 1], ', ') || ' and ' || l.parts[cardinality(l.parts)] end) from (select floor(abs((${x.sql})::numeric)) as s) as t, lateral (select ${list} as parts) as l)`;
      const signed = sql`(case when (${x.sql})::numeric <= -1 then '-' else '' end) || ${body}`;
      return derived(sql`(case when ${x.sql} is not null then ${signed} end)`, 'string', [x]);
    },
  },
  extreme('least', 'least'),
  extreme('greatest', 'greatest'),
];

/** The corrections of functions defined before the library (select/functions.ts). */
export const MATH_CORRECTIONS = {
  round: rounding('round', 'round'),
  floor: rounding('floor', 'floor'),
  ceil: rounding('ceil', 'ceil'),
};

const WIDTH =
  "It depends on the width of ClickHouse's integer type (UInt8 for a literal such as 1, Int64 for a property), which Hedgerow's 64-bit integers do not keep.";
const BITMAP = "It works on ClickHouse's roaring bitmaps (groupBitmapState), a type PostgreSQL does not have.";

export const MATH: Family = {
  title: 'Numbers',
  definitions: DEFINITIONS,
  unavailable: {
    erf: 'PostgreSQL 15 has no error function, and an approximation would not give ClickHouse\'s digits.',
    erfc: 'PostgreSQL 15 has no error function, and an approximation would not give ClickHouse\'s digits.',
    lgamma: 'PostgreSQL 15 has no gamma function, and an approximation would not give ClickHouse\'s digits.',
    tgamma: 'PostgreSQL 15 has no gamma function, and an approximation would not give ClickHouse\'s digits.',
    multiplyDecimal: "It works on ClickHouse's Decimal types; Hedgerow's numbers are exact already, so write a * b.",
    divideDecimal: "It works on ClickHouse's Decimal types; Hedgerow's numbers are exact already, so write a / b.",
    bitNot: WIDTH,
    bitRotateLeft: WIDTH,
    bitRotateRight: WIDTH,
    bitSlice: WIDTH,
    ...Object.fromEntries(
      [
        'bitmapBuild', 'bitmapToArray', 'bitmapSubsetInRange', 'bitmapSubsetLimit', 'subBitmap', 'bitmapContains', 'bitmapHasAny', 'bitmapHasAll',
        'bitmapCardinality', 'bitmapMin', 'bitmapMax', 'bitmapTransform', 'bitmapAnd', 'bitmapOr', 'bitmapXor', 'bitmapAndnot',
        'bitmapAndCardinality', 'bitmapOrCardinality', 'bitmapXorCardinality', 'bitmapAndnotCardinality',
      ].map((name) => [name, BITMAP]),
    ),
    bar: "It draws with ClickHouse's Unicode bar renderer, whose partial blocks Hedgerow does not reproduce.",
    indexHint: "It steers ClickHouse's primary-key index; PostgreSQL chooses its own indexes, so write the condition itself.",
    extractIPv4Substrings: "It returns ClickHouse's token-index substrings of IPv4 addresses, which only its text index uses.",
  },
};
