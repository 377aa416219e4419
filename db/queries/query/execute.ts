/**
 * Running a compiled SELECT (db/hogql/select/) on a read-only session within the query timeout, with what
 * PostgreSQL finds wrong with the statement answered as a 400 about the query: shared by every query kind.
 */
import { ApiError, errors } from '../../core/errors.js';
import type { ReadDb } from '../../pg/client.js';
import { onReadSession } from '../../pg/read-session.js';
import type { CompiledSelect } from '../../hogql/select/index.js';

export async function runCompiledSelect(reader: ReadDb, query: CompiledSelect, timeoutMs: number): Promise<Record<string, unknown>[]> {
  // The text is already numbered ($n), so the session's `?` numbering leaves it as it is. Unnamed: each query
  // is planned for its own values.
  return onReadSession(reader, timeoutMs, async (read) => (await read(query.text, query.params, { prepare: false })).rows).catch(
    (error: unknown) => {
      // The one query error read-session names the listing's `select` for: here the query is one text.
      if (error instanceof ApiError && error.status === 400 && error.attr === 'select') {
        throw errors.validation('An expression outside an aggregate function uses a field that is not in GROUP BY.');
      }
      // What PostgreSQL finds wrong with the statement a query compiled to (class 42) is the query's shape.
      const code = (error as { code?: unknown }).code;
      if (!(error instanceof ApiError) && code === '42P10') throw errors.validation('With DISTINCT, ORDER BY may only name selected expressions.');
      if (!(error instanceof ApiError) && typeof code === 'string' && code.startsWith('42')) {
        throw errors.validation(`The query cannot run: ${(error as Error).message}.`);
      }
      throw error;
    },
  );
}

/** Seconds with millisecond precision, as the responses' `timings` show them. */
export function seconds(ms: number): number {
  return Math.round(ms) / 1000;
}
