/**
 * The HogQL SELECT statement: `[WITH name AS (query), …] SELECT [DISTINCT] items [FROM table|(query)|cte|numbers(…)
 * [AS alias] [joins] [[LEFT] ARRAY JOIN arrays]] [WINDOW …] [PREWHERE] [WHERE] [GROUP BY] [HAVING] [WINDOW …]
 * [ORDER BY] [LIMIT n [OFFSET m] BY exprs] [LIMIT n [OFFSET m]] [UNION ALL|UNION DISTINCT|INTERSECT|EXCEPT SELECT …]`,
 * with `x [NOT] IN (query)`, `(expr AS name)` and `f(…) OVER (…)` in expressions, parsed into a QueryNode.
 * Expressions are the expression parser's (parser.ts); `{name}` placeholders become constants of the tree, taken
 * from the request's `values`, so that nothing a caller binds is ever read as query text.
 */
import type { Expr, FrameBound, QueryRef, WindowSpec } from '../ast.js';
import { HogQLError } from '../errors.js';
import { MAX_EXPRESSION_LENGTH, Parser, tokenize, type PlaceholderValues } from '../parser.js';

/** Longest query accepted, in characters. */
export const MAX_QUERY_LENGTH = 4 * MAX_EXPRESSION_LENGTH;

export interface SelectColumn {
  /** `*`: every field of the table, in the table's order (of each joined table's, in the joins' order). */
  star: boolean;
  /** `alias.*`: every field of that table only. */
  of?: string;
  expr: Expr;
  alias: string | null;
}

export interface OrderTerm {
  expr: Expr;
  descending: boolean;
  /** `NULLS FIRST`; nulls come last otherwise, ascending or descending, as in ClickHouse. */
  nullsFirst?: boolean;
}

/** A table by name (a stored table or a CTE), a nested query, or the table function `numbers(…)`. */
export type FromSource =
  | { table: string; alias: string | null }
  | { query: QueryNode; alias: string | null }
  | { tableFunction: 'numbers'; args: Expr[]; alias: string | null };

export type JoinType = 'inner' | 'left' | 'right' | 'full' | 'cross';

/**
 * ClickHouse's strictness of a join: ALL (every matching row, the default), ANY (one matching row of the right
 * side), SEMI (the left rows that have a match, once each), ANTI (the left rows that have none).
 */
export type JoinStrictness = 'all' | 'any' | 'semi' | 'anti';

/**
 * `[INNER|LEFT|RIGHT|FULL [OUTER]|CROSS] [ANY|ALL|SEMI|ANTI] JOIN source ON condition | USING (names)`, or a
 * comma in FROM (a cross join).
 */
export interface JoinClause {
  type: JoinType;
  strictness: JoinStrictness;
  source: FromSource;
  /** The condition of ON; null for a cross join and USING. */
  on: Expr | null;
  /** The names of USING. */
  using: string[] | null;
  /** Written as `, source`. */
  comma: boolean;
}

/** `[LEFT] ARRAY JOIN arr AS a, arr2 AS b`: one row per element of the arrays (zipped), LEFT keeping empty ones. */
export interface ArrayJoin {
  left: boolean;
  items: { expr: Expr; alias: string | null }[];
}

/** ClickHouse's `LIMIT n [OFFSET m] BY exprs`: at most n rows (after the first m) of each value of exprs. */
export interface LimitBy {
  count: number;
  offset: number;
  by: Expr[];
}

export interface SelectQuery {
  kind: 'select';
  /** `WITH name AS (query)`: names a FROM may use, here and in nested queries. */
  ctes: [string, QueryNode][];
  /** `WITH expr AS name`: names for expressions in this SELECT, as its columns' aliases are. */
  withNames?: [string, Expr][];
  distinct: boolean;
  columns: SelectColumn[];
  /** Null for a SELECT without FROM: one row. */
  from: FromSource | null;
  joins: JoinClause[];
  /** (Optional, as in the queries other modules build, which have none.) */
  arrayJoin?: ArrayJoin | null;
  /** `WINDOW name AS (…)`: windows OVER may name. */
  windows?: [string, WindowSpec][];
  where: Expr | null;
  groupBy: Expr[];
  having: Expr | null;
  orderBy: OrderTerm[];
  limitBy: LimitBy | null;
  limit: number | null;
  offset: number | null;
  /** `LIMIT n WITH TIES`: also the rows after the n-th that tie with it in ORDER BY. */
  withTies?: boolean;
}

