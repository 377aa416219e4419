/**
 * What every compiler of a SELECT shares: the context nested statements are compiled in, the bound on what they
 * cost together, and the expression compiler each table's fields extend (window calls, the SELECT functions,
 * `IN (SELECT …)`).
 */
import type { Expr, QueryRef, WindowSpec } from '../ast.js';
import { Compiler, MAX_WEIGHT, type CompileOptions } from '../compiler.js';
import { HogQLError } from '../errors.js';
import type { FunctionDef } from '../functions.js';
import { UNAVAILABLE } from '../library/index.js';
import { ownEntry } from '../lookup.js';
import { columnReference, join, keyword, sql, type Fragment } from '../sql.js';
import { coerce, comparisonType, TYPE_NAMES, typed, type Typed } from '../types.js';
import { functionDefinition } from './functions.js';
import type { QueryNode } from './parser.js';
import { compileWindowCall } from './window.js';

export interface SelectOptions {
  teamId: number;
  timezone: string;
  /** Rows returned without a LIMIT (one more is read, to tell whether more exist). */
  defaultLimit: number;
  /** The most rows a LIMIT may ask for; larger ones are lowered to it. */
  maxLimit: number;
  /**
   * A condition ANDed to the outermost SELECT's WHERE, compiled by its WHERE compiler: for filters that are not
   * HogQL (the event query's property filters), over `events e` only.
   */
  outerCondition?: (where: Compiler) => Fragment;
}

/** A compiled query: a statement whose columns are c0, c1, …, of these values' types, by these names. */
export interface Core {
  sql: Fragment;
  values: Typed[];
  names: string[];
}

/** How nested statements are compiled: the caller's options, the WITH queries in reach, internal aliases. */
/** The joins an events query adds when an expression reads them: a group of each type, the session. */
export type ImplicitJoin = 'group_0' | 'group_1' | 'group_2' | 'group_3' | 'group_4' | 'session';

export interface Context {
  options: SelectOptions;
  /** The statement that compileSelect was given (the one `outerCondition` applies to). */
  outermost: QueryNode;
  ctes: ReadonlyMap<string, QueryNode>;
  /** WITH queries being expanded (one that names itself would never end). */
  expanding: ReadonlySet<string>;
  aliases: { next: number };
  /** The weight of every statement compiled so far, nested ones included (see COMPILE_BUDGET). */
  compiled: { weight: number };
  /** Compiles a nested statement (`IN (SELECT …)`) with this context: compiler.ts's compileNode. */
  compileNested(node: QueryNode, context: Context): Core;
}

/**
 * The most weight (Fragment.weight) the statements compiled for one query may have together, nested ones counted
 * in each statement that holds them. A WITH query is compiled again at each use, so a chain of them that each
 * read the previous twice doubles at each link, as do nested queries whose columns each read the one below
 * twice (which PostgreSQL's planner writes out): summing as each statement is done stops such a query after
 * about this much work, where a bound on the result alone would only see it once built. Realistic queries come
 * to a few thousand; the largest the text limit allows, without nesting, to tens of thousands.
 */
const COMPILE_BUDGET = 2 * MAX_WEIGHT;

/** A compiled statement, counted; refused once the query's statements come to more than COMPILE_BUDGET. */
export function bounded(core: Core, context: Context): Core {
  context.compiled.weight += core.sql.weight;
  if (context.compiled.weight > COMPILE_BUDGET) {
    throw new HogQLError(
      `The query is too complex: written out in full, with each WITH query at each of its uses and the columns of nested queries as their expressions, its statements come to more than ${COMPILE_BUDGET} parts.`,
    );
  }
  return core;
}

export function internalAlias(context: Context): string {
  context.aliases.next += 1;
  return `s${context.aliases.next}`;
}

/**
 * What every table's compiler shares: the added functions, and `IN (SELECT …)`, whose statement is compiled with
 * the same environment filter as every other.
 */
export abstract class StatementCompiler extends Compiler {
  /** The implicit joins of events an expression reads (`group_0` … `group_4`, `session`). */
  readonly implicitJoins = new Set<ImplicitJoin>();
  private insideWindow = false;

