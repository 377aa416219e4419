/**
 * Compiles HogQL syntax trees to parameterised PostgreSQL over `events e` (with `persons p` joined through the
 * current distinct-id mapping when an expression reads the person). Field names come from the fixed table
 * below and functions from functions.ts; anything else is a HogQLError naming it. Literals and property keys are
 * bound parameters: nothing from the expression text is ever part of the SQL text.
 *
 * Comparisons follow HogQL's null handling: `a = b` is true when both are null, `a != b` is true when only one
 * is, and every other comparison with a null is false, so conditions are always true or false.
 */
import { childrenOf, type CompareOp, type Expr, type IntervalUnit, type QueryRef, type WindowSpec } from './ast.js';
import { buildArray, checkZeroIndex, elementOf } from './arrays.js';
import { HogQLError } from './errors.js';
import { FUNCTIONS, type FunctionDef } from './functions.js';
import { ownEntry } from './lookup.js';
import { join, keyword, param, sql, type Fragment } from './sql.js';
import {
  coerce,
  comparisonType,
  constant,
  jsonKey,
  TYPE_NAMES,
  typed,
  wallClockZone,
  type HogQLType,
  type Scope,
  type Typed,
} from './types.js';

interface Column {
  sql: string;
  type: HogQLType;
  nullable: boolean;
  person?: boolean;
}

/**
 * The fields of an event an expression may name (besides `properties…` and `person…`). An event without a group
 * of a type has '' as its `$group_N`, as in PostHog's events table (a non-nullable string).
 */
const COLUMNS: Readonly<Record<string, Column>> = {
  uuid: { sql: 'e.uuid', type: 'uuid', nullable: false },
  event: { sql: 'e.event', type: 'string', nullable: false },
  timestamp: { sql: 'e.timestamp', type: 'datetime', nullable: false },
  distinct_id: { sql: 'e.distinct_id', type: 'string', nullable: false },
  elements_chain: { sql: 'e.elements_chain', type: 'string', nullable: false },
  person_id: { sql: 'coalesce(p.uuid, e.person_id)', type: 'uuid', nullable: true, person: true },
  $group_0: { sql: "coalesce(e.group_0, '')", type: 'string', nullable: false },
  $group_1: { sql: "coalesce(e.group_1, '')", type: 'string', nullable: false },
  $group_2: { sql: "coalesce(e.group_2, '')", type: 'string', nullable: false },
  $group_3: { sql: "coalesce(e.group_3, '')", type: 'string', nullable: false },
  $group_4: { sql: "coalesce(e.group_4, '')", type: 'string', nullable: false },
};

/**
 * The most parts (Fragment.weight) an expression or a statement may have written out in full. PostgreSQL's
 * planner writes a nested statement's column into each place that reads it, so `x + x` over `x + x` over … is
 * exponential while its text stays short; the planner then builds that tree where no timeout reaches it. The
 * largest queries the text limits allow weigh a few tens of thousands; realistic ones a few hundred.
 */
export const MAX_WEIGHT = 200_000;

/** One of each interval unit; a quarter is three months, as in ClickHouse. */
const INTERVAL_UNITS: Readonly<Record<IntervalUnit, string>> = {
  second: "interval '1 second'",
  minute: "interval '1 minute'",
  hour: "interval '1 hour'",
  day: "interval '1 day'",
  week: "interval '1 week'",
  month: "interval '1 month'",
  quarter: "interval '3 months'",
  year: "interval '1 year'",
};

const CALENDAR_UNITS: readonly IntervalUnit[] = ['day', 'week', 'month', 'quarter', 'year'];

/** The longest of each unit, in seconds (a month of 31 days, a year of 366), to bound a constant interval. */
const UNIT_SECONDS: Readonly<Record<IntervalUnit, number>> = {
  second: 1,
  minute: 60,
  hour: 3600,
  day: 86_400,
  week: 604_800,
  month: 31 * 86_400,
  quarter: 92 * 86_400,
  year: 366 * 86_400,
};

/** Within hogql_shift's bound (10^11 seconds), so that a constant interval never makes a move NULL. */
const MAX_CONSTANT_INTERVAL_SECONDS = 90_000_000_000;

