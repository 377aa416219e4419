/**
 * Pagination of a query: by limit and offset (one page of rows and the total count, in two statements), or by
 * keyset (the page after or before a row, as the cursors of the batch export runs and backfills name it).
 */
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

/**
 * Where a keyset page starts: the row it continues from (its ordering column to the microsecond, UTC ISO, and its
 * id), and whether it goes against the listing's order (back towards the first page).
 */
export interface KeysetPosition {
  value: string;
  id: string;
  reverse: boolean;
}

export interface KeysetOrder {
  /** A timestamptz column, qualified as the query names it. */
  column: string;
  idColumn: string;
  descending: boolean;
}

/** A row with its ordering column to the microsecond (UTC, ISO), which a JS Date would cut to milliseconds. */
export type Positioned<Row> = Row & { position_value: string };

/**
 * One page of `query` keyed on (ordering column, id), `limit` rows from `position` in the order's direction (or
 * against it, for a reverse position, answered in the order's direction all the same); `more` tells whether rows
 * lie beyond the page in the direction it was read.
 */
export async function keysetPage<Row>(
  db: Knex,
  query: Knex.QueryBuilder,
  order: KeysetOrder,
  position: KeysetPosition | null,
  limit: number,
): Promise<{ rows: Positioned<Row>[]; more: boolean }> {
  const reverse = position?.reverse ?? false;
  const direction = order.descending !== reverse ? 'desc' : 'asc';
  query
    .select(db.raw(`to_char(?? at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as position_value`, [order.column]))
    .orderBy([{ column: order.column, order: direction }, { column: order.idColumn, order: direction }])
    .limit(limit + 1);
  if (position) {
    const comparison = direction === 'desc' ? '<' : '>';
    query.whereRaw(`(??, ??) ${comparison} (?::timestamptz, ?::uuid)`, [order.column, order.idColumn, position.value, position.id]);
  }
  const rows = (await query) as Positioned<Row>[];
  const page = rows.slice(0, limit);
  return { rows: reverse ? page.reverse() : page, more: rows.length > limit };
}
