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
