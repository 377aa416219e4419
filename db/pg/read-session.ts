/**
 * Read-only work on a session of the read pool (db/pg/client.ts createReadDb), bounded by one deadline for the
 * whole of it; what PostgreSQL refuses comes back translated (errors.ts translateQueryError).
 */
import type { ClientBase } from 'pg';
import { discardConnection, type ReadDb } from './client.js';
import { queryTimeout, translateQueryError } from './errors.js';
import { runCachedStatement, type StatementOptions } from './prepared.js';
import { runQuery } from './query.js';

/**
 * Runs one statement: SQL text with `?` placeholders (and no other "?"), and its parameters. A session's
 * statements run one after another, prepared from their second use unless `prepare: false`, and without
 * parallel workers with `parallel: false` (db/pg/prepared.ts).
 */
export type Reader = <Row = Record<string, unknown>>(
  text: string,
  params: readonly unknown[],
  options?: StatementOptions,
) => Promise<{ rows: Row[] }>;

function positional(text: string): string {
  let index = 0;
  return text.replace(/\?/g, () => `$${++index}`);
}

/**
 * Runs read-only work on a session of the read pool (db/pg/client.ts createReadDb: read-only, with the query
 * timeout), translating what PostgreSQL refuses. The session's settings bound each statement, so the work needs
 * no transaction: a page costs its query's round trip and nothing else. Statements run prepared, so that the
 * session plans a recurring one only until PostgreSQL settles on a plan for it (db/pg/prepared.ts). `timeoutMs` is
 * the pool's timeout: the deadline of the whole work, waiting for the session included (a 504 past it).
 */
export async function onReadSession<T>(
  reader: ReadDb,
  timeoutMs: number,
  work: (read: Reader) => Promise<T>,
  dataErrorParameter: string | null = null,
): Promise<T> {
  const started = performance.now();
  const connection = await lendSession(reader, timeoutMs);
  const session = connection as ClientBase;
  // The timeout bounds the page, not each of its statements: the wait for a session and the statements before
  // count. A statement that would have noticeably less left than the session's timeout runs with what is left
  // (a round trip more, paid only by pages that have already spent that long), and the session's own timeout
  // comes back before it returns to the pool.
  let sessionTimeoutMs = timeoutMs;
  const keepWithinPageDeadline = async () => {
    const left = Math.trunc(timeoutMs - (performance.now() - started));
    if (left <= 0) throw queryTimeout(timeoutMs);
    if (sessionTimeoutMs - left <= PAGE_DEADLINE_SLACK_MS) return;
    await runQuery(session, `set statement_timeout = ${left}`);
    sessionTimeoutMs = left;
  };
  try {
    return await work(async <Row>(text: string, params: readonly unknown[], options?: StatementOptions) => {
      await keepWithinPageDeadline();
      return { rows: (await runCachedStatement(connection, positional(text), [...params], options)) as Row[] };
    });
  } catch (error) {
    throw translateQueryError(error, timeoutMs, dataErrorParameter);
  } finally {
    if (sessionTimeoutMs !== timeoutMs) {
      await runQuery(session, 'reset statement_timeout').catch(() => discardConnection(connection, 'its timeout could not be reset'));
    }
    await reader.client.releaseConnection(connection);
  }
}

/** How much of the page's timeout may already be spent before a statement runs with less than all of it. */
const PAGE_DEADLINE_SLACK_MS = 100;

/** A session of the read pool, or a 504 when none is free within `timeoutMs` (one lent later goes back). */
async function lendSession(reader: ReadDb, timeoutMs: number): Promise<unknown> {
  const acquiring: Promise<unknown> = reader.client.acquireConnection();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(queryTimeout(timeoutMs)), timeoutMs);
  });
  try {
    return await Promise.race([acquiring, late]);
  } catch (error) {
    acquiring.then((connection) => reader.client.releaseConnection(connection)).catch(() => undefined);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** Whether the read pool can lend a session at once (one is idle, or may be opened), with nobody waiting. */
export function sessionFreeNow(reader: ReadDb): boolean {
  const pool = (reader.client as unknown as { pool?: TarnPool }).pool;
  if (!pool) return false;
  if (pool.numPendingAcquires() > 0) return false;
  return pool.numFree() > 0 || pool.numUsed() + pool.numPendingCreates() < pool.max;
}

interface TarnPool {
  max: number;
  numFree(): number;
  numUsed(): number;
  numPendingAcquires(): number;
  numPendingCreates(): number;
}