  constructor(
    options: CompileOptions,
    protected readonly context: Context,
  ) {
    super(options);
  }

  protected override windowCall(name: string, args: readonly Expr[], params: readonly Expr[] | undefined, over: WindowSpec): Typed {
    // PostgreSQL computes windows after aggregates: an aggregate may hold none.
    if (this.insideAggregate) throw new HogQLError(`A window function such as ${name}() OVER (…) cannot be inside an aggregate function.`);
    if (this.insideWindow) throw new HogQLError(`Window functions cannot be nested: ${name}() OVER (…) inside another.`);
    this.insideWindow = true;
    try {
      return compileWindowCall(this, name, args, params, over);
    } finally {
      this.insideWindow = false;
    }
  }

  protected override functionNamed(lowerCaseName: string): FunctionDef | undefined {
    return functionDefinition(lowerCaseName);
  }

  protected override unknownFunction(name: string): never {
    const missing = ownEntry(UNAVAILABLE, name.toLowerCase());
    if (missing) throw new HogQLError(`The function ${missing.name}() is not available: ${missing.reason}`);
    return super.unknownFunction(name);
  }

  /**
   * `(SELECT …)` as a value: the nested statement (with its own environment filter), its first row's one column;
   * null when it has no row. (ClickHouse refuses a second row; PostgreSQL would fail, so the first one is read.)
   */
  protected override scalarQuery(query: QueryRef): Typed {
    const core = this.context.compileNested(query as QueryNode, this.context);
    if (core.values.length !== 1) throw new HogQLError(`A subquery used as a value must select one column, not ${core.values.length}.`);
    const column = core.values[0]!;
    const alias = internalAlias(this.context);
    const read = columnReference(`${alias}.c0`, column.sql.weight);
    return { ...typed(sql`(select ${read} from (${core.sql}) ${keyword(alias)} limit 1)`, column.type, true), zone: column.zone, element: column.element };
  }

  protected override inQuery(negated: boolean, value: Typed, query: QueryRef): Typed {
    return this.inQueryRow(negated, [value], query);
  }

  /**
   * `x IN (SELECT c …)` and `(a, b) IN (SELECT c, d …)`: a row comparison, each item brought to the type its
   * column compares in.
   */
  protected override inQueryRow(negated: boolean, values: readonly Typed[], query: QueryRef): Typed {
    const core = this.context.compileNested(query as QueryNode, this.context);
    if (core.values.length !== values.length) {
      const what = values.length === 1 ? 'one column' : `${values.length} columns, one for each item of the tuple`;
      throw new HogQLError(`A subquery after IN must select ${what}, not ${core.values.length}.`);
    }
    const alias = internalAlias(this.context);
    const pairs = values.map((value, index) => {
      const column = core.values[index]!;
      const type = comparisonType(value, column, false);
      if (type === null) throw new HogQLError(`Cannot compare a ${TYPE_NAMES[value.type]} with a ${TYPE_NAMES[column.type]}.`);
      const inner = coerce(typed(columnReference(`${alias}.c${index}`, column.sql.weight), column.type, column.nullable), type, this.scope);
      return { outer: coerce(value, type, this.scope), inner };
    });
    const row = (fragments: Fragment[]) => (fragments.length === 1 ? fragments[0]! : sql`(${join(fragments, ', ')})`);
    const outer = row(pairs.map((pair) => pair.outer.sql));
    const inner = join(pairs.map((pair) => pair.inner.sql), ', ');
    const present = join(pairs.map((pair) => sql`${pair.inner.sql} is not null`), ' and ');
    // As in ClickHouse, the nested query's nulls are in no set; a null value is in none either.
    const body = sql`${outer} ${keyword(negated ? 'not in' : 'in')} (select ${inner} from (${core.sql}) ${keyword(alias)} where ${present})`;
    return this.boolean(sql`coalesce(${body}, ${keyword(negated ? 'true' : 'false')})`, pairs.map((pair) => pair.outer));
  }
}
