/**
 * The one way to open the database: a Knex instance on the `pg` driver, whatever PostgreSQL is behind the URL
 * (the machine's, a managed one, or the embedded one of db/embedded.ts).
 */
import knex, { type Knex } from 'knex';

/** Every statement is cut off after this long, so one runaway query cannot hold a connection forever. */
const STATEMENT_TIMEOUT_MS = 30_000;

export type Db = Knex;

export function createDb(databaseUrl: string, options: { poolMax?: number } = {}): Db {
  return knex({
    client: 'pg',
    connection: { connectionString: databaseUrl, statement_timeout: STATEMENT_TIMEOUT_MS },
    pool: { min: 0, max: options.poolMax ?? 10 },
    // Fail fast when the database is unreachable instead of queueing requests for a minute.
    acquireConnectionTimeout: 10_000,
  });
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