/** How a later part of a set operation combines with what comes before it. */
export type SetOperator = 'union all' | 'union distinct' | 'intersect' | 'intersect distinct' | 'except' | 'except distinct';

/**
 * `SELECT … UNION ALL SELECT …` and the other set operations: `operators[i]` joins `parts[i + 1]` to what comes
 * before it, INTERSECT before UNION and EXCEPT (as in ClickHouse and PostgreSQL).
 */
export interface UnionQuery {
  kind: 'union';
  parts: SelectQuery[];
  operators: SetOperator[];
}

export type QueryNode = SelectQuery | UnionQuery;

/** Words that end a select item or a table reference rather than name an alias. */
const CLAUSE_WORDS = new Set([
  'from', 'where', 'group', 'having', 'order', 'limit', 'offset', 'union', 'join', 'inner', 'left', 'right', 'full',
  'cross', 'on', 'using', 'with', 'as', 'asc', 'desc', 'and', 'or', 'not', 'select', 'settings', 'prewhere', 'array',
  'over', 'by', 'rows', 'range', 'window', 'global', 'any', 'all', 'semi', 'anti', 'asof', 'outer', 'sample', 'final',
  'qualify', 'intersect', 'except',
]);

/**
 * What a request's `{filters}`, `{filters.dateRange.from|to}` and `{variables.name}` stand for (placeholders.ts
 * builds it): trees of constants, never query text.
 */
export interface QueryPlaceholders {
  /** `{filters}` in a SELECT that reads these of the tables events, sessions and groups (FROM and JOINs). */
  filters(tables: ReadonlySet<FilterTable>): Expr;
  /** A bound of the date range, or null when it is not given (the comparison holding it then always holds). */
  dateBound(which: 'from' | 'to'): Expr | null;
  /** `{variables.<code_name>}`. */
  variable(codeName: string): Expr;
}

export type FilterTable = 'events' | 'sessions' | 'groups';
const FILTER_TABLES: readonly string[] = ['events', 'sessions', 'groups'] satisfies FilterTable[];

/** Without a request's filters and variables: `{filters}` holds for every row and no variable exists. */
export const NO_PLACEHOLDERS: QueryPlaceholders = {
  filters: () => ({ kind: 'constant', value: true }),
  dateBound: () => null,
  variable: (codeName) => {
    throw new HogQLError(`Variable ${codeName} is missing from query.`);
  },
};
/** Words that may stand before JOIN: its type, its strictness, OUTER and GLOBAL. */
const JOIN_WORDS = new Set(['global', 'inner', 'left', 'right', 'full', 'cross', 'outer', 'semi', 'anti', 'any', 'all', 'asof']);

/**
 * The most rows numbers() may produce: enough for any series of days, hours or buckets a report needs, while a
 * cross join of two of them stays within what the statement timeout reads.
 */
export const MAX_NUMBERS = 1_000_000;

class StatementParser extends Parser {
  /** The `{filters}` of each SELECT being read, innermost last: filled once its FROM and JOINs are known. */
  private readonly filterSlots: Expr[][] = [];
  /** Date bounds that were not given, each to be dropped with the comparison that holds it. */
  private readonly unboundedDates = new Set<Expr>();

  constructor(
    text: string,
    values: PlaceholderValues,
    private readonly filled: QueryPlaceholders,
  ) {
    super(tokenize(text, true), values);
  }

  /** The whole text: one query, optionally ended by `;`. */
  statement(): QueryNode {
    const query = this.query();
    if (this.isOp(';')) this.advance();
    if (!this.atEnd()) this.fail('the end of the query');
    if (this.unboundedDates.size > 0) {
      throw new HogQLError(
        'A {filters.dateRange.from} or {filters.dateRange.to} placeholder must be used directly in a comparison (such as timestamp >= {filters.dateRange.from}) when the date range does not set it.',
      );
    }
    return query;
  }

