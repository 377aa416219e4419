/**
 * The listing's cursor: where the next page starts, as opaque base64url JSON. A keyset (the last event's
 * timestamp and uuid) for pages in time order, an offset for pages of aggregates.
 */
import { errors } from '../../core/errors.js';
import { UUID_PATTERN } from '../../core/text.js';
import type { Keyset } from '../../hogql/index.js';

const KEYSET_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

export type Cursor = { keyset: Keyset } | { offset: number };

/** The largest offset a cursor may carry; no page is ever that deep. */
const MAX_CURSOR_OFFSET = 2 ** 40;

export function encodeCursor(cursor: Cursor): string {
  const value = 'keyset' in cursor ? { t: cursor.keyset.timestamp, u: cursor.keyset.uuid } : { o: cursor.offset };
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

export function decodeCursor(text: string | undefined): Cursor | null {
  if (text === undefined || text === '') return null;
  let value: unknown = null;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    // reported below
  }
  const record = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  if (typeof record.t === 'string' && KEYSET_TIME.test(record.t) && typeof record.u === 'string' && UUID_PATTERN.test(record.u)) {
    return { keyset: { timestamp: record.t, uuid: record.u.toLowerCase() } };
  }
  // (Bounded so that the offset and the page's rows stay a safe integer: they are written into the query.)
  if (typeof record.o === 'number' && Number.isSafeInteger(record.o) && record.o >= 0 && record.o <= MAX_CURSOR_OFFSET) {
    return { offset: record.o };
  }
  throw errors.validation('The cursor is not valid; use the next link of a previous page.', 'cursor');
}
