/**
 * Running a compiled SELECT (db/hogql/select/) on a read-only session within the query timeout, with what
 * PostgreSQL finds wrong with the statement answered as a 400 about the query: shared by every query kind.
 */
import { ApiError, errors } from '../../core/errors.js';
import type { ReadDb } from '../../pg/client.js';
import { onReadSession, type Reader } from '../../pg/read-session.js';
import type { CompiledSelect } from '../../hogql/select/index.js';

/**
 * Told of the session that runs a statement: before the statement, and after it (however it ended) while the
 * session is still held. An asynchronous run records the session for the length of its statement, so that a
 * cancel from any process reaches that statement and no other.
 */
export interface SessionHook {
  onStart(read: Reader): Promise<void>;
  onEnd(): Promise<void>;
}

export async function runCompiledSelect(
  reader: ReadDb,
  query: CompiledSelect,
  timeoutMs: number,
  session?: SessionHook,
): Promise<Record<string, unknown>[]> {
  // The text is already numbered ($n), so the session's `?` numbering leaves it as it is. Unnamed: each query
  // is planned for its own values.
  const run = async (read: Reader) => (await read(query.text, query.params, { prepare: false })).rows;
  return onReadSession(reader, timeoutMs, async (read) => {
    if (!session) return run(read);
    try {
      await session.onStart(read);
      return await run(read);
    } finally {
      await session.onEnd();
    }
  }).catch(
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