  protected override namedPlaceholder(chain: readonly string[]): Expr {
    const path = chain.join('.');
    if (path === 'filters') {
      const slots = this.filterSlots.at(-1);
      if (!slots) throw new HogQLError('The placeholder {filters} can only be used inside a SELECT.');
      // A stand-in, replaced in place by the condition once the SELECT's tables are read.
      const slot: Expr = { kind: 'constant', value: true };
      slots.push(slot);
      return slot;
    }
    if (path === 'filters.dateRange.from' || path === 'filters.dateRange.to') {
      const bound = this.filled.dateBound(path.endsWith('from') ? 'from' : 'to');
      if (bound) return bound;
      const unbounded: Expr = { kind: 'constant', value: true };
      this.unboundedDates.add(unbounded);
      return unbounded;
    }
    if (chain[0] === 'filters') {
      throw new HogQLError(`Unsupported filters placeholder {${path}}. Supported filters placeholders are: {filters}, {filters.dateRange.from}, {filters.dateRange.to}.`);
    }
    if (chain[0] === 'variables' && chain.length === 2) return this.filled.variable(chain[1]!);
    throw new HogQLError(`Unknown placeholder {${path}}: write {name} (from values), {filters} or {variables.name}.`);
  }

  protected override compared(comparison: Expr): Expr {
    if (comparison.kind !== 'compare') return comparison;
    const sides = [comparison.left, comparison.right].filter((side) => this.unboundedDates.has(side));
    if (sides.length === 0) return comparison;
    for (const side of sides) this.unboundedDates.delete(side);
    return { kind: 'constant', value: true };
  }

  /** Fills the SELECT's `{filters}` for the tables it reads, as PostHog does: only its FROM and JOINs count. */
  private fillFilters(slots: readonly Expr[], query: SelectQuery): void {
    const tables = new Set<FilterTable>();
    for (const source of [...(query.from ? [query.from] : []), ...query.joins.map((joined) => joined.source)]) {
      const name = 'table' in source ? source.table.toLowerCase() : null;
      if (name !== null && FILTER_TABLES.includes(name)) tables.add(name as FilterTable);
    }
    if (tables.size === 0) {
      throw new HogQLError("Cannot use the {filters} placeholder in a SELECT that does not select from the events, sessions or groups table.");
    }
    const condition = this.filled.filters(tables);
    for (const slot of slots) {
      for (const key of Object.keys(slot)) delete (slot as Partial<Record<string, unknown>>)[key];
      Object.assign(slot, condition);
    }
  }

  private keyword(word: string): boolean {
    if (!this.isKeyword(word)) return false;
    this.advance();
    return true;
  }

  private expectKeyword(word: string, expected = word.toUpperCase()): void {
    if (!this.keyword(word)) this.fail(expected);
  }

  /** `AS name`, or a name alone; `text`: a column's, which may be a string (`AS 'Total'`), as HogQL allows. */
  private optionalAlias(text = false): string | null {
    if (this.keyword('as')) {
      const token = this.advance();
      if (token.type !== 'ident' && !(text && token.type === 'string')) {
        this.index -= 1;
        this.fail('a name after AS');
      }
      return token.value;
    }
    const token = this.current;
    if (token.type === 'ident' && (token.quoted || !CLAUSE_WORDS.has(token.value.toLowerCase()))) {
      this.advance();
      return token.value;
    }
    return null;
  }

  private column(): SelectColumn {
    if (this.isOp('*')) {
      this.advance();
      return { star: true, expr: { kind: 'constant', value: null }, alias: null };
    }
    const next = this.tokens[this.index + 1];
    const after = this.tokens[this.index + 2];
    if (this.current.type === 'ident' && next?.type === 'op' && next.value === '.' && after?.type === 'op' && after.value === '*') {
      const of = this.current.value;
      this.index += 3;
      return { star: true, of, expr: { kind: 'constant', value: null }, alias: null };
    }
    const expr = this.expression();
    return { star: false, expr, alias: this.optionalAlias(true) };
  }

  private list<T>(item: () => T): T[] {
    const items = [item()];
    while (this.isOp(',')) {
      this.advance();
      items.push(item());
    }
    return items;
  }

