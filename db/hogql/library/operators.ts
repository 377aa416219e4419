/**
 * Operators written as functions, the form PostHog's insight code emits: `and(equals(event, '$pageview'),
 * greaterOrEquals(timestamp, …))`. The parser rewrites each such call into the tree of its operator
 * (`compare`, `and`, `arithmetic`, …) before anything else reads it, so that a function form compiles to exactly
 * the SQL of the operator form: the same plan, the same index use, the same join conditions. The definitions here
 * do the same rewrite for a call built by code rather than parsed (and give the generated list its entries).
 */
import type { ArithmeticOp, CompareOp, Expr } from '../ast.js';
import type { FunctionDef } from '../functions.js';
import { ownEntry } from '../lookup.js';
import { sql } from '../sql.js';
import type { Family } from './index.js';

/** PostHog's comparison functions (its HOGQL_COMPARISON_MAPPING), by lower-case name, with the operator each is. */
const COMPARISONS: Readonly<Record<string, { name: string; op: CompareOp }>> = {
  equals: { name: 'equals', op: '=' },
  notequals: { name: 'notEquals', op: '!=' },
  less: { name: 'less', op: '<' },
  greater: { name: 'greater', op: '>' },
  lessorequals: { name: 'lessOrEquals', op: '<=' },
  greaterorequals: { name: 'greaterOrEquals', op: '>=' },
  like: { name: 'like', op: 'like' },
  ilike: { name: 'ilike', op: 'ilike' },
  notlike: { name: 'notLike', op: 'not like' },
  notilike: { name: 'notILike', op: 'not ilike' },
};

const ARITHMETIC: Readonly<Record<string, { name: string; op: ArithmeticOp }>> = {
  plus: { name: 'plus', op: '+' },
  minus: { name: 'minus', op: '-' },
  multiply: { name: 'multiply', op: '*' },
  divide: { name: 'divide', op: '/' },
  modulo: { name: 'modulo', op: '%' },
};

/** The items of `in()`'s second argument: a tuple or an array (literal or call), else the one value. */
function membershipList(list: Expr): Expr[] {
  if (list.kind === 'tuple' || list.kind === 'array') return list.items;
  if (list.kind === 'call' && !list.params && !list.over && ['tuple', 'array'].includes(list.name.toLowerCase())) return list.args;
  return [list];
}

/**
 * The operator tree a call of an operator's function stands for, or undefined when the name is no operator's or
 * the arguments are not that operator's (the call then reaches the compiler, whose refusal names the function).
 */
export function operatorForm(name: string, args: readonly Expr[]): Expr | undefined {
  const lower = name.toLowerCase();
  const comparison = ownEntry(COMPARISONS, lower);
  if (comparison) return args.length === 2 ? { kind: 'compare', op: comparison.op, left: args[0]!, right: args[1]! } : undefined;
  const arithmetic = ownEntry(ARITHMETIC, lower);
  if (arithmetic) return args.length === 2 ? { kind: 'arithmetic', op: arithmetic.op, left: args[0]!, right: args[1]! } : undefined;
  switch (lower) {
    case 'in':
    case 'notin':
      return args.length === 2 ? { kind: 'in', negated: lower === 'notin', expr: args[0]!, list: membershipList(args[1]!) } : undefined;
    case 'and':
    case 'or':
      return args.length >= 2 ? { kind: lower, exprs: [...args] } : undefined;
    case 'not':
      return args.length === 1 ? { kind: 'not', expr: args[0]! } : undefined;
    case 'negate': {
      if (args.length !== 1) return undefined;
      const operand = args[0]!;
      // As the parser reads `-1`: a negative constant, not the negation of one.
      if (operand.kind === 'constant' && typeof operand.value === 'number') return { kind: 'constant', value: -operand.value };
      return { kind: 'negate', expr: operand };
    }
    default:
      return undefined;
  }
}

function rewritten(name: string, minArgs: number, maxArgs: number): FunctionDef {
  return {
    name,
    minArgs,
    maxArgs,
    compile: (c, args) => c.compile(operatorForm(name, args)!),
  };
}

/**
 * `xor(a, b, …)`: true when an odd number of its arguments are; it has no operator. Each argument counts as a
 * condition (null as false), so the result is never null where ClickHouse's would be for a null argument.
 */
const xor: FunctionDef = {
  name: 'xor',
  minArgs: 2,
  maxArgs: Infinity,
  compile: (c, args) => {
    const values = args.map((item) => c.compile(item));
    const [first, ...rest] = values.map((value) => c.truth(value));
    const body = rest.reduce((left, right) => sql`(${left} <> ${right})`, first!);
    return c.boolean(body, values);
  },
};

export const OPERATOR_FUNCTIONS: Family = {
  title: 'Operators as functions',
  definitions: [
    ...Object.values(COMPARISONS).map((entry) => rewritten(entry.name, 2, 2)),
    ...Object.values(ARITHMETIC).map((entry) => rewritten(entry.name, 2, 2)),
    rewritten('in', 2, 2),
    rewritten('notIn', 2, 2),
    rewritten('and', 2, Infinity),
    rewritten('or', 2, Infinity),
    rewritten('not', 1, 1),
    rewritten('negate', 1, 1),
    xor,
  ],
  unavailable: {},
};
