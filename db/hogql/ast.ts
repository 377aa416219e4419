/** The typed syntax tree of a HogQL expression, as the parser builds it and the compiler reads it. */

export type ConstantValue = string | number | boolean | null;

export type CompareOp = '=' | '!=' | '<' | '<=' | '>' | '>=' | 'like' | 'not like' | 'ilike' | 'not ilike';
export type ArithmeticOp = '+' | '-' | '*' | '/' | '%';
export type IntervalUnit = 'second' | 'minute' | 'hour' | 'day' | 'week' | 'month' | 'quarter' | 'year';

export type Expr =
  | { kind: 'constant'; value: ConstantValue }
  /** A name and what follows it: `properties.$browser` is ['properties', '$browser'], `a['b c'][1]` is ['a', 'b c', 1]. */
  | { kind: 'field'; chain: (string | number)[] }
  /**
   * `params`: the first list of a parametric call, `quantile(0.9)(x)`; `over`: the window of a window function
   * call, `rank() OVER (…)`, which only a SELECT statement's parser reads.
   */
  | { kind: 'call'; name: string; args: Expr[]; params?: Expr[]; over?: WindowSpec }
  | { kind: 'arithmetic'; op: ArithmeticOp; left: Expr; right: Expr }
  | { kind: 'negate'; expr: Expr }
  | { kind: 'compare'; op: CompareOp; left: Expr; right: Expr }
  | { kind: 'in'; negated: boolean; expr: Expr; list: Expr[] }
  | { kind: 'between'; negated: boolean; expr: Expr; low: Expr; high: Expr }
  | { kind: 'isNull'; negated: boolean; expr: Expr }
  | { kind: 'and'; exprs: Expr[] }
  | { kind: 'or'; exprs: Expr[] }
  | { kind: 'not'; expr: Expr }
  | { kind: 'interval'; amount: Expr; unit: IntervalUnit }
  /** `x IN (SELECT …)`: only a SELECT statement's parser (select/parser.ts) builds it. */
  | { kind: 'inQuery'; negated: boolean; expr: Expr; query: QueryRef }
  /** `(SELECT …)` as a value: its one column, of its first row. Only a SELECT statement's parser builds it. */
  | { kind: 'subquery'; query: QueryRef }
  /** `[a, b]` and `array(a, b)`: an array of the items. */
  | { kind: 'array'; items: Expr[] }
  /** `(a, b)` and `tuple(a, b)`: a tuple of the items. */
  | { kind: 'tuple'; items: Expr[] }
  /** `x -> body`, `(x, y) -> body`: only as an argument of a function that calls it (arrayMap, arrayFilter, …). */
  | { kind: 'lambda'; params: string[]; body: Expr }
  /** `expr[index]` on any expression (arrays count from 1, negative from the end); `expr.1` on a tuple. */
  | { kind: 'element'; expr: Expr; index: Expr; tuple: boolean }
  /** `(expr AS name)` inside an expression: the value of expr, named for the rest of the statement. */
  | { kind: 'alias'; expr: Expr; name: string };

/** One bound of a window frame: `n PRECEDING` and `n FOLLOWING` carry n. */
export type FrameBound =
  | { kind: 'unboundedPreceding' }
  | { kind: 'preceding'; rows: number }
  | { kind: 'currentRow' }
  | { kind: 'following'; rows: number }
  | { kind: 'unboundedFollowing' };

/** `OVER (PARTITION BY … ORDER BY … ROWS BETWEEN … AND …)`; `OVER w` and `OVER (w ORDER BY …)` name a window of the WINDOW clause. */
export interface WindowSpec {
  /** The named window this one starts from (its partition, order and frame, unless given here). */
  base?: string;
  partitionBy: Expr[];
  orderBy: { expr: Expr; descending: boolean }[];
  frame: { unit: 'rows' | 'range'; start: FrameBound; end: FrameBound } | null;
}

/** A nested statement, opaque here: its tree is the SELECT module's (select/parser.ts). */
export interface QueryRef {
  readonly kind: 'select' | 'union';
}

/** One entry of `select`: an expression and the column name the response gives it. */
export interface SelectItem {
  expr: Expr;
  /** `expr AS name`, or the expression's own text. */
  name: string;
}

/** The expressions directly inside `expr` (not those of a nested statement, whose names are its own). */
export function childrenOf(expr: Expr): Expr[] {
  switch (expr.kind) {
    case 'constant':
    case 'field':
    case 'subquery':
      return [];
    case 'call':
      return [
        ...expr.args,
        ...(expr.params ?? []),
        ...(expr.over ? [...expr.over.partitionBy, ...expr.over.orderBy.map((term) => term.expr)] : []),
      ];
    case 'arithmetic':
    case 'compare':
      return [expr.left, expr.right];
    case 'negate':
    case 'not':
    case 'isNull':
    case 'inQuery':
    case 'alias':
      return [expr.expr];
    case 'in':
      return [expr.expr, ...expr.list];
    case 'between':
      return [expr.expr, expr.low, expr.high];
    case 'and':
    case 'or':
      return expr.exprs;
    case 'interval':
      return [expr.amount];
    case 'array':
    case 'tuple':
      return expr.items;
    case 'lambda':
      return [expr.body];
    case 'element':
      return [expr.expr, expr.index];
  }
}