  /** A row count: a non-negative integer constant (or a placeholder bound to one). */
  private count(clause: string): number {
    const expr = this.expression();
    if (expr.kind !== 'constant' || typeof expr.value !== 'number' || !Number.isSafeInteger(expr.value) || expr.value < 0) {
      throw new HogQLError(`${clause} must be a non-negative integer.`);
    }
    return expr.value;
  }

  protected override nestedQuery(): QueryRef {
    return this.query();
  }

  /** A name and `AS (query)` of WITH, or ClickHouse's `expr AS name` (a name for the expression in this SELECT). */
  private cte(): [string, QueryNode] | [string, Expr, 'expression'] {
    const namesQuery = this.current.type === 'ident' && this.isKeyword('as', 1) && this.tokens[this.index + 2]?.type === 'op' && (this.tokens[this.index + 2] as { value: string }).value === '(' && (this.isKeyword('select', 3) || this.isKeyword('with', 3));
    if (!namesQuery) {
      const expr = this.expression();
      this.expectKeyword('as', 'AS and a name after the expression of WITH');
      const name = this.advance();
      if (name.type !== 'ident') {
        this.index -= 1;
        this.fail('a name after AS');
      }
      return [name.value, expr, 'expression'];
    }
    const token = this.advance();
    if (token.type !== 'ident') {
      this.index -= 1;
      this.fail('a name after WITH');
    }
    this.expectKeyword('as', 'AS after the name of a WITH query');
    return [token.value, this.parenthesised()];
  }

  private parenthesised(): QueryNode {
    this.expectOp('(');
    const query = this.nested(() => this.query());
    this.expectOp(')');
    return query;
  }

  /** A query: one SELECT, or several joined by UNION, INTERSECT and EXCEPT. */
  query(): QueryNode {
    const parts = [this.setPart()];
    const operators: SetOperator[] = [];
    for (;;) {
      let operator: SetOperator;
      if (this.keyword('union')) {
        if (this.keyword('all')) operator = 'union all';
        else if (this.keyword('distinct')) operator = 'union distinct';
        else throw new HogQLError('Write UNION ALL or UNION DISTINCT: UNION alone is ambiguous, as ClickHouse answers.');
      } else if (this.keyword('intersect')) {
        operator = this.keyword('distinct') ? 'intersect distinct' : 'intersect';
        this.keyword('all');
      } else if (this.keyword('except')) {
        operator = this.keyword('distinct') ? 'except distinct' : 'except';
        this.keyword('all');
      } else break;
      operators.push(operator);
      parts.push(this.setPart());
    }
    return parts.length === 1 ? parts[0]! : { kind: 'union', parts, operators };
  }

  /** A SELECT, or a query in parentheses (`(SELECT …) UNION ALL (SELECT …)`), read as `SELECT * FROM (query)`. */
  private setPart(): SelectQuery {
    if (!this.isOp('(')) return this.select();
    const inner = this.parenthesised();
    if (inner.kind === 'select') return inner;
    const all: SelectColumn = { star: true, expr: { kind: 'constant', value: null }, alias: null };
    return {
      kind: 'select', ctes: [], distinct: false, columns: [all], from: { query: inner, alias: null }, joins: [], where: null, groupBy: [], having: null, orderBy: [], limitBy: null, limit: null, offset: null,
    };
  }

  private select(): SelectQuery {
    const slots: Expr[] = [];
    this.filterSlots.push(slots);
    try {
      const query = this.selectClauses();
      if (slots.length > 0) this.fillFilters(slots, query);
      return query;
    } finally {
      this.filterSlots.pop();
    }
  }

