/**
 * Limit/offset pagination links, as Django REST framework builds them: absolute URLs of the current request
 * with `limit` and `offset` replaced and every other query parameter kept.
 */
import type Koa from 'koa';
import { DEFAULT_PAGE_SIZE, type Page } from '../db/pagination.js';

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
