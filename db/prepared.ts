/**
 * Named prepared statements for the queries every API request runs (who is calling, may they see this project).
 *
 * Why: through Knex, each of them was built, parsed and planned anew on every request, about 0.5-1 ms apiece,
 * most of it PostgreSQL's planning of a few joins; as a named statement `pg` prepares it once per pooled
 * connection and later executions skip parsing and, once PostgreSQL settles on a generic plan, planning too.
 * Only fixed statement texts are prepared (the names are constants), so the number of prepared statements per
 * connection is bounded by this module.
 */
import type { QueryResultRow } from 'pg';
import type { Db } from './client.js';

export interface PreparedStatement {
  /** Unique per statement text. */
  name: string;
  text: string;
}

interface PgConnection {
  query<R extends QueryResultRow>(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: R[] }>;
}

export async function runPrepared<R extends QueryResultRow>(db: Db, statement: PreparedStatement, values: unknown[]): Promise<R[]> {
  const connection = (await db.client.acquireConnection()) as PgConnection;
  try {
    return (await connection.query<R>({ name: statement.name, text: statement.text, values })).rows;
  } finally {
    await db.client.releaseConnection(connection);
  }
}

/**
 * How many statements of varying text (the event listing's, built per request) one session keeps prepared. A
 * prepared statement holds its plan in the session's memory, and request parameters (HogQL expressions,
 * filters) can make any number of texts: the least recently used is deallocated beyond this many.
 */
export const PREPARED_PER_SESSION = 32;

/** What `pg` keeps of the statements it has prepared on a connection, by name (it skips Parse for those). */
interface StatementBook {
  parsedStatements?: Record<string, string>;
  submittedNamedStatements?: Record<string, string>;
}

interface PgSession {
  query<R extends QueryResultRow>(text: string, values?: unknown[]): Promise<{ rows: R[] }>;
  query<R extends QueryResultRow>(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: R[] }>;
  connection?: StatementBook;
}

/** Per session: statement text → name, least recently used first. */
const preparedTexts = new WeakMap<object, Map<string, string>>();
let statementCounter = 0;

/**
 * Runs `text` (with `$n` placeholders) as a named prepared statement of `session`, preparing it on first use.
 *
 * Why: PostgreSQL plans an unnamed statement on every execution, about 0.6-0.9 ms of a 3.6 ms listing page. A
 * prepared one is planned for its first five executions; then, if a generic plan costs about what the custom
 * ones did, that plan is kept and later executions skip planning. (Callers write row counts into the text: with
 * a parameterised LIMIT or OFFSET the generic plan's estimates differ from the custom plans' and PostgreSQL keeps
 * planning every execution.) The session keeps at most PREPARED_PER_SESSION of them. Names are never reused,
 * and `pg` remembers the text of every statement it has prepared on a connection: a deallocated one is dropped
 * from that memory too, and where `pg` does not keep it where this expects, statements run unnamed instead.
 */
export function runCachedStatement<R extends QueryResultRow>(session: unknown, text: string, values: unknown[]): Promise<R[]> {
  return runCached<R>(session as PgSession, text, values, true);
}

async function runCached<R extends QueryResultRow>(pg: PgSession, text: string, values: unknown[], mayRetry: boolean): Promise<R[]> {
  const book = pg.connection;
  if (!book?.parsedStatements || !book.submittedNamedStatements) return (await pg.query<R>(text, values)).rows;
  let texts = preparedTexts.get(pg);
  if (!texts) preparedTexts.set(pg, (texts = new Map()));
  let name = texts.get(text);
  if (name !== undefined) {
    texts.delete(text); // to the most recently used end
  } else {
    if (texts.size >= PREPARED_PER_SESSION) await deallocate(pg, book, texts, texts.keys().next().value as string);
    name = `hedgerow_read_${++statementCounter}`;
  }
  texts.set(text, name);
  try {
    return (await pg.query<R>({ name, text, values })).rows;
  } catch (error) {
    // A table it reads changed its columns since it was prepared (a migration run by another process): PostgreSQL
    // refuses to run the kept plan. Prepared again, it reads the table as it is now.
    if (!mayRetry || !isStalePlan(error)) throw error;
    await deallocate(pg, book, texts, text);
    return runCached<R>(pg, text, values, false);
  }
}

async function deallocate(pg: PgSession, book: StatementBook, texts: Map<string, string>, text: string): Promise<void> {
  const name = texts.get(text);
  texts.delete(text);
  // Never parsed (its Parse failed): PostgreSQL does not have it either.
  if (name === undefined || book.parsedStatements?.[name] === undefined) return;
  delete book.parsedStatements[name];
  await pg.query(`deallocate ${name}`);
}

function isStalePlan(error: unknown): boolean {
  const pg = error as { code?: unknown; message?: unknown };
  return pg.code === '0A000' && typeof pg.message === 'string' && pg.message.includes('cached plan must not change result type');
}
