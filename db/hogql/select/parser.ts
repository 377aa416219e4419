/**
 * The HogQL SELECT statement: `[WITH name AS (query), …] SELECT [DISTINCT] items FROM table|(query)|cte
 * [AS alias] [WHERE] [GROUP BY] [HAVING] [ORDER BY] [LIMIT n [OFFSET m] BY exprs] [LIMIT n [OFFSET m]]
 * [UNION ALL SELECT …]`, with `x [NOT] IN (query)` and `f(…) OVER (…)` in expressions, parsed into a QueryNode. Expressions are the expression parser's
 * (parser.ts); `{name}` placeholders become constants of the tree, taken from the request's `values`, so that
 * nothing a caller binds is ever read as query text.
 */
import type { Expr, FrameBound, QueryRef, WindowSpec } from '../ast.js';
import { HogQLError } from '../errors.js';
import { MAX_EXPRESSION_LENGTH, Parser, tokenize, type PlaceholderValues } from '../parser.js';

/** Longest query accepted, in characters. */
export const MAX_QUERY_LENGTH = 4 * MAX_EXPRESSION_LENGTH;

export interface SelectColumn {
  /** `*`: every field of the table, in the table's order. */
  star: boolean;
  expr: Expr;
  alias: string | null;
}

export interface OrderTerm {
  expr: Expr;
  descending: boolean;
}

/** A table by name (a stored table or a CTE), or a nested query. */
export type FromSource = { table: string; alias: string | null } | { query: QueryNode; alias: string | null };

/** `[INNER|LEFT [OUTER]] JOIN source ON condition`. */
export interface JoinClause {
  type: 'inner' | 'left';
  source: FromSource;
  on: Expr;
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
  distinct: boolean;
  columns: SelectColumn[];
  from: FromSource;
  joins: JoinClause[];
  where: Expr | null;
  groupBy: Expr[];
  having: Expr | null;
  orderBy: OrderTerm[];
  limitBy: LimitBy | null;
  limit: number | null;
  offset: number | null;
}

/** `SELECT … UNION ALL SELECT …`: the parts' rows one after another. */
export interface UnionQuery {
  kind: 'union';
  parts: SelectQuery[];
}

export type QueryNode = SelectQuery | UnionQuery;

/** Words that end a select item or a table reference rather than name an alias. */
const CLAUSE_WORDS = new Set([
  'from', 'where', 'group', 'having', 'order', 'limit', 'offset', 'union', 'join', 'inner', 'left', 'right', 'full',
  'cross', 'on', 'using', 'with', 'as', 'asc', 'desc', 'and', 'or', 'not', 'select', 'settings', 'prewhere', 'array',
  'over', 'by', 'rows', 'range',
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
    this.expectEnd();
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
    for (const source of [query.from, ...query.joins.map((joined) => joined.source)]) {
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

  private optionalAlias(): string | null {
    if (this.keyword('as')) {
      const token = this.advance();
      if (token.type !== 'ident') {
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
    const expr = this.expression();
    return { star: false, expr, alias: this.optionalAlias() };
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

  /** A name and `AS (query)` of WITH. */
  private cte(): [string, QueryNode] {
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

  /** A query: one SELECT, or several joined by UNION ALL. */
  query(): QueryNode {
    const parts = [this.select()];
    while (this.isKeyword('union')) {
      this.advance();
      if (!this.keyword('all')) throw new HogQLError('Only UNION ALL is supported; UNION DISTINCT is not.');
      parts.push(this.select());
    }
    return parts.length === 1 ? parts[0]! : { kind: 'union', parts };
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
    const ctes = this.keyword('with') ? this.list(() => this.cte()) : [];
    this.expectKeyword('select');
    const distinct = this.keyword('distinct');
    const columns = this.list(() => this.column());
    this.expectKeyword('from');
    const from = this.source();
    const joins: JoinClause[] = [];
    for (;;) {
      if (this.isOp(',') || this.isKeyword('cross') || this.isKeyword('full') || this.isKeyword('right') || this.isKeyword('array')) {
        throw new HogQLError('Only INNER JOIN and LEFT JOIN are supported.');
      }
      let type: JoinClause['type'] | null = null;
      if (this.keyword('join')) type = 'inner';
      else if (this.keyword('inner')) {
        this.expectKeyword('join');
        type = 'inner';
      } else if (this.keyword('left')) {
        this.keyword('outer');
        this.expectKeyword('join');
        type = 'left';
      }
      if (type === null) break;
      const source = this.source();
      if (this.isKeyword('using')) throw new HogQLError('JOIN … USING is not supported; write ON.');
      this.expectKeyword('on', 'ON after the joined table');
      joins.push({ type, source, on: this.expression() });
    }
    const where = this.keyword('where') ? this.expression() : null;
    let groupBy: Expr[] = [];
    if (this.keyword('group')) {
      this.expectKeyword('by', 'BY after GROUP');
      groupBy = this.list(() => this.expression());
    }
    const having = this.keyword('having') ? this.expression() : null;
    let orderBy: OrderTerm[] = [];
    if (this.keyword('order')) {
      this.expectKeyword('by', 'BY after ORDER');
      orderBy = this.orderTerms();
    }
    let limit: number | null = null;
    let offset: number | null = null;
    let limitBy: LimitBy | null = null;
    if (this.keyword('limit')) {
      [limit, offset] = this.limitAndOffset();
      if (this.keyword('by')) {
        if (limit + (offset ?? 0) > Number.MAX_SAFE_INTEGER) {
          throw new HogQLError(`With LIMIT BY, the sum of its count and offset must be at most ${Number.MAX_SAFE_INTEGER}.`);
        }
        limitBy = { count: limit, offset: offset ?? 0, by: this.list(() => this.expression()) };
        [limit, offset] = this.keyword('limit') ? this.limitAndOffset() : [null, null];
        if (this.isKeyword('by')) throw new HogQLError('Only one LIMIT … BY is supported.');
      }
    }
    return { kind: 'select', ctes, distinct, columns, from, joins, where, groupBy, having, orderBy, limitBy, limit, offset };
  }

  /** After LIMIT: `count`, `count OFFSET offset` or ClickHouse's `offset, count`. */
  private limitAndOffset(): [number, number | null] {
    const first = this.count('LIMIT');
    if (this.isOp(',')) {
      this.advance();
      return [this.count('LIMIT'), first];
    }
    return [first, this.keyword('offset') ? this.count('OFFSET') : null];
  }

  private orderTerms(): OrderTerm[] {
    return this.list(() => {
      const expr = this.expression();
      const descending = this.keyword('desc') || this.keyword('descending');
      if (!descending && !this.keyword('asc')) this.keyword('ascending');
      return { expr, descending };
    });
  }

  /** `(PARTITION BY … ORDER BY … ROWS|RANGE BETWEEN bound AND bound)` after OVER. */
  protected override windowSpec(): WindowSpec {
    if (this.current.type === 'ident' && !this.isKeyword('partition') && !this.isKeyword('order')) {
      throw new HogQLError('Named windows are not supported; write the window in parentheses after OVER.');
    }
    this.expectOp('(');
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
    return { partitionBy, orderBy, frame };
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
    let table = tableToken.value;
    // A dotted name (`pg_catalog.pg_class`, `system.x`) is named in full, so that the refusal says what was asked.
    while (this.isOp('.')) {
      this.advance();
      const part = this.advance();
      table += `.${part.type === 'ident' ? part.value : '?'}`;
    }
    return { table, alias: this.optionalAlias() };
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