  private selectClauses(): SelectQuery {
    const withs = this.keyword('with') ? this.list(() => this.cte()) : [];
    const ctes = withs.filter((entry): entry is [string, QueryNode] => entry.length === 2);
    const withNames = withs.filter((entry): entry is [string, Expr, 'expression'] => entry.length === 3).map(([name, expr]): [string, Expr] => [name, expr]);
    this.expectKeyword('select');
    const distinct = this.keyword('distinct');
    if (this.isKeyword('on') && distinct) throw new HogQLError('DISTINCT ON is not ClickHouse SQL; use LIMIT 1 BY the expressions instead.');
    // `TOP n`: ClickHouse's LIMIT n written first.
    let top: number | null = null;
    if (this.keyword('top')) {
      top = this.count('TOP');
      if (this.isKeyword('with') && this.isKeyword('ties', 1)) throw new HogQLError('TOP … WITH TIES is not supported.');
    }
    const columns = this.list(() => this.column());
    let from: FromSource | null = null;
    const joins: JoinClause[] = [];
    let arrayJoin: ArrayJoin | null = null;
    if (this.keyword('from')) {
      from = this.source();
      for (;;) {
        const clause = this.joinClause();
        if (!clause) break;
        joins.push(clause);
      }
      arrayJoin = this.arrayJoinClause();
    }
    const windows: [string, WindowSpec][] = [];
    this.windowClause(windows);
    const prewhere = this.keyword('prewhere') ? this.expression() : null;
    const filter = this.keyword('where') ? this.expression() : null;
    // PREWHERE only tells ClickHouse which columns to read first: it filters as WHERE does.
    const where = prewhere && filter ? { kind: 'and' as const, exprs: [prewhere, filter] } : (prewhere ?? filter);
    let groupBy: Expr[] = [];
    if (this.keyword('group')) {
      this.expectKeyword('by', 'BY after GROUP');
      groupBy = this.list(() => this.expression());
      if (this.isKeyword('with') && ['rollup', 'cube', 'totals'].some((word) => this.isKeyword(word, 1))) {
        throw new HogQLError('GROUP BY … WITH ROLLUP, CUBE or TOTALS is not supported.');
      }
    }
    const having = this.keyword('having') ? this.expression() : null;
    this.windowClause(windows);
    if (this.isKeyword('qualify')) throw new HogQLError('QUALIFY is not supported; filter on the window function in an outer query.');
    let orderBy: OrderTerm[] = [];
    if (this.keyword('order')) {
      this.expectKeyword('by', 'BY after ORDER');
      orderBy = this.orderTerms(true);
    }
    let limit: number | null = null;
    let offset: number | null = null;
    let limitBy: LimitBy | null = null;
    let withTies = false;
    if (this.keyword('limit')) {
      [limit, offset, withTies] = this.limitAndOffset();
      if (this.keyword('by')) {
        if (limit + (offset ?? 0) > Number.MAX_SAFE_INTEGER) {
          throw new HogQLError(`With LIMIT BY, the sum of its count and offset must be at most ${Number.MAX_SAFE_INTEGER}.`);
        }
        if (withTies) throw new HogQLError('LIMIT … BY has no WITH TIES.');
        limitBy = { count: limit, offset: offset ?? 0, by: this.list(() => this.expression()) };
        [limit, offset, withTies] = this.keyword('limit') ? this.limitAndOffset() : [null, null, false];
        if (this.isKeyword('by')) throw new HogQLError('Only one LIMIT … BY is supported.');
      }
    } else if (this.keyword('offset')) {
      offset = this.count('OFFSET');
    }
    if (this.isKeyword('settings')) throw new HogQLError('SETTINGS is not supported: the settings a query runs with are fixed.');
    if (top !== null) {
      if (limit !== null) throw new HogQLError('Write either TOP or LIMIT, not both.');
      limit = top;
    }
    if (withTies && orderBy.length === 0) throw new HogQLError('LIMIT … WITH TIES needs ORDER BY, whose ties it keeps.');
    return {
      kind: 'select', ctes, ...(withNames.length > 0 ? { withNames } : {}), distinct, columns, from, joins, arrayJoin, windows, where, groupBy, having, orderBy, limitBy, limit, offset,
      ...(withTies ? { withTies } : {}),
    };
  }

