/**
 * Pagination links. Limit/offset ones, as Django REST framework builds them: absolute URLs of the current request
 * with `limit` and `offset` replaced and every other query parameter kept.
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
 * page continues from and the direction. Ours holds the row's created_at (to the microsecond) and id.
 */
export interface CursorPosition {
  createdAt: string;
  id: string;
  towardsNewer: boolean;
}

const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(JSON.stringify({ t: position.createdAt, i: position.id, n: position.towardsNewer ? 1 : 0 })).toString('base64url');
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
  const { t, i, n } = (decoded ?? {}) as { t?: unknown; i?: unknown; n?: unknown };
  if (typeof t !== 'string' || !CURSOR_TIME.test(t) || Number.isNaN(Date.parse(t))) throw errors.notFound('Invalid cursor');
  if (typeof i !== 'string' || !UUID_PATTERN.test(i) || (n !== 0 && n !== 1)) throw errors.notFound('Invalid cursor');
  return { createdAt: t, id: i, towardsNewer: n === 1 };
}

/**
 * The next and previous links of a page read by cursor, newest first: the current request's URL with `cursor`
 * replaced (every other parameter kept). Going on from the page's last row, or back from its first.
 */
export function cursorLinks(
  ctx: Koa.Context,
  page: { first: { createdAt: string; id: string } | null; last: { createdAt: string; id: string } | null },
  position: CursorPosition | null,
  more: boolean,
): { next: string | null; previous: string | null } {
  const link = (cursor: CursorPosition): string => {
    const url = new URL(ctx.originalUrl, `${ctx.protocol}://${ctx.host}`);
    url.searchParams.delete('offset');
    url.searchParams.set('cursor', encodeCursor(cursor));
    return url.toString();
  };
  const towardsNewer = position?.towardsNewer ?? false;
  // Older rows remain when this page was read towards older ones and more were found, or when it was read
  // towards newer ones (it came back from an older page). Newer rows remain in the mirror cases.
  const olderRemain = towardsNewer ? position !== null : more;
  const newerRemain = towardsNewer ? more : position !== null;
  const nextFrom = page.last ?? position;
  const previousFrom = page.first ?? position;
  return {
    next: olderRemain && nextFrom ? link({ createdAt: nextFrom.createdAt, id: nextFrom.id, towardsNewer: false }) : null,
    previous: newerRemain && previousFrom ? link({ createdAt: previousFrom.createdAt, id: previousFrom.id, towardsNewer: true }) : null,
  };
}
