/**
 * Named prepared statements, of two kinds:
 * - runPrepared: fixed statements that every API request runs (who is calling, may they see this project), by
 *   constant names. Through Knex, each of them was built, parsed and planned anew on every request, most of the
 *   cost being PostgreSQL's planning of a few joins; as a named statement `pg` prepares it once
 *   per pooled connection and later executions skip parsing and, once PostgreSQL settles on a generic plan,
 *   planning too.
 * - runCachedStatement: statements whose text is built per request (the event listing's reads), prepared from
 *   their second use, at most PREPARED_PER_SESSION of them a session.
 */
import type { ClientBase, QueryResultRow } from 'pg';
import type { Db } from './client.js';
import { asUnavailable } from './errors.js';
import { runQuery } from './query.js';

export interface PreparedStatement {
  /** Unique per statement text. */
  name: string;
  text: string;
}

export async function runPrepared<R extends QueryResultRow>(db: Db, statement: PreparedStatement, values: unknown[]): Promise<R[]> {
  const connection = (await db.client.acquireConnection()) as ClientBase;
  try {
    return (await runQuery<R>(connection, { name: statement.name, text: statement.text, values })).rows;
  } catch (error) {
    throw asUnavailable(error);
  } finally {
    await db.client.releaseConnection(connection);
  }
}

/**
 * How many statements of varying text one session keeps prepared. A prepared statement holds its plan in the
 * session's memory, and request parameters (HogQL expressions, filters, page sizes) can make any number of
 * texts: the least recently used is deallocated beyond this many.
 */
export const PREPARED_PER_SESSION = 32;

/** How many texts used once a session remembers, so that their second use prepares them. */
const SEEN_PER_SESSION = 64;

/** What `pg` keeps of the statements it has prepared on a connection, by name (it skips Parse for those). */
interface StatementBook {
  parsedStatements?: Record<string, string>;
  submittedNamedStatements?: Record<string, string>;
}

/** A `pg` connection, with the book its `connection` keeps (not in pg's types). */
type PgSession = ClientBase & { connection?: StatementBook };

/** One session's statements: text → name, and texts used once; both least recently used first. */
interface SessionStatements {
  prepared: Map<string, string>;
  seen: Set<string>;
}

const sessions = new WeakMap<object, SessionStatements>();
let statementCounter = 0;

/**
 * Runs `text` (with `$n` placeholders) on `session`: once unnamed, then as a named prepared statement; always
 * unnamed with `prepare: false`.
 *
 * Why: PostgreSQL plans an unnamed statement on every execution, a sizeable share of a listing page. A
 * prepared one is planned for its first five executions; then, if a generic plan costs about what the custom
 * ones did, that plan is kept and later executions skip planning. (Callers write row counts into the text: with
 * a parameterised LIMIT or OFFSET the generic plan's estimates differ from the custom plans' and PostgreSQL keeps
 * planning every execution.) A text is prepared only when it comes back, so that texts used once (an ad hoc
 * `where`, an offset page) neither take a place nor push a recurring statement out. Names are never reused, and
 * `pg` remembers the text of every statement it has prepared on a connection: a deallocated one is dropped from
 * that memory too, and where `pg` does not keep it where this expects, statements run unnamed instead.
 */
export async function runCachedStatement<R extends QueryResultRow>(
  session: unknown,
  text: string,
  values: unknown[],
  options: StatementOptions = {},
): Promise<R[]> {
  const pg = session as PgSession;
  const run = async () => (options.prepare === false ? (await runQuery<R>(pg, text, values)).rows : runCached<R>(pg, text, values, true));
  if (options.parallel !== false) return run();
  // For this statement only: the session's own setting comes back whatever the statement did (outside a
  // transaction, a failed statement leaves the session usable).
  await runQuery(pg, 'set max_parallel_workers_per_gather = 0');
  try {
    return await run();
  } finally {
    await runQuery(pg, 'reset max_parallel_workers_per_gather');
  }
}

export interface StatementOptions {
  /** false: run unnamed, never prepared. */
  prepare?: boolean;
  /**
   * false: plan and run without parallel workers. For a short statement that the planner's estimates make a
   * parallel plan of, starting the workers costs more than the work they share: the listing's person lookup
   * (the first thousand distinct ids of a filter's persons) is faster without them.
   * Costs two round trips (the setting, set and reset). A statement that always runs so is planned so, also
   * when PostgreSQL keeps its plan.
   */
  parallel?: boolean;
}

async function runCached<R extends QueryResultRow>(pg: PgSession, text: string, values: unknown[], mayRetry: boolean): Promise<R[]> {
  const book = pg.connection;
  if (!book?.parsedStatements || !book.submittedNamedStatements) return (await runQuery<R>(pg, text, values)).rows;
  let statements = sessions.get(pg);
  if (!statements) sessions.set(pg, (statements = { prepared: new Map(), seen: new Set() }));
  const { prepared, seen } = statements;
  let name = prepared.get(text);
  if (name === undefined && !seen.has(text)) {
    if (seen.size >= SEEN_PER_SESSION) seen.delete(seen.values().next().value as string);
    seen.add(text);
    return (await runQuery<R>(pg, text, values)).rows;
  }
  // The session's book is updated before anything is awaited, so that it stays within its bound even if
  // another read of the same session were queued meanwhile.
  let evicted: string | undefined;
  if (name !== undefined) {
    prepared.delete(text); // to the most recently used end
  } else {
    seen.delete(text);
    if (prepared.size >= PREPARED_PER_SESSION) {
      const [oldText, oldName] = prepared.entries().next().value as [string, string];
      prepared.delete(oldText);
      evicted = oldName;
    }
    name = `hedgerow_read_${++statementCounter}`;
  }
  prepared.set(text, name);
  if (evicted !== undefined) await deallocate(pg, book, evicted);
  try {
    return (await runQuery<R>(pg, { name, text, values })).rows;
  } catch (error) {
    // PostgreSQL no longer has the statement `pg` believes prepared (deallocated by other means), or a table it
    // reads changed its columns since it was prepared (a migration run by another process) and PostgreSQL refuses
    // the kept plan. Prepared again, once, it runs.
    const outdated = missingStatement(error) || stalePlan(error);
    if (!mayRetry || !outdated) throw error;
    prepared.delete(text);
    seen.add(text); // so that the retry prepares it
    await deallocate(pg, book, name);
    return runCached<R>(pg, text, values, false);
  }
}

/**
 * Forgets a statement, in `pg`'s book and in the session. PostgreSQL's refusal (the statement is not there) is
 * what was wanted; any other failure of the session shows in its next statement.
 */
async function deallocate(pg: PgSession, book: StatementBook, name: string): Promise<void> {
  // Never parsed (its Parse failed): PostgreSQL does not have it either.
  if (book.parsedStatements?.[name] === undefined) return;
  delete book.parsedStatements[name];
  await runQuery(pg, `deallocate ${name}`).catch(() => undefined);
}

/** SQLSTATE 26000: invalid_sql_statement_name. */
function missingStatement(error: unknown): boolean {
  return (error as { code?: unknown }).code === '26000';
}

function stalePlan(error: unknown): boolean {
  const pg = error as { code?: unknown; message?: unknown };
  return pg.code === '0A000' && typeof pg.message === 'string' && pg.message.includes('cached plan must not change result type');
}