  /** `WINDOW name AS (…), …`, added to `windows`. */
  private windowClause(windows: [string, WindowSpec][]): void {
    if (!this.keyword('window')) return;
    for (const [name, spec] of this.list((): [string, WindowSpec] => {
      const token = this.advance();
      if (token.type !== 'ident') {
        this.index -= 1;
        this.fail('the name of a window');
      }
      this.expectKeyword('as', 'AS after the name of the window');
      return [token.value, this.nested(() => this.windowSpec())];
    })) {
      if (windows.some(([other]) => other === name)) throw new HogQLError(`The window "${name}" is defined twice.`);
      windows.push([name, spec]);
    }
  }

  /** A join after FROM's source, or null when none follows. */
  private joinClause(): JoinClause | null {
    if (this.isOp(',')) {
      this.advance();
      return { type: 'cross', strictness: 'all', source: this.source(), on: null, using: null, comma: true };
    }
    const words: string[] = [];
    while (this.current.type === 'ident' && !this.current.quoted && JOIN_WORDS.has(this.current.value.toLowerCase())) {
      // `LEFT ARRAY JOIN` and `INNER ARRAY JOIN` are ARRAY JOIN's.
      if (this.isKeyword('array', 1)) break;
      words.push(this.current.value.toLowerCase());
      this.advance();
    }
    if (words.length === 0 && !this.isKeyword('join')) return null;
    this.expectKeyword('join', 'JOIN');
    const types = words.filter((word): word is JoinType => ['inner', 'left', 'right', 'full', 'cross'].includes(word));
    const strictnesses = words.filter((word) => ['any', 'all', 'semi', 'anti', 'asof'].includes(word)) as (JoinStrictness | 'asof')[];
    const written = words.join(' ').toUpperCase();
    if (types.length > 1 || strictnesses.length > 1 || words.filter((word) => word === 'outer').length > 1) throw new HogQLError(`"${written} JOIN" is not a join.`);
    const type: JoinType = types[0] ?? 'inner';
    const strictness = strictnesses[0] ?? 'all';
    if (strictness === 'asof') throw new HogQLError('ASOF JOIN is not supported; join on the condition and keep the closest row with argMax() or LIMIT 1 BY.');
    if (words.includes('outer') && !['left', 'right', 'full'].includes(type)) throw new HogQLError(`"${written} JOIN" is not a join: OUTER goes with LEFT, RIGHT or FULL.`);
    if ((strictness === 'semi' || strictness === 'anti') && type !== 'left' && type !== 'right') {
      throw new HogQLError(`${strictness.toUpperCase()} goes with LEFT or RIGHT JOIN.`);
    }
    if (type === 'cross' && strictness !== 'all') throw new HogQLError(`CROSS JOIN has no ${strictness.toUpperCase()}.`);
    const source = this.source();
    if (type === 'cross') return { type, strictness: 'all', source, on: null, using: null, comma: false };
    if (this.keyword('using')) {
      const parenthesised = this.isOp('(');
      if (parenthesised) this.advance();
      const using = this.list(() => {
        const token = this.advance();
        if (token.type !== 'ident') {
          this.index -= 1;
          this.fail('a column name in USING');
        }
        return token.value;
      });
      if (parenthesised) this.expectOp(')');
      return { type, strictness, source, on: null, using, comma: false };
    }
    this.expectKeyword('on', 'ON or USING after the joined table');
    return { type, strictness, source, on: this.expression(), using: null, comma: false };
  }

  /** `[LEFT|INNER] ARRAY JOIN expr [AS name], …`. */
  private arrayJoinClause(): ArrayJoin | null {
    let left = false;
    if (this.isKeyword('left') && this.isKeyword('array', 1)) {
      this.advance();
      left = true;
    } else if (this.isKeyword('inner') && this.isKeyword('array', 1)) {
      this.advance();
    }
    if (!this.isKeyword('array') || !this.isKeyword('join', 1)) return null;
    this.advance();
    this.advance();
    const items = this.list(() => ({ expr: this.expression(), alias: this.optionalAlias() }));
    if (this.isKeyword('array') || this.isKeyword('left') || this.isKeyword('join') || this.isKeyword('inner')) {
      throw new HogQLError('Only one ARRAY JOIN per SELECT is supported, after its joins; list several arrays in it to zip them.');
    }
    return { left, items };
  }

