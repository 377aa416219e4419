/**
 * Read-only work on a session of the read pool (db/pg/client.ts createReadDb), bounded by one deadline for the
 * whole of it; what PostgreSQL refuses comes back translated (errors.ts translateQueryError).
 */
import type { ClientBase } from 'pg';
import Cursor from 'pg-cursor';
import { cancelStatement, discardConnection, type ReadDb } from './client.js';
import { queryTimeout, translateQueryError } from './errors.js';
import { runCachedStatement, type StatementOptions } from './prepared.js';
import { runQuery } from './query.js';

/**
 * Runs one statement: SQL text with `?` placeholders (and no other "?"), and its parameters. A session's
 * statements run one after another, prepared from their second use unless `prepare: false`, and without
 * parallel workers with `parallel: false` (db/pg/prepared.ts). `inBatches` reads a statement's rows through a
 * cursor instead (readInBatches).
 */
export type Reader = (<Row = Record<string, unknown>>(
  text: string,
  params: readonly unknown[],
  options?: StatementOptions,
) => Promise<{ rows: Row[] }>) & { inBatches: BatchReader };

/**
 * Reads the rows of one statement (text with `$n` placeholders) through a cursor, `batchRows` at a time, each row
 * an array of its values in the statement's order. `onBatch` is handed every batch as it arrives; when it
 * answers false, the cursor is closed and the statement ends there. The deadline of the session's work covers
 * every batch: past it the statement is cancelled and the read rejects with the 504.
 */
export type BatchReader = (text: string, params: readonly unknown[], batchRows: number, onBatch: (rows: unknown[][]) => boolean) => Promise<void>;

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
  let discarded = false;
  const read = async <Row>(text: string, params: readonly unknown[], options?: StatementOptions) => {
    await keepWithinPageDeadline();
    return { rows: (await runCachedStatement(connection, positional(text), [...params], options)) as Row[] };
  };
  const inBatches: BatchReader = async (text, params, batchRows, onBatch) => {
    await keepWithinPageDeadline();
    const deadline = started + timeoutMs;
    try {
      await readInBatches(session, text, params, batchRows, deadline, onBatch);
    } catch (error) {
      if (!(error instanceof DeadlinePassed)) throw error;
      discarded = true;
      throw queryTimeout(timeoutMs);
    }
  };
  try {
    return await work(Object.assign(read, { inBatches }));
  } catch (error) {
    throw translateQueryError(error, timeoutMs, dataErrorParameter);
  } finally {
    if (sessionTimeoutMs !== timeoutMs && !discarded) {
      await runQuery(session, 'reset statement_timeout').catch(() => discardConnection(connection, 'its timeout could not be reset'));
    }
    await reader.client.releaseConnection(connection);
  }
}

/** The deadline of a read passed while its cursor was open: its statement was cancelled and its session discarded. */
class DeadlinePassed extends Error {}

/**
 * readInBatches' side of BatchReader, with the deadline as a performance.now() time. The session's
 * statement_timeout bounds each fetch (PostgreSQL times every Execute of a portal on its own), not all of them
 * together, nor the time spent between fetches on the rows already read: a timer does. Past the deadline the
 * statement is cancelled (a cancel request, which needs no session of the pool) and the session is closed rather
 * than pooled again, without waiting for a database that may no longer answer.
 */
async function readInBatches(
  session: ClientBase,
  text: string,
  params: readonly unknown[],
  batchRows: number,
  deadline: number,
  onBatch: (rows: unknown[][]) => boolean,
): Promise<void> {
  if (performance.now() >= deadline) throw new DeadlinePassed();
  const cursor = session.query(new Cursor<unknown[]>(text, [...params], { rowMode: 'array' }));
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      cancelStatement(session);
      discardConnection(session, 'its statement outlived the deadline of its read');
      reject(new DeadlinePassed());
    }, Math.max(0, deadline - performance.now()));
  });
  // Whatever the pending fetch answers once the session is gone is not awaited by anyone.
  const beforeDeadline = <T>(pending: Promise<T>) => {
    pending.catch(() => undefined);
    return Promise.race([pending, late]);
  };
  late.catch(() => undefined);
  try {
    for (;;) {
      const rows = await beforeDeadline(cursor.read(batchRows));
      if (rows.length === 0) return;
      let wantsMore: boolean;
      try {
        wantsMore = onBatch(rows);
      } catch (error) {
        await beforeDeadline(cursor.close()).catch(() => undefined);
        throw error;
      }
      if (!wantsMore) {
        await beforeDeadline(cursor.close());
        return;
      }
      // A batch short of the size asked for is the last: the cursor has already closed its portal.
      if (rows.length < batchRows) return;
    }
  } finally {
    clearTimeout(timer);
    // pg's own answer deadline (query_timeout) is set for every query it runs and cleared only by the query's
    // callback, which a cursor never calls: cleared here, or it would fail the cursor long after it is done.
    (cursor as unknown as { callback?: (error: Error | null) => void }).callback?.(null);
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
