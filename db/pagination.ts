/** Limit/offset pagination of a query: one page of rows and the total count, in two statements. */
import type { Knex } from 'knex';

export interface Page {
  limit: number;
  offset: number;
}

export const DEFAULT_PAGE_SIZE = 100;

export async function paginate<Row>(query: Knex.QueryBuilder, page: Page): Promise<{ rows: Row[]; count: number }> {
  const counted = query.clone().clearSelect().clearOrder().count<{ count: string }[]>('* as count');
  const [rows, [total]] = await Promise.all([
    query.limit(page.limit).offset(page.offset) as Promise<Row[]>,
    counted,
  ]);
  return { rows, count: Number(total?.count ?? 0) };
}
