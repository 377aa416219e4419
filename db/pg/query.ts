/**
 * The one way Hedgerow runs a statement on a `pg` connection it holds: through `pg`'s callback API, settled as a
 * promise of our own.
 *
 * Why not `pg`'s own promise (`client.query(config)` without a callback): on Node 20, the rows of results
 * awaited through it survived young-generation collections in bulk, so every collection copied them, promoted
 * them, and old space then needed full collections; a server answering listing pages one after another spent
 * about three times as long collecting garbage. Why V8 keeps them is not established; the difference is
 * measured (scripts/bench/README.md).
 *
 * A failure keeps what `pg`'s promise gives it: a stack trace that leads back to the caller, not to the socket.
 * A statement that got no answer within the connection's `query_timeout` discards the connection (db/pg/client.ts).
 */
import type { ClientBase, QueryConfig, QueryResult, QueryResultRow } from 'pg';
import { discardConnection } from './client.js';
import { isClientTimeout } from './errors.js';

export function runQuery<R extends QueryResultRow = QueryResultRow>(
  connection: ClientBase,
  text: string,
  values?: readonly unknown[],
): Promise<QueryResult<R>>;
/** A statement given whole: its values (and name, to prepare it) in the config. */
export function runQuery<R extends QueryResultRow = QueryResultRow>(connection: ClientBase, config: QueryConfig): Promise<QueryResult<R>>;
export function runQuery<R extends QueryResultRow = QueryResultRow>(
  connection: ClientBase,
  query: string | QueryConfig,
  values?: readonly unknown[],
): Promise<QueryResult<R>> {
  return new Promise<QueryResult<R>>((resolve, reject) => {
    const settle = (error: Error | null, result: QueryResult<R>) => (error ? reject(error) : resolve(result));
    if (typeof query === 'string' && values !== undefined) connection.query<R>(query, values as unknown[], settle);
    else connection.query<R>(query, settle);
  }).catch((error: unknown) => {
    if (isClientTimeout(error)) discardConnection(connection, 'a statement got no answer in time');
    // Here, a reaction to the caller's await, the stack leads back to the caller (as in pg's own promise).
    if (error instanceof Error) Error.captureStackTrace(error);
    throw error;
  });
}