const ARITHMETIC_VERBS = { '+': 'add', '-': 'subtract', '*': 'multiply', '/': 'divide', '%': 'take the remainder of' } as const;

export const FIELD_NAMES = [...Object.keys(COLUMNS), 'properties.<name>', 'person.properties.<name>', 'person.id'];

export interface CompileOptions extends Scope {
  /** Whether aggregate functions may appear (select: yes; where and filters: no). */
  allowAggregates: boolean;
  /** Names the clause in error messages. */
  clause: string;
}

/**
 * A text constant that holds a JSON object or array, compared for equality with a JSON value: written as
 * PostgreSQL writes that JSON (`{"a": 1}`), as the value's text is read, so that the compact text clients send
 * (`{"a":1}`, `[1,2]`) matches what was stored. Any other constant as it is.
 */
function asStoredJsonText(item: Typed): Typed {
  const text = item.constant;
  if (item.type !== 'string' || typeof text !== 'string' || !/^\s*[[{]/.test(text) || text.includes('\\u0000')) return item;
  try {
    JSON.parse(text);
  } catch {
    return item;
  }
  return { ...item, sql: sql`(${param(text, 'jsonb')})::text` };
}

/**
 * `(a, b) IN ((1, 2), (3, 4))` as `(a = 1 AND b = 2) OR (a = 3 AND b = 4)`: each item compared in its own type,
 * as a row comparison is. A list entry that is not a tuple of the same length cannot match and is refused.
 */
function tupleMembership(negated: boolean, items: readonly Expr[], list: readonly Expr[]): Expr {
  const rows = list.map((entry): Expr => {
    if (entry.kind !== 'tuple' || entry.items.length !== items.length) {
      throw new HogQLError(`A tuple of ${items.length} items can only be IN a list of tuples of ${items.length} items.`);
    }
    return { kind: 'and', exprs: items.map((item, index): Expr => ({ kind: 'compare', op: '=', left: item, right: entry.items[index]! })) };
  });
  const any: Expr = rows.length === 0 ? { kind: 'constant', value: false } : rows.length === 1 ? rows[0]! : { kind: 'or', exprs: rows };
  return negated ? { kind: 'not', expr: any } : any;
}

export class Compiler {
  /** Set once an expression reads the person: the query must join `persons p`. */
  usesPerson = false;
  private aggregateDepth = 0;
  /** The parameters of the lambdas being compiled, innermost last: names bound only inside their bodies. */
  private readonly lambdaScopes: ReadonlyMap<string, Typed>[] = [];

  constructor(readonly options: CompileOptions) {}

  /** Whether the expression being compiled is inside an aggregate function's arguments. */
  protected get insideAggregate(): boolean {
    return this.aggregateDepth > 0;
  }

  get scope(): Scope {
    return this.options;
  }

  /** A field by its name chain, from the fixed table. */
  field(chain: readonly (string | number)[]): Typed {
    const [head, ...rest] = chain;
    const name = chain.map(String).join('.');
    if (head === 'properties') return this.jsonPath(keyword('e.properties'), rest, false);
    if (head === 'person') {
      const [second, ...more] = rest;
      if (second === 'properties') {
        this.usesPerson = true;
        return this.jsonPath(keyword('p.properties'), more, true);
      }
      if (second === 'id' && more.length === 0) return this.field(['person_id']);
      throw new HogQLError(`Unknown field "${name}".`);
    }
    const column = typeof head === 'string' ? ownEntry(COLUMNS, head) : undefined;
    if (!column) throw new HogQLError(`Unknown field "${name}".`);
    if (rest.length > 0) throw new HogQLError(`The field "${String(head)}" has no field "${rest.map(String).join('.')}".`);
    if (column.person) this.usesPerson = true;
    return typed(keyword(column.sql), column.type, column.nullable);
  }

  /** A value inside a JSON document: `document -> key -> key …`. */
  jsonPath(document: Fragment, keys: readonly (string | number)[], documentNullable: boolean): Typed {
    let fragment = document;
    for (const key of keys) fragment = sql`(${fragment} -> ${jsonKey(key)})`;
    return {
      ...typed(fragment, 'json', documentNullable || keys.length > 0),
      jsonPath: { document, keys: [...keys] },
    };
  }

  /** How many lambdas enclose the expression being compiled (their subqueries' aliases are numbered by it). */
  get lambdaDepth(): number {
    return this.lambdaScopes.length;
  }

  /**
   * Compiles a lambda's body with its parameters bound to `values`: inside it they shadow fields and aliases of
   * the same names. The body is compiled once, whatever the array's length.
   */
  withLambdaParams(params: readonly string[], values: readonly Typed[], body: () => Typed): Typed {
    this.lambdaScopes.push(new Map(params.map((name, index) => [name, values[index]!])));
    try {
      return body();
    } finally {
      this.lambdaScopes.pop();
    }
  }

  /**
   * An aggregate inside a lambda's body is computed over the query's rows, before the lambda runs, as ClickHouse
   * computes it (`arrayMap(d -> indexOf(groupArray(day), d), days)`): so it may not read the lambda's parameters.
   * It must read a field of the query, since PostgreSQL gives an aggregate with no field to the innermost query,
   * which here is the lambda's own.
   */
  private checkAggregateInLambda(name: string, args: readonly Expr[]): void {
    const params = new Set(this.lambdaScopes.flatMap((scope) => [...scope.keys()]));
    let readsField = false;
    const visit = (expr: Expr): void => {
      if (expr.kind === 'field') {
        const head = expr.chain[0];
        if (typeof head === 'string' && params.has(head)) {
          throw new HogQLError(`${name}() inside a lambda cannot read the lambda's parameter "${head}": aggregates are computed before the lambda runs.`);
        }
        readsField = true;
      }
      childrenOf(expr).forEach(visit);
    };
    args.forEach(visit);
    if (!readsField) throw new HogQLError(`${name}() inside a lambda must read a field of the query; compute it outside the lambda.`);
  }

  /** A lambda parameter named by `chain`'s head, with the rest of the chain read inside it; undefined when none. */
  private lambdaParam(chain: readonly (string | number)[]): Typed | undefined {
    const [head, ...rest] = chain;
    if (typeof head !== 'string') return undefined;
    for (let index = this.lambdaScopes.length - 1; index >= 0; index -= 1) {
      const value = this.lambdaScopes[index]!.get(head);
      if (value === undefined) continue;
      return rest.reduce<Typed>(
        (container, key) => elementOf(container, constant(key), typeof key === 'number' && container.tupleTypes !== undefined, this.scope),
        value,
      );
    }
    return undefined;
  }

  /** An expression, refused when it is too large written out in full (see MAX_WEIGHT). */
  compile(expr: Expr): Typed {
    const value = this.compileExpr(expr);
    if (value.sql.weight > MAX_WEIGHT) {
      throw new HogQLError(
        `The query is too complex: an expression in ${this.options.clause} would have more than ${MAX_WEIGHT} parts once the columns of nested queries it reads are written out as their expressions.`,
      );
    }
    return value;
  }

  private compileExpr(expr: Expr): Typed {
    switch (expr.kind) {
      case 'constant':
        return constant(expr.value);
      case 'field':
        return this.lambdaParam(expr.chain) ?? this.field(expr.chain);
      case 'call':
        if (expr.over) return this.windowCall(expr.name, expr.args, expr.params, expr.over);
        return this.call(expr.name, expr.args, expr.params);
      case 'arithmetic':
        return this.arithmetic(expr.op, this.compile(expr.left), this.compile(expr.right));
      case 'negate': {
        const value = this.compile(expr.expr);
        if (value.type === 'interval') return { ...value, sql: sql`(- ${value.sql})`, constant: undefined };
        const number = this.numeric(value);
        return { ...number, sql: sql`(- ${number.sql})`, constant: undefined };
      }
      case 'compare':
        return this.comparison(expr.op, this.compile(expr.left), this.compile(expr.right));
      case 'in':
        if (expr.expr.kind === 'tuple') return this.compile(tupleMembership(expr.negated, expr.expr.items, expr.list));
        return this.membership(expr.negated, this.compile(expr.expr), expr.list.map((item) => this.compile(item)));
      case 'inQuery':
        if (expr.expr.kind === 'tuple') return this.inQueryRow(expr.negated, expr.expr.items.map((item) => this.compile(item)), expr.query);
        return this.inQuery(expr.negated, this.compile(expr.expr), expr.query);
      case 'subquery':
        return this.scalarQuery(expr.query);
      case 'between': {
        const value = this.compile(expr.expr);
        const low = this.compile(expr.low);
        const high = this.compile(expr.high);
        const type = comparisonType(value, low, true) ?? this.incomparable(value, low);
        if (comparisonType(value, high, true) === null) this.incomparable(value, high);
        const [v, l, h] = [value, low, high].map((item) => coerce(item, type, this.scope)) as [Typed, Typed, Typed];
        const nullable = v.nullable || l.nullable || h.nullable;
        const body = sql`${v.sql} ${keyword(expr.negated ? 'not between' : 'between')} ${l.sql} and ${h.sql}`;
        // A missing value is neither between nor not between (ClickHouse's NULL, which a filter drops).
        return this.boolean(nullable ? sql`coalesce(${body}, false)` : sql`(${body})`, [v, l, h]);
      }
      case 'isNull': {
        const value = this.compile(expr.expr);
        return this.boolean(this.nullTest(value, expr.negated), [value]);
      }
      case 'and':
      case 'or': {
        const parts = expr.exprs.map((item) => this.compile(item));
        const conditions = parts.map((part) => this.truth(part));
        return this.boolean(sql`(${join(conditions, ` ${expr.kind} `)})`, parts);
      }
      case 'not': {
        const value = this.compile(expr.expr);
        return this.boolean(sql`(not ${this.truth(value)})`, [value]);
      }
      case 'interval':
        return this.interval(this.compile(expr.amount), expr.unit);
      case 'alias':
        return this.compile(expr.expr);
      case 'array':
      case 'tuple':
        return buildArray(
          expr.items.map((item) => this.compile(item)),
          this.scope,
          expr.kind === 'tuple',
        );
      case 'element':
        checkZeroIndex(expr.expr, expr.index);
        return elementOf(this.compile(expr.expr), this.compile(expr.index), expr.tuple, this.scope);
      case 'lambda':
        throw new HogQLError('A lambda (x -> …) can only be an argument of a function that calls it, such as arrayMap().');
    }
  }

  /** A condition: compiled, brought to a boolean, never null. */
  condition(expr: Expr): Fragment {
    return this.truth(this.compile(expr));
  }

  /** The truth of a value: booleans as they are (null is false), numbers non-zero, JSON true or "true". */
  truth(value: Typed): Fragment {
    if (!['boolean', 'json', 'int', 'float', 'null'].includes(value.type)) {
      throw new HogQLError(`A ${TYPE_NAMES[value.type]} is not a condition; compare it with something.`);
    }
    const bool = coerce(value, 'boolean', this.scope);
    return bool.nullable ? sql`coalesce(${bool.sql}, false)` : bool.sql;
  }

  boolean(fragment: Fragment, parts: readonly Typed[]): Typed {
    return typed(fragment, 'boolean', false, parts.some((part) => part.aggregate));
  }

  numeric(value: Typed): Typed {
    if (value.type === 'int' || value.type === 'float') return value;
    if (value.type === 'boolean') return coerce(value, 'int', this.scope);
    return coerce(value, 'float', this.scope);
  }

  nullTest(value: Typed, negated: boolean): Fragment {
    if (value.type === 'json') {
      return sql`(coalesce(jsonb_typeof(${value.sql}), 'null') ${keyword(negated ? '<>' : '=')} 'null')`;
    }
    if (!value.nullable) return keyword(negated ? 'true' : 'false');
    return sql`(${value.sql} ${keyword(negated ? 'is not null' : 'is null')})`;
  }

  private incomparable(left: Typed, right: Typed): never {
    throw new HogQLError(`Cannot compare a ${TYPE_NAMES[left.type]} with a ${TYPE_NAMES[right.type]}.`);
  }

  comparison(op: CompareOp, left: Typed, right: Typed): Typed {
    if (left.type === 'null' || right.type === 'null') {
      const other = left.type === 'null' ? right : left;
      if (op === '=') return this.boolean(this.nullTest(other, false), [other]);
      if (op === '!=') return this.boolean(this.nullTest(other, true), [other]);
      return this.boolean(keyword('false'), [other]);
    }
    const textual = op.endsWith('like');
    const ordering = !textual && !['=', '!='].includes(op);
    if (ordering && (left.type === 'array' || right.type === 'array')) {
      // jsonb orders arrays by length first, ClickHouse element by element: no answer rather than another one.
      throw new HogQLError(`Arrays and tuples can only be compared with = and !=, not ${op}.`);
    }
    if (ordering && left.type === 'json' && right.type === 'json') return this.jsonOrdering(op, left, right);
    const type = textual ? 'string' : (comparisonType(left, right, ordering) ?? this.incomparable(left, right));
    const equality = op === '=' || op === '!=';
    const l = coerce(equality && right.type === 'json' ? asStoredJsonText(left) : left, type, this.scope);
    const r = coerce(equality && left.type === 'json' ? asStoredJsonText(right) : right, type, this.scope);
    const sqlOp = op === '!=' ? '<>' : op;
    const body = sql`${l.sql} ${keyword(sqlOp)} ${r.sql}`;
    const parts = [l, r];
    if (!l.nullable && !r.nullable) return this.boolean(sql`(${body})`, parts);
    if (l.nullable && r.nullable && (op === '=' || op === '!=')) {
      return this.boolean(sql`(${l.sql} ${keyword(op === '=' ? 'is not distinct from' : 'is distinct from')} ${r.sql})`, parts);
    }
    const negative = op === '!=' || op.startsWith('not ');
    return this.boolean(sql`coalesce(${body}, ${keyword(negative ? 'true' : 'false')})`, parts);
  }

  /**
   * Two JSON values (properties, or `coalesce`/`if` results holding them) ordered as numbers when both read as
   * numbers, as text otherwise, as min() and max() compare them: "b" > "a" holds, 10 > 9 too.
   */
  private jsonOrdering(op: CompareOp, left: Typed, right: Typed): Typed {
    const [leftNumber, rightNumber] = [coerce(left, 'float', this.scope), coerce(right, 'float', this.scope)];
    const [leftText, rightText] = [coerce(left, 'string', this.scope), coerce(right, 'string', this.scope)];
    const bothNumbers = sql`${leftNumber.sql} is not null and ${rightNumber.sql} is not null`;
    const [asNumbers, asTexts] = [sql`${leftNumber.sql} ${keyword(op)} ${rightNumber.sql}`, sql`${leftText.sql} ${keyword(op)} ${rightText.sql}`];
    return this.boolean(sql`coalesce((case when ${bothNumbers} then ${asNumbers} else ${asTexts} end), false)`, [left, right]);
  }

  membership(negated: boolean, value: Typed, list: readonly Typed[]): Typed {
    const items = list.filter((item) => item.type !== 'null');
    if (items.length === 0) return this.boolean(keyword(negated ? 'true' : 'false'), [value]);
    const numeric = (t: HogQLType) => t === 'int' || t === 'float';
    let type: HogQLType | null = null;
    for (const item of items) {
      const pair = comparisonType(value, item, false) ?? this.incomparable(value, item);
      if (type === null) type = pair;
      else if (type !== pair) type = numeric(type) && numeric(pair) ? 'float' : 'string';
    }
    const target = type!;
    const v = coerce(value, target, this.scope);
    const coerced = items.map((item) => coerce(value.type === 'json' ? asStoredJsonText(item) : item, target, this.scope));
    const body = sql`${v.sql} ${keyword(negated ? 'not in' : 'in')} (${join(coerced.map((item) => item.sql), ', ')})`;
    const nullable = v.nullable || coerced.some((item) => item.nullable);
    return this.boolean(nullable ? sql`coalesce(${body}, ${keyword(negated ? 'true' : 'false')})` : sql`(${body})`, [v, ...coerced]);
  }

  /**
   * `amount` units as an interval. A constant of at most some 3,000 years is one PostgreSQL always moves a
   * datetime by; any other amount goes through hogql_interval_scale, NULL where it would leave PostgreSQL's
   * range. ClickHouse's intervals hold whole units: one of whole days or longer added to a Date keeps it a Date.
   */
  interval(amount: Typed, unit: IntervalUnit): Typed {
    const number = this.numeric(amount);
    const one = keyword(ownEntry(INTERVAL_UNITS, unit)!);
    const calendarDays = number.type === 'int' && CALENDAR_UNITS.includes(unit);
    const value = number.constant;
    if (typeof value === 'number' && Math.abs(value) * ownEntry(UNIT_SECONDS, unit)! <= MAX_CONSTANT_INTERVAL_SECONDS) {
      return { ...typed(sql`((${number.sql})::float8 * ${one})`, 'interval', false), calendarDays };
    }
    return { ...typed(sql`hogql_interval_scale(${one}, (${number.sql})::numeric)`, 'interval', true, number.aggregate), calendarDays };
  }

  /** An interval times a number; NULL where it would leave PostgreSQL's range. */
  private scaled(interval: Typed, factor: Typed): Typed {
    return {
      ...typed(sql`hogql_interval_scale(${interval.sql}, (${factor.sql})::numeric)`, 'interval', true, interval.aggregate || factor.aggregate),
      calendarDays: Boolean(interval.calendarDays && factor.type === 'int'),
    };
  }

  arithmetic(op: '+' | '-' | '*' | '/' | '%', left: Typed, right: Typed): Typed {
    const aggregate = left.aggregate || right.aggregate;
    const nullable = left.nullable || right.nullable;
    const temporal = (value: Typed) => value.type === 'datetime' || value.type === 'date';
    // As in ClickHouse, a number added to (or taken from) a datetime is seconds: `timestamp + 1` is a second
    // later, and so is `timestamp + properties.delay` with a delay of 1.
    const number = (value: Typed) => ['int', 'float', 'json', 'boolean'].includes(value.type);
    if (op === '+' || op === '-') {
      if (temporal(left) && right.type === 'interval') return this.shift(op, left, right);
      if (op === '+' && left.type === 'interval' && temporal(right)) return this.shift(op, right, left);
      if (left.type === 'interval' && right.type === 'interval') {
        const other = op === '-' ? sql`(- ${right.sql})` : right.sql;
        return {
          ...typed(sql`hogql_interval_sum(${left.sql}, ${other})`, 'interval', true, aggregate),
          calendarDays: Boolean(left.calendarDays && right.calendarDays),
        };
      }
      if (op === '-' && temporal(left) && temporal(right)) {
        if (left.type === 'date' && right.type === 'date') {
          return typed(sql`((${left.sql} - ${right.sql})::bigint)`, 'int', nullable, aggregate);
        }
        const l = coerce(left, 'datetime', this.scope);
        const r = coerce(right, 'datetime', this.scope);
        return typed(sql`extract(epoch from (${l.sql} - ${r.sql}))`, 'float', nullable, aggregate);
      }
      // A whole number added to a Date is days, as in ClickHouse (NULL beyond the range, as an interval would be).
      if (left.type === 'date' && right.type === 'int') return this.shift(op, left, this.interval(right, 'day'));
      if (left.type === 'datetime' && number(right)) return this.shift(op, left, this.seconds(this.numeric(right)));
      if (op === '+' && number(left) && right.type === 'datetime') return this.shift(op, right, this.seconds(this.numeric(left)));
    }
    if (op === '*' && left.type === 'interval' && number(right)) return this.scaled(left, this.numeric(right));
    if (op === '*' && number(left) && right.type === 'interval') return this.scaled(right, this.numeric(left));
    if (left.type === 'interval' || right.type === 'interval') {
      throw new HogQLError(`Cannot ${ARITHMETIC_VERBS[op]} ${TYPE_NAMES[left.type]} and ${TYPE_NAMES[right.type]} values.`);
    }
    const l = this.numeric(left);
    const r = this.numeric(right);
    if (op === '/') {
      return typed(sql`((${l.sql})::numeric / nullif((${r.sql})::numeric, 0))`, 'float', true, aggregate);
    }
    const type: HogQLType = l.type === 'int' && r.type === 'int' ? 'int' : 'float';
    const lt = coerce(l, type, this.scope);
    const rt = coerce(r, type, this.scope);
    if (op === '%') return typed(sql`(${lt.sql} % nullif(${rt.sql}, 0))`, type, true, aggregate);
    return typed(sql`(${lt.sql} ${keyword(op)} ${rt.sql})`, type, lt.nullable || rt.nullable, aggregate);
  }

  private seconds(count: Typed): Typed {
    return this.interval(count, 'second');
  }

  /**
   * A datetime moved by an interval (hogql_shift: days and longer on the wall clock of the datetime's zone, the
   * rest as elapsed time); a Date moved by whole days, weeks, months or years stays a Date.
   */
  private shift(op: '+' | '-', moment: Typed, interval: Typed): Typed {
    const aggregate = moment.aggregate || interval.aggregate;
    const nullable = moment.nullable || interval.nullable;
    const by = op === '-' ? sql`(- ${interval.sql})` : interval.sql;
    if (moment.type === 'date' && interval.calendarDays) {
      return typed(sql`(hogql_shift((${moment.sql})::timestamp at time zone 'UTC', ${by}, 'UTC') at time zone 'UTC')::date`, 'date', nullable, aggregate);
    }
    const at = coerce(moment, 'datetime', this.scope);
    const shifted = typed(sql`hogql_shift(${at.sql}, ${by}, ${wallClockZone(at, this.scope)})`, 'datetime', nullable, aggregate);
    return at.zone ? { ...shifted, zone: at.zone } : shifted;
  }

  /** `(SELECT …)` as a value: a compiler of statements compiles the nested one. */
  protected scalarQuery(_query: QueryRef): Typed {
    throw new HogQLError('Subqueries are not supported here.');
  }

  /** `x IN (SELECT …)`: a compiler of statements compiles the nested one. */
  protected inQuery(_negated: boolean, _value: Typed, _query: QueryRef): Typed {
    throw new HogQLError('Subqueries are not supported here.');
  }

  /** `(a, b) IN (SELECT x, y …)`: a compiler of statements compiles the nested one. */
  protected inQueryRow(_negated: boolean, _values: readonly Typed[], _query: QueryRef): Typed {
    throw new HogQLError('Subqueries are not supported here.');
  }

  /** `f(…) OVER (…)`: a compiler of statements compiles window functions. */
  protected windowCall(name: string, _args: readonly Expr[], _params: readonly Expr[] | undefined, _over: WindowSpec): Typed {
    throw new HogQLError(`Window functions such as ${name}() OVER (…) are only supported in a SELECT query.`);
  }

  /** The function a call names; a compiler for a wider language adds its own. */
  protected functionNamed(lowerCaseName: string): FunctionDef | undefined {
    return ownEntry(FUNCTIONS, lowerCaseName);
  }

  /** A call of a name no table has; a compiler that knows why a function is missing says so. */
  protected unknownFunction(name: string): never {
    throw new HogQLError(`Unknown function "${name}".`);
  }

  call(name: string, args: readonly Expr[], params?: readonly Expr[]): Typed {
    const fn = this.functionNamed(name.toLowerCase());
    if (!fn) this.unknownFunction(name);
    const [minParams, maxParams] = fn.params ?? [0, 0];
    if (params !== undefined && (params.length < minParams || params.length > maxParams)) {
      throw new HogQLError(maxParams === 0 ? `${fn.name}() takes no parameters.` : `${fn.name}() takes ${minParams} to ${maxParams} parameters, got ${params.length}.`);
    }
    if (params === undefined && minParams > 0) throw new HogQLError(`${fn.name}() needs its parameters: ${fn.name}(p)(x).`);
    if (args.length < fn.minArgs || args.length > fn.maxArgs) {
      const expected = fn.minArgs === fn.maxArgs ? `${fn.minArgs}` : fn.maxArgs === Infinity ? `at least ${fn.minArgs}` : `${fn.minArgs} to ${fn.maxArgs}`;
      throw new HogQLError(`${fn.name}() takes ${expected} argument${expected === '1' ? '' : 's'}, got ${args.length}.`);
    }
    if (!fn.aggregate) return fn.compile(this, args, params ?? []);
    if (!this.options.allowAggregates) {
      throw new HogQLError(`Aggregate functions such as ${fn.name}() are not allowed in ${this.options.clause}.`);
    }
    if (this.aggregateDepth > 0) throw new HogQLError(`Aggregate functions cannot be nested: ${fn.name}() inside another.`);
    if (this.lambdaScopes.length > 0) this.checkAggregateInLambda(fn.name, [...args, ...(params ?? [])]);
    this.aggregateDepth += 1;
    try {
      return { ...fn.compile(this, args, params ?? []), aggregate: true };
    } finally {
      this.aggregateDepth -= 1;
    }
  }
}
