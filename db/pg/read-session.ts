/**
 * Read-only work on a session of the read pool (db/pg/client.ts createReadDb), bounded by one deadline for the
 * whole of it; what PostgreSQL refuses comes back translated (errors.ts translateQueryError).
 */
import pg, { type ClientBase } from 'pg';
import { cancelStatement, discardConnection, isDiscarded, type ReadDb } from './client.js';
import { queryTimeout, translateQueryError, type QueryParameters } from './errors.js';
import { runCachedStatement, type StatementOptions } from './prepared.js';
import { runQuery } from './query.js';

/**
 * Runs one statement: SQL text with `?` placeholders (and no other "?"), and its parameters. A session's
 * statements run one after another, prepared from their second use unless `prepare: false`, and without
 * parallel workers with `parallel: false` (db/pg/prepared.ts). `eachRow` hands a statement's rows over one at a
 * time instead of answering them all (streamRows).
 */
export type Reader = (<Row = Record<string, unknown>>(
  text: string,
  params: readonly unknown[],
  options?: StatementOptions,
) => Promise<{ rows: Row[] }>) & { eachRow: RowReader };

/**
 * Runs one statement (text with `$n` placeholders) and hands `onRow` each of its rows, an array of its values in
 * the statement's order, as it arrives: none is kept here, so what a read holds is what `onRow` keeps. When
 * `onRow` answers false, the statement is cancelled and the read ends there. The deadline of the session's work
 * covers the rows too: past it the statement is cancelled and the read rejects with the 504.
 *
 * Why not a cursor fetched in batches: PostgreSQL runs a plan with parallel workers only when one Execute runs it
 * to its end; fetched in batches, a scan of many events runs on one core.
 */
export type RowReader = (text: string, params: readonly unknown[], onRow: (row: unknown[]) => boolean) => Promise<void>;

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
  parameters: QueryParameters = {},
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
  const read = async <Row>(text: string, params: readonly unknown[], options?: StatementOptions) => {
    await keepWithinPageDeadline();
    return { rows: (await runCachedStatement(connection, positional(text), [...params], options)) as Row[] };
  };
  const eachRow: RowReader = async (text, params, onRow) => {
    await keepWithinPageDeadline();
    try {
      await streamRows(session, text, params, started + timeoutMs, onRow);
    } catch (error) {
      throw error instanceof DeadlinePassed ? queryTimeout(timeoutMs) : error;
    }
  };
  try {
    return await work(Object.assign(read, { eachRow }));
  } catch (error) {
    throw translateQueryError(error, timeoutMs, parameters);
  } finally {
    if (sessionTimeoutMs !== timeoutMs && !isDiscarded(connection)) {
      await runQuery(session, 'reset statement_timeout').catch(() => discardConnection(connection, 'its timeout could not be reset'));
    }
    await reader.client.releaseConnection(connection);
  }
}

/** The deadline of a read passed while its rows were coming: its statement was cancelled and its session discarded. */
class DeadlinePassed extends Error {}

/** What `pg` keeps of a statement it runs, beyond its types: how a row is parsed, and a parse failure. */
interface PgStatement {
  handleDataRow(message: { fields: unknown[] }): void;
  _result: { parseRow(fields: unknown[]): unknown[] };
  _canceledDueToError: unknown;
}

/**
 * What RowReader does, with the deadline as a performance.now() time. `pg` hands each row over as it
 * is parsed and keeps none. The session's statement_timeout bounds the statement; a timer, and a look at the
 * clock before each row, bound the time spent here on the rows as well. A statement abandoned (past the deadline,
 * or when `onRow` asks) is cancelled by a cancel request, which needs no session of the pool, and its session is
 * closed rather than pooled again: a cancel that arrives late would hit whatever the session ran next.
 */
function streamRows(session: ClientBase, text: string, params: readonly unknown[], deadline: number, onRow: (row: unknown[]) => boolean): Promise<void> {
  if (performance.now() >= deadline) return Promise.reject(new DeadlinePassed());
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const settle = (error: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) reject(error);
      else resolve();
    };
    const abandon = (error: unknown) => {
      cancelStatement(session);
      discardConnection(session, 'its statement was abandoned');
      settle(error);
    };
    const timer = setTimeout(() => abandon(new DeadlinePassed()), Math.max(0, deadline - performance.now()));
    // The callback is what `pg` calls once the statement has ended (and what clears its own answer deadline).
    const config: pg.QueryArrayConfig = { text, values: [...params], rowMode: 'array' };
    const query = new pg.Query(config, (error) => settle(error));
    const statement = query as unknown as PgStatement;
    statement.handleDataRow = (message) => {
      if (settled || statement._canceledDueToError) return;
      let row: unknown[];
      try {
        row = statement._result.parseRow(message.fields);
      } catch (error) {
        // As `pg` does: the statement fails with this error once it ends.
        statement._canceledDueToError = error;
        return;
      }
      if (performance.now() >= deadline) {
        abandon(new DeadlinePassed());
        return;
      }
      try {
        if (!onRow(row)) abandon(null);
      } catch (error) {
        abandon(error);
      }
    };
    session.query(query);
  });
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
