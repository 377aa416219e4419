/**
 * Trees printed back as HogQL: the response's `hogql` (the query as it ran, placeholders shown as their values
 * and the row limit applied) and the names of unaliased columns, one spelling whatever spacing was used.
 */
import type { Expr, FrameBound, WindowSpec } from '../ast.js';
import type { FromSource, QueryNode, SelectQuery } from './parser.js';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function quoteString(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function name(part: string): string {
  return IDENTIFIER.test(part) ? part : `\`${part.replace(/\\/g, '\\\\').replace(/`/g, '\\`')}\``;
}

/** Operands that are not atoms get parentheses, so that the text parses back to the same tree. */
function operand(expr: Expr): string {
  return ['constant', 'field', 'call', 'array', 'tuple', 'alias', 'subquery'].includes(expr.kind) ? printExpr(expr) : `(${printExpr(expr)})`;
}

export function printExpr(expr: Expr): string {
  switch (expr.kind) {
    case 'constant':
      if (expr.value === null) return 'NULL';
      if (typeof expr.value === 'string') return quoteString(expr.value);
      return String(expr.value);
    case 'field':
      return expr.chain
        .map((part, index) => {
          if (typeof part === 'number') return `[${part}]`;
          if (index === 0) return name(part);
          return IDENTIFIER.test(part) ? `.${part}` : `[${quoteString(part)}]`;
        })
        .join('');
    case 'call': {
      const args = `(${expr.args.map(printExpr).join(', ')})`;
      const call = expr.params ? `${expr.name}(${expr.params.map(printExpr).join(', ')})${args}` : `${expr.name}${args}`;
      if (!expr.over) return call;
      const window = printWindow(expr.over);
      return expr.over.base !== undefined && window === name(expr.over.base) ? `${call} OVER ${window}` : `${call} OVER (${window})`;
    }
    case 'arithmetic':
      return `${operand(expr.left)} ${expr.op} ${operand(expr.right)}`;
    case 'negate':
      return `-${operand(expr.expr)}`;
    case 'compare':
      return `${operand(expr.left)} ${expr.op.toUpperCase()} ${operand(expr.right)}`;
    case 'subquery':
      return `(${printQuery(expr.query as QueryNode)})`;
    case 'inQuery':
      return `${operand(expr.expr)} ${expr.negated ? 'NOT IN' : 'IN'} (${printQuery(expr.query as QueryNode)})`;
    case 'in':
      return `${operand(expr.expr)} ${expr.negated ? 'NOT IN' : 'IN'} (${expr.list.map(printExpr).join(', ')})`;
    case 'between':
      return `${operand(expr.expr)} ${expr.negated ? 'NOT BETWEEN' : 'BETWEEN'} ${operand(expr.low)} AND ${operand(expr.high)}`;
    case 'isNull':
      return `${operand(expr.expr)} ${expr.negated ? 'IS NOT NULL' : 'IS NULL'}`;
    case 'and':
    case 'or':
      return expr.exprs.map(operand).join(expr.kind === 'and' ? ' AND ' : ' OR ');
    case 'not':
      return `NOT ${operand(expr.expr)}`;
    case 'interval':
      return `INTERVAL ${operand(expr.amount)} ${expr.unit}`;
    case 'array':
      return `[${expr.items.map(printExpr).join(', ')}]`;
    case 'tuple':
      return expr.items.length === 1 ? `tuple(${printExpr(expr.items[0]!)})` : `(${expr.items.map(printExpr).join(', ')})`;
    case 'lambda':
      return `${expr.params.length === 1 ? name(expr.params[0]!) : `(${expr.params.map(name).join(', ')})`} -> ${operand(expr.body)}`;
    case 'element':
      return expr.tuple && expr.index.kind === 'constant' ? `${operand(expr.expr)}.${printExpr(expr.index)}` : `${operand(expr.expr)}[${printExpr(expr.index)}]`;
    case 'alias':
      return `(${printExpr(expr.expr)} AS ${name(expr.name)})`;
  }
}

function printBound(bound: FrameBound): string {
  switch (bound.kind) {
    case 'unboundedPreceding':
      return 'UNBOUNDED PRECEDING';
    case 'preceding':
      return `${bound.rows} PRECEDING`;
    case 'currentRow':
      return 'CURRENT ROW';
    case 'following':
      return `${bound.rows} FOLLOWING`;
    case 'unboundedFollowing':
      return 'UNBOUNDED FOLLOWING';
  }
}

