/**
 * Pagination links as Django REST framework builds them: absolute URLs of the current request with the page's
 * parameters replaced (`limit` and `offset`, or `cursor`) and every other query parameter kept.
 */
import type Koa from 'koa';
import { DEFAULT_PAGE_SIZE, type Page } from '../db/pagination.js';
import { UUID_PATTERN } from '../db/core/text.js';
import { errors } from '../db/core/errors.js';

export function pageOf(query: { limit?: number; offset?: number }): Page {
  return { limit: query.limit ?? DEFAULT_PAGE_SIZE, offset: query.offset ?? 0 };
}

export function pageLinks(
  ctx: Koa.Context,
  page: Page,
  count: number,
): { next: string | null; previous: string | null } {
  const link = (offset: number | null): string => {
    const url = new URL(ctx.originalUrl, `${ctx.protocol}://${ctx.host}`);
    url.searchParams.set('limit', String(page.limit));
    if (offset === null) url.searchParams.delete('offset');
    else url.searchParams.set('offset', String(offset));
    return url.toString();
  };
  const next = page.offset + page.limit < count ? link(page.offset + page.limit) : null;
  const previousOffset = page.offset - page.limit;
  const previous = page.offset <= 0 ? null : link(previousOffset > 0 ? previousOffset : null);
  return { next, previous };
}

/**
 * A cursor as Django REST framework's CursorPagination hands them out: opaque to the client, naming the row a
 * page continues from and whether it goes back towards the first page. Ours holds the row's ordering column (a
 * timestamp to the microsecond) and id.
 */
export interface CursorPosition {
  value: string;
  id: string;
  reverse: boolean;
}

const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(JSON.stringify({ v: position.value, i: position.id, r: position.reverse ? 1 : 0 })).toString('base64url');
}

/** The position a cursor names; a cursor this server did not write answers 404 "Invalid cursor", as DRF's. */
export function decodeCursor(cursor: string | undefined): CursorPosition | null {
  if (cursor === undefined) return null;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw errors.notFound('Invalid cursor');
  }
  const { v, i, r } = (typeof decoded === 'object' && decoded !== null ? decoded : {}) as { v?: unknown; i?: unknown; r?: unknown };
  if (typeof v !== 'string' || !CURSOR_TIME.test(v) || Number.isNaN(Date.parse(v))) throw errors.notFound('Invalid cursor');
  if (typeof i !== 'string' || !UUID_PATTERN.test(i) || (r !== 0 && r !== 1)) throw errors.notFound('Invalid cursor');
  return { value: v, id: i, reverse: r === 1 };
}

/** The first and last rows of a keyset page (db/pagination.ts), as cursorLinks continues from them. */
export function pageEdges(rows: readonly { position_value: string; id: string }[]): {
  first: { value: string; id: string } | null;
  last: { value: string; id: string } | null;
} {
  const edge = (row: { position_value: string; id: string } | undefined) => (row ? { value: row.position_value, id: row.id } : null);
  return { first: edge(rows[0]), last: edge(rows.at(-1)) };
}

/**
 * The next and previous links of a page read by cursor: the current request's URL with `cursor` replaced
 * (every other parameter kept), going on from the page's last row or back from its first.
 */
export function cursorLinks(
  ctx: Koa.Context,
  page: { first: { value: string; id: string } | null; last: { value: string; id: string } | null },
  position: CursorPosition | null,
  more: boolean,
): { next: string | null; previous: string | null } {
  const link = (from: { value: string; id: string }, reverse: boolean): string => {
    const url = new URL(ctx.originalUrl, `${ctx.protocol}://${ctx.host}`);
    url.searchParams.delete('offset');
    url.searchParams.set('cursor', encodeCursor({ value: from.value, id: from.id, reverse }));
    return url.toString();
  };
  const reverse = position?.reverse ?? false;
  // Rows lie ahead when this page was read forwards and more were found, or when it was read backwards (it
  // came back from a page further on); rows lie behind in the mirror cases.
  const ahead = reverse ? position !== null : more;
  const behind = reverse ? more : position !== null;
  const nextFrom = page.last ?? position;
  const previousFrom = page.first ?? position;
  return {
    next: ahead && nextFrom ? link(nextFrom, false) : null,
    previous: behind && previousFrom ? link(previousFrom, true) : null,
  };
}
