/**
 * What the library's scalar families share: arguments converted to the types a function takes, results that are
 * null where an argument is (as ClickHouse's functions of Nullable arguments are), and constants read at compile
 * time (regular expressions, units, counts) so that they are checked before anything runs.
 */
import type { Expr } from '../ast.js';
import type { Compiler } from '../compiler.js';
import { HogQLError } from '../errors.js';
import type { FunctionDef } from '../functions.js';
import { postgresRegex } from '../regex.js';
import { param, sql, type Fragment } from '../sql.js';
import { coerce, typed, type HogQLType, type Typed } from '../types.js';

export function arg(args: readonly Expr[], index: number): Expr {
  return args[index]!;
}

export function to(c: Compiler, expr: Expr, type: HogQLType): Typed {
  return coerce(c.compile(expr), type, c.scope);
}

/** A number for arithmetic: int stays int, anything else is PostgreSQL's numeric. */
export function numeric(c: Compiler, expr: Expr): Typed {
  return c.numeric(c.compile(expr));
}

/** A result built from its arguments: null when one of them is, an aggregate when one of them is. */
export function derived(fragment: Fragment, type: HogQLType, parts: readonly Typed[], nullable?: boolean): Typed {
  return typed(fragment, type, nullable ?? parts.some((part) => part.nullable), parts.some((part) => part.aggregate));
}

/** The SQL of a scalar's converted arguments; the ones a call may leave out are undefined. */
export type Parts = readonly Fragment[] & { readonly 0: Fragment; readonly 1: Fragment; readonly 2: Fragment };

/**
 * A function of arguments of fixed types: `types` lists them, the last `optional` of them may be left out.
 * `build` writes the SQL of the converted arguments.
 */
export function scalar(
  name: string,
  types: readonly HogQLType[],
  result: HogQLType,
  build: (parts: Parts, c: Compiler, values: Typed[]) => Fragment,
  options: { optional?: number; nullable?: boolean } = {},
): FunctionDef {
  return {
    name,
    minArgs: types.length - (options.optional ?? 0),
    maxArgs: types.length,
    compile: (c, args) => {
      const values = args.map((item, index) => to(c, item, types[index]!));
      return derived(build(values.map((value) => value.sql) as unknown as Parts, c, values), result, values, options.nullable);
    },
  };
}

/** A result built by a subquery over a value (which would give an empty list for NULL): NULL for NULL. */
export function nullFor(value: Typed, body: Fragment): Fragment {
  return value.nullable ? sql`(case when ${value.sql} is not null then ${body} end)` : body;
}

/** `name` compiles as `target` does, with the target's checks. */
export function alias(name: string, target: string, minArgs: number, maxArgs: number): FunctionDef {
  return { name, minArgs, maxArgs, compile: (c, args) => c.call(target, args) };
}

/** A string constant argument (a pattern, a format, a type name). */
export function constantText(expr: Expr, what: string): string {
  if (expr.kind !== 'constant' || typeof expr.value !== 'string') throw new HogQLError(`${what} must be a string constant.`);
  return expr.value;
}

/** An integer constant argument, negative ones included (`-1` is the negation of 1 in the tree). */
export function constantInteger(expr: Expr, what: string): number {
  if (expr.kind === 'constant' && typeof expr.value === 'number' && Number.isSafeInteger(expr.value)) return expr.value;
  if (expr.kind === 'negate' && expr.expr.kind === 'constant' && typeof expr.expr.value === 'number' && Number.isSafeInteger(expr.expr.value)) {
    return -expr.expr.value;
  }
  throw new HogQLError(`${what} must be an integer constant.`);
}

/** A regular expression constant as PostgreSQL runs it (regex.ts), bound as a parameter. */
export function regexConstant(expr: Expr, fn: string): Fragment {
  return param(postgresRegex(constantText(expr, `The pattern of ${fn}()`)), 'text');
}

/** Static regular expressions of our own code: bound as parameters too, since SQL text may not hold a "?". */
export function pattern(text: string): Fragment {
  return param(text, 'text');
}

/**
 * A bigint as PostgreSQL's int, which positions and counts of its text functions are: clamped into its range,
 * since a cast of a larger value raises an error (and only a text of more than 2^31 characters would tell).
 */
export function int4(value: Fragment): Fragment {
  return sql`least(greatest(${value}, -2147483648), 2147483647)::int`;
}

/** Every ASCII character but letters and digits, which a backslash makes literal in a regular expression. */
export const ASCII_PUNCTUATION = '([\\x01-\\x2f\\x3a-\\x40\\x5b-\\x60\\x7b-\\x7f])';

/** The most characters a function that builds text (repeat, leftPad) may make, as a bound on memory. */
export const MAX_BUILT_TEXT = 1_000_000;

/** Characters of built text that weigh as one part of an expression (see MAX_WEIGHT in compiler.ts). */
const CHARACTERS_A_PART = 25;

/**
 * Text a function builds (up to `characters` of it) weighs in the compiler's bounds on an expression and a
 * statement, so that a query cannot concatenate thousands of large built texts: a statement's built text stays
 * within a few million characters however many calls make it.
 */
export function weighBuiltText(fragment: Fragment, characters: number): Fragment {
  return { ...fragment, weight: fragment.weight + Math.ceil(Math.min(characters, MAX_BUILT_TEXT) / CHARACTERS_A_PART) };
}