function printOrder(terms: readonly { expr: Expr; descending: boolean; nullsFirst?: boolean }[]): string {
  return terms.map((term) => `${printExpr(term.expr)} ${term.descending ? 'DESC' : 'ASC'}${term.nullsFirst ? ' NULLS FIRST' : ''}`).join(', ');
}

function printWindow(window: WindowSpec): string {
  const parts: string[] = window.base === undefined ? [] : [name(window.base)];
  if (window.partitionBy.length > 0) parts.push(`PARTITION BY ${window.partitionBy.map(printExpr).join(', ')}`);
  if (window.orderBy.length > 0) parts.push(`ORDER BY ${printOrder(window.orderBy)}`);
  if (window.frame) {
    parts.push(`${window.frame.unit.toUpperCase()} BETWEEN ${printBound(window.frame.start)} AND ${printBound(window.frame.end)}`);
  }
  return parts.join(' ');
}

/** A statement; `ran`: the row limit and offset it ran with, for the outermost SELECT. */
export function printQuery(query: QueryNode, ran: { limit: number; offset: number } | null = null): string {
  if (query.kind === 'union') {
    return query.parts.map((part, index) => `${index === 0 ? '' : `${query.operators[index - 1]!.toUpperCase()} `}${printSelect(part, null)}`).join(' ');
  }
  return printSelect(query, ran);
}

function printSource(source: FromSource): string {
  const text = 'query' in source ? `(${printQuery(source.query)})` : 'table' in source ? name(source.table) : `${source.tableFunction}(${source.args.map(printExpr).join(', ')})`;
  return source.alias === null ? text : `${text} AS ${name(source.alias)}`;
}

function printSelect(query: SelectQuery, ran: { limit: number; offset: number } | null): string {
  const columns = query.columns.map((column) => {
    if (column.star) return column.of === undefined ? '*' : `${name(column.of)}.*`;
    const text = printExpr(column.expr);
    return column.alias === null ? text : `${text} AS ${name(column.alias)}`;
  });
  const parts: string[] = [];
  const withs = [...(query.withNames ?? []).map(([alias, expr]) => `${operand(expr)} AS ${name(alias)}`), ...query.ctes.map(([cte, node]) => `${name(cte)} AS (${printQuery(node)})`)];
  if (withs.length > 0) parts.push(`WITH ${withs.join(', ')}`);
  parts.push(`SELECT ${query.distinct ? 'DISTINCT ' : ''}${columns.join(', ')}`);
  if (query.from) parts.push(`FROM ${printSource(query.from)}`);
  for (const clause of query.joins) {
    if (clause.comma) {
      parts[parts.length - 1] += `, ${printSource(clause.source)}`;
      continue;
    }
    const words = [...(clause.type === 'inner' ? [] : [clause.type.toUpperCase()]), ...(clause.strictness === 'all' ? [] : [clause.strictness.toUpperCase()])];
    const constraint = clause.on ? ` ON ${printExpr(clause.on)}` : clause.using ? ` USING (${clause.using.map(name).join(', ')})` : '';
    parts.push(`${[...words, 'JOIN'].join(' ')} ${printSource(clause.source)}${constraint}`);
  }
  if (query.arrayJoin) {
    const items = query.arrayJoin.items.map((item) => (item.alias === null ? printExpr(item.expr) : `${printExpr(item.expr)} AS ${name(item.alias)}`));
    parts.push(`${query.arrayJoin.left ? 'LEFT ' : ''}ARRAY JOIN ${items.join(', ')}`);
  }
  if (query.where) parts.push(`WHERE ${printExpr(query.where)}`);
  if (query.groupBy.length > 0) parts.push(`GROUP BY ${query.groupBy.map(printExpr).join(', ')}`);
  if (query.having) parts.push(`HAVING ${printExpr(query.having)}`);
  if (query.windows && query.windows.length > 0) parts.push(`WINDOW ${query.windows.map(([window, spec]) => `${name(window)} AS (${printWindow(spec)})`).join(', ')}`);
  if (query.orderBy.length > 0) parts.push(`ORDER BY ${printOrder(query.orderBy)}`);
  if (query.limitBy) {
    const { count, offset, by } = query.limitBy;
    parts.push(`LIMIT ${count}${offset > 0 ? ` OFFSET ${offset}` : ''} BY ${by.map(printExpr).join(', ')}`);
  }
  const limit = ran ? ran.limit : query.limit;
  const offset = ran ? ran.offset : (query.offset ?? 0);
  if (limit !== null) parts.push(`LIMIT ${limit}${query.withTies ? ' WITH TIES' : ''}`);
  if (offset > 0) parts.push(`OFFSET ${offset}`);
  return parts.join(' ');
}