  /** After LIMIT: `count`, `count OFFSET offset` or ClickHouse's `offset, count`, each maybe WITH TIES. */
  private limitAndOffset(): [number, number | null, boolean] {
    const ties = () => {
      if (!this.isKeyword('with') || !this.isKeyword('ties', 1)) return false;
      this.advance();
      this.advance();
      return true;
    };
    const first = this.count('LIMIT');
    if (this.isOp(',')) {
      this.advance();
      const count = this.count('LIMIT');
      return [count, first, ties()];
    }
    const tied = ties();
    const offset = this.keyword('offset') ? this.count('OFFSET') : null;
    return [first, offset, ties() || tied];
  }

  /** ORDER BY's terms; `statement`: the statement's own, which may say where nulls go. */
  private orderTerms(statement = false): OrderTerm[] {
    return this.list(() => {
      const expr = this.expression();
      const descending = this.keyword('desc') || this.keyword('descending');
      if (!descending && !this.keyword('asc')) this.keyword('ascending');
      let nullsFirst = false;
      if (this.keyword('nulls')) {
        if (!statement) throw new HogQLError("NULLS FIRST and NULLS LAST are not supported in a window's ORDER BY.");
        nullsFirst = this.keyword('first');
        if (!nullsFirst) this.expectKeyword('last', 'FIRST or LAST after NULLS');
      }
      if (this.isKeyword('collate')) throw new HogQLError('COLLATE is not supported.');
      if (this.isKeyword('with') && this.isKeyword('fill', 1)) throw new HogQLError('ORDER BY … WITH FILL is not supported; LEFT JOIN the query to a series from numbers() instead.');
      return nullsFirst ? { expr, descending, nullsFirst } : { expr, descending };
    });
  }

  /** `(PARTITION BY … ORDER BY … ROWS|RANGE BETWEEN bound AND bound)` after OVER. */
  protected override windowSpec(): WindowSpec {
    // `OVER w`: a window of the WINDOW clause.
    if (this.current.type === 'ident' && !this.isOp('(')) {
      return { base: (this.advance() as { value: string }).value, partitionBy: [], orderBy: [], frame: null };
    }
    this.expectOp('(');
    // `OVER (w ORDER BY …)`: that window, refined.
    let base: string | undefined;
    const first = this.current;
    if (first.type === 'ident' && (first.quoted || !['partition', 'order', 'rows', 'range'].includes(first.value.toLowerCase()))) {
      base = first.value;
      this.advance();
    }
    let partitionBy: Expr[] = [];
    if (this.keyword('partition')) {
      this.expectKeyword('by', 'BY after PARTITION');
      partitionBy = this.list(() => this.expression());
    }
    let orderBy: OrderTerm[] = [];
    if (this.keyword('order')) {
      this.expectKeyword('by', 'BY after ORDER');
      orderBy = this.orderTerms();
    }
    let frame: WindowSpec['frame'] = null;
    const unit = this.keyword('rows') ? 'rows' : this.keyword('range') ? 'range' : null;
    if (unit) {
      if (this.keyword('between')) {
        const start = this.frameBound();
        this.expectKeyword('and', 'AND between the bounds of the frame');
        frame = { unit, start, end: this.frameBound() };
      } else {
        frame = { unit, start: this.frameBound(), end: { kind: 'currentRow' } };
      }
      const order = ['unboundedPreceding', 'preceding', 'currentRow', 'following', 'unboundedFollowing'];
      if (frame.start.kind === 'unboundedFollowing' || frame.end.kind === 'unboundedPreceding' || order.indexOf(frame.start.kind) > order.indexOf(frame.end.kind)) {
        throw new HogQLError('The frame of a window must start before it ends.');
      }
      if (unit === 'range' && [frame.start, frame.end].some((bound) => bound.kind === 'preceding' || bound.kind === 'following')) {
        throw new HogQLError('A RANGE frame may only be bounded by UNBOUNDED PRECEDING, CURRENT ROW or UNBOUNDED FOLLOWING; use ROWS for a number of rows.');
      }
    }
    this.expectOp(')');
    return { ...(base === undefined ? {} : { base }), partitionBy, orderBy, frame };
  }

