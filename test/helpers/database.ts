/**
 * One fresh PostgreSQL database per test run, on the machine's server (never the embedded one), created and
 * migrated before the first test and dropped after the last.
 */
import pg from 'pg';
import { createDb, type Db } from '../../db/pg/client.js';
import { migrateLatest } from '../../db/pg/migrate.js';
import { DEFAULT_ADMIN_URL, postgresServer } from './postgres.js';

/** A maintenance connection to the server the tests may create databases on. */
export const ADMIN_URL = process.env.HEDGEROW_TEST_ADMIN_URL || DEFAULT_ADMIN_URL;

/** The port of that server, where tests point the Postgres destinations of their exports. */
export const ADMIN_PORT = Number(new URL(ADMIN_URL).port || 5432);

const server = postgresServer(ADMIN_URL);

export function databaseUrl(name: string): string {
  return server.databaseUrl(name);
}

export function createDatabase(prefix = 'hedgerow_test', options: { local?: boolean } = {}): Promise<string> {
  return server.createDatabase(prefix, options);
}

export function dropDatabase(name: string): Promise<void> {
  return server.dropDatabase(name);
}

/**
 * Kept on globalThis rather than in a module variable: mocha requires most spec files but imports those with
 * top-level await, and the two loaders give this module two instances.
 */
const holder = globalThis as typeof globalThis & { hedgerowTestDatabase?: { name: string; db: Db } | null };

/** The run's database, migrated. */
export function testDb(): Db {
  const shared = holder.hedgerowTestDatabase;
  if (!shared) throw new Error('the test database is created by the root hooks of test/setup.ts');
  return shared.db;
}

export async function openSharedDatabase(): Promise<void> {
  const name = await createDatabase();
  const db = createDb(databaseUrl(name));
  await migrateLatest(db);
  holder.hedgerowTestDatabase = { name, db };
}

export async function closeSharedDatabase(): Promise<void> {
  const shared = holder.hedgerowTestDatabase;
  if (!shared) return;
  holder.hedgerowTestDatabase = null;
  await shared.db.destroy();
  await dropDatabase(shared.name);
}

/**
 * Work on a connection to where environment `teamId`'s rows of tenant table `table` live, given that table's
 * name there: the run's database itself on plain PostgreSQL; on a Citus cluster the worker holding the
 * environment's shard, and the shard. For tests that reach below Citus: triggers (refused on a distributed
 * table) and a node's own statistics.
 */
export async function atTenantShard<T>(table: string, teamId: number, work: (client: pg.Client, table: string) => Promise<T>): Promise<T> {
  const url = new URL(databaseUrl(holder.hedgerowTestDatabase!.name));
  let local = table;
  if ((await testDb().raw(`select 1 from pg_extension where extname = 'citus'`)).rows.length > 0) {
    const { rows } = await testDb().raw(
      `select shard_name(?::regclass, s.shardid) as shard, n.nodename, n.nodeport
         from (select get_shard_id_for_distribution_column(?, ?::int) as shardid) s
         join pg_dist_placement p on p.shardid = s.shardid
         join pg_dist_node n on n.groupid = p.groupid`,
      [table, table, teamId],
    );
    const placement = rows[0] as { shard: string; nodename: string; nodeport: number };
    url.hostname = placement.nodename;
    url.port = String(placement.nodeport);
    local = placement.shard;
  }
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    // Citus refuses changes to a shard made on its worker unless told they are meant, and objects made there
    // stay there.
    await client.query(`select set_config('citus.enable_manual_changes_to_shards', 'on', false),
                               set_config('citus.enable_ddl_propagation', 'off', false)
                         where exists (select 1 from pg_extension where extname = 'citus')`);
    return await work(client, local);
  } finally {
    await client.end();
  }
}
