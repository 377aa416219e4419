/**
 * The one way to open the database: a Knex instance on the `pg` driver, whatever PostgreSQL is behind the URL
 * (the machine's, a managed one, or the embedded one of db/embedded.ts).
 */
import knex, { type Knex } from 'knex';
import pg from 'pg';
import { parseJson } from '../handlers/exact-json.js';
import { MAX_JSON_DEPTH } from '../handlers/json-limits.js';

/** Every statement is cut off after this long, so one runaway query cannot hold a connection forever. */
const STATEMENT_TIMEOUT_MS = 30_000;

export type Db = Knex;

/** Sessions of a Db's pool at most (createDb), and of a read-only pool (createReadDb), unless told otherwise. */
export const DB_POOL_MAX = 10;
export const READ_DB_POOL_MAX = 5;

export function createDb(databaseUrl: string, options: { poolMax?: number } = {}): Db {
  return knex({
    client: 'pg',
    connection: { connectionString: databaseUrl, statement_timeout: STATEMENT_TIMEOUT_MS },
    pool: { min: 0, max: options.poolMax ?? DB_POOL_MAX },
    // Fail fast when the database is unreachable instead of queueing requests for a minute.
    acquireConnectionTimeout: 10_000,
  });
}

/**
 * A pool whose sessions are read-only and cut off every statement after `statementTimeoutMs`: for the API's
 * reads that run user-written filters (the event listing). A query needs no transaction of its own to be
 * bounded and harmless, which spares each one the round trip of a BEGIN and a COMMIT.
 */
export type ReadDb = Db & { readonly __readOnlySessions: true };

const JSON_OID = 114;
const JSONB_OID = 3802;

/**
 * `pg`'s type parsers, with json and jsonb read so that integers beyond 2^53 stay exact (handlers/exact-json.ts):
 * the listing shows stored values as capture stored them.
 */
const EXACT_JSON_TYPES = {
  getTypeParser: (oid: number, format: string): unknown =>
    (oid === JSON_OID || oid === JSONB_OID) && format !== 'binary'
      ? (text: string) => parseJson(text, MAX_JSON_DEPTH)
      : pg.types.getTypeParser(oid, format as 'text'),
};

/** The connection string a Db was created with (for sessions of its own: read-only pools, LISTEN). */
export function connectionStringOf(db: Db): string {
  return (db.client.config.connection as { connectionString: string }).connectionString;
}

export function createReadDb(db: Db, statementTimeoutMs: number, options: { poolMax?: number } = {}): ReadDb {
  return knex({
    client: 'pg',
    connection: {
      connectionString: connectionStringOf(db),
      statement_timeout: Math.max(1, Math.trunc(statementTimeoutMs)),
      options: '-c default_transaction_read_only=on',
      types: EXACT_JSON_TYPES,
    },
    pool: { min: 0, max: options.poolMax ?? READ_DB_POOL_MAX },
    acquireConnectionTimeout: 10_000,
  }) as ReadDb;
}

/** True when the database answers a trivial query. */
export async function isReachable(db: Db): Promise<boolean> {
  try {
    await db.raw('select 1');
    return true;
  } catch {
    return false;
  }
}