  /** UNBOUNDED PRECEDING|FOLLOWING, CURRENT ROW, or n PRECEDING|FOLLOWING with n a non-negative integer. */
  private frameBound(): FrameBound {
    if (this.keyword('unbounded')) {
      if (this.keyword('preceding')) return { kind: 'unboundedPreceding' };
      this.expectKeyword('following', 'PRECEDING or FOLLOWING after UNBOUNDED');
      return { kind: 'unboundedFollowing' };
    }
    if (this.keyword('current')) {
      this.expectKeyword('row', 'ROW after CURRENT');
      return { kind: 'currentRow' };
    }
    const token = this.current;
    if (token.type !== 'number' && !this.isOp('{')) this.fail('a frame bound (UNBOUNDED PRECEDING, n PRECEDING, CURRENT ROW, n FOLLOWING, UNBOUNDED FOLLOWING)');
    const rows = this.count('A frame bound');
    if (this.keyword('preceding')) return { kind: 'preceding', rows };
    this.expectKeyword('following', 'PRECEDING or FOLLOWING after the number of rows');
    return { kind: 'following', rows };
  }

  /** A table by name, or a parenthesised query, and its alias. */
  private source(): FromSource {
    if (this.isOp('(')) {
      const query = this.parenthesised();
      return { query, alias: this.optionalAlias() };
    }
    const tableToken = this.advance();
    if (tableToken.type !== 'ident') {
      this.index -= 1;
      this.fail('a table name');
    }
    if (this.isOp('(') && !tableToken.quoted) {
      if (tableToken.value.toLowerCase() !== 'numbers') throw new HogQLError(`Unknown table function "${tableToken.value}". Table functions: numbers.`);
      this.advance();
      const args = this.isOp(')') ? [] : this.list(() => this.expression());
      this.expectOp(')');
      return { tableFunction: 'numbers', args, alias: this.optionalAlias() };
    }
    let table = tableToken.value;
    // A dotted name (`pg_catalog.pg_class`, `system.x`) is named in full, so that the refusal says what was asked.
    while (this.isOp('.')) {
      this.advance();
      const part = this.advance();
      table += `.${part.type === 'ident' ? part.value : '?'}`;
    }
    if (this.isOp('(')) throw new HogQLError(`Unknown table function "${table}". Table functions: numbers.`);
    this.finalAndSample();
    const alias = this.optionalAlias();
    this.finalAndSample();
    return { table, alias };
  }

  /**
   * `FINAL` (tables here hold no rows to merge away) and `SAMPLE 1`, which PostHog's insights write when not
   * sampling. A smaller ratio reads rows picked by ClickHouse's sampling key, which no table here has: refused.
   */
  private finalAndSample(): void {
    this.keyword('final');
    if (!this.keyword('sample')) return;
    const ratio = this.expression();
    const value =
      ratio.kind === 'constant'
        ? ratio.value
        : ratio.kind === 'arithmetic' && ratio.op === '/' && ratio.left.kind === 'constant' && ratio.right.kind === 'constant' && typeof ratio.left.value === 'number' && typeof ratio.right.value === 'number'
          ? ratio.left.value / ratio.right.value
          : null;
    const offset = this.keyword('offset') ? this.expression() : null;
    if (value !== 1 || (offset !== null && !(offset.kind === 'constant' && offset.value === 0))) {
      throw new HogQLError('SAMPLE is only supported as SAMPLE 1 (every row): sampling needs ClickHouse\'s sampling key, which the tables here do not have.');
    }
  }
}

/**
 * Parses a SELECT statement (or a UNION ALL of them), binding `values` to its `{name}` placeholders and
 * `placeholders` to its `{filters}` and `{variables.name}`.
 */
export function parseSelect(text: string, values: PlaceholderValues = {}, placeholders: QueryPlaceholders = NO_PLACEHOLDERS): QueryNode {
  if (typeof text !== 'string') throw new HogQLError('The query must be a string.');
  if (text.length > MAX_QUERY_LENGTH) throw new HogQLError(`A query may be at most ${MAX_QUERY_LENGTH} characters long.`);
  const parser = new StatementParser(text, values, placeholders);
  if (parser.atEnd()) throw new HogQLError('The query is empty.');
  return parser.statement();
}
