/**
 * Hedgerow on a distributed PostgreSQL (Citus): a coordinator, which every Hedgerow host connects to, and
 * workers, which hold the shards. Citus keeps a database's cluster in the database itself (its extension and
 * its list of nodes), so a new database of a cluster is made on every node and then joined up here.
 *
 * `distributeTables` shards the tenant tables by environment and copies the shared ones to every node
 * (db/pg/distribution.ts says which is which); the last migration calls it, so a database whose PostgreSQL has
 * Citus is distributed as it is migrated, and `npm run admin -- distribute` converts one migrated before.
 */
import knex, { type Knex } from 'knex';
import pg from 'pg';
import { COLOCATED_FUNCTIONS, DISTRIBUTION_COLUMN, REFERENCE_TABLES, TENANT_TABLES } from './distribution.js';

export interface CitusNode {
  host: string;
  port: number;
}

export interface ClusterNodes {
  coordinator: CitusNode;
  workers: CitusNode[];
}

const EXTENSION = 'citus';

/** Work on one connection to `connectionString`, closed after it. */
export async function withClient<T>(connectionString: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** `baseUrl` (its user and options) pointed at `database` of another node. */
export function nodeUrl(baseUrl: string, node: CitusNode, database: string): string {
  const url = new URL(baseUrl);
  url.hostname = node.host;
  url.port = String(node.port);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Whether the database of this session has the citus extension. */
export async function hasCitus(db: Knex | pg.ClientBase): Promise<boolean> {
  const sql = 'select 1 from pg_extension where extname = $1';
  const rows = 'raw' in db ? (await db.raw(sql.replace('$1', '?'), [EXTENSION])).rows : (await db.query(sql, [EXTENSION])).rows;
  return rows.length > 0;
}

/**
 * The nodes of the cluster that the database at `adminUrl` belongs to, or null when it is not a Citus
 * coordinator (no extension there, or no workers joined).
 */
export async function clusterNodes(adminUrl: string): Promise<ClusterNodes | null> {
  return withClient(adminUrl, async (client) => {
    if (!(await hasCitus(client))) return null;
    const { rows } = await client.query<{ nodename: string; nodeport: number; groupid: number }>(
      `select nodename, nodeport, groupid from pg_dist_node where noderole = 'primary' and isactive order by groupid`,
    );
    const coordinator = rows.find((row) => row.groupid === 0);
    const workers = rows.filter((row) => row.groupid !== 0);
    if (!coordinator || workers.length === 0) return null;
    const node = (row: { nodename: string; nodeport: number }) => ({ host: row.nodename, port: row.nodeport });
    return { coordinator: node(coordinator), workers: workers.map(node) };
  });
}

/** Database names come from our own code, never from a request; still, only plain identifiers pass. */
function checkDatabaseName(name: string): void {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
}

/**
 * Names the coordinator and joins each worker not yet joined, in a database that has the extension. The
 * workers' database of the same name must exist and have the extension.
 */
export async function joinWorkers(db: Knex, coordinator: CitusNode, workers: CitusNode[]): Promise<void> {
  await db.raw('select citus_set_coordinator_host(?, ?)', [coordinator.host, coordinator.port]);
  const joined = (await db.raw(`select nodename, nodeport from pg_dist_node`)).rows as { nodename: string; nodeport: number }[];
  for (const worker of workers) {
    if (joined.some((node) => node.nodename === worker.host && node.nodeport === worker.port)) continue;
    await db.raw('select citus_add_node(?, ?)', [worker.host, worker.port]);
  }
}

/** Adds the extension and the list of nodes to a database of the coordinator. */
export async function joinDatabase(databaseUrl: string, nodes: ClusterNodes): Promise<void> {
  const db = knex({ client: 'pg', connection: databaseUrl, pool: { min: 0, max: 1 } });
  try {
    await db.raw(`create extension if not exists ${EXTENSION}`);
    await joinWorkers(db, nodes.coordinator, nodes.workers);
  } finally {
    await db.destroy();
  }
}

/**
 * Makes database `name` on every node of the cluster whose coordinator `adminUrl` (a maintenance database of
 * the coordinator) names, with the extension on each, and joins the workers to it on the coordinator.
 */
export async function createClusterDatabase(adminUrl: string, nodes: ClusterNodes, name: string): Promise<void> {
  checkDatabaseName(name);
  const maintenance = new URL(adminUrl).pathname.slice(1) || 'postgres';
  for (const node of [nodes.coordinator, ...nodes.workers]) {
    await withClient(nodeUrl(adminUrl, node, maintenance), (client) => client.query(`create database ${name}`));
    if (node !== nodes.coordinator) {
      await withClient(nodeUrl(adminUrl, node, name), (client) => client.query(`create extension ${EXTENSION}`));
    }
  }
  await joinDatabase(nodeUrl(adminUrl, nodes.coordinator, name), nodes);
}

export async function dropClusterDatabase(adminUrl: string, nodes: ClusterNodes, name: string): Promise<void> {
  checkDatabaseName(name);
  const maintenance = new URL(adminUrl).pathname.slice(1) || 'postgres';
  for (const node of [nodes.coordinator, ...nodes.workers]) {
    await withClient(nodeUrl(adminUrl, node, maintenance), (client) =>
      client.query(`drop database if exists ${name} with (force)`),
    );
  }
}

export interface Distribution {
  reference: string[];
  distributed: string[];
  functions: string[];
}

/**
 * Shards every tenant table by environment, colocated with `events`, and makes every shared table a reference
 * table; tables already placed are left as they are, so it may run again. Functions of the schema that exist
 * only on the coordinator (made before the extension was) are copied to the workers, where the queries that
 * call them run. Does nothing where the database has no Citus.
 */
export async function distributeTables(db: Knex): Promise<Distribution> {
  const done: Distribution = { reference: [], distributed: [], functions: [] };
  if (!(await hasCitus(db))) return done;
  // Foreign keys to reference tables made in this transaction must be checked on one connection per node.
  await db.raw(`set local citus.multi_shard_modify_mode to 'sequential'`);
  const placed = new Set<string>(
    (await db.raw(`select logicalrelid::text as name from pg_dist_partition where partmethod = 'h' or repmodel = 't'`)).rows.map(
      (row: { name: string }) => row.name,
    ),
  );
  const unplaced = [...REFERENCE_TABLES, ...TENANT_TABLES].filter((table) => !placed.has(table));
  // A table with a foreign key to one still local would be pulled into Citus's metadata as a "Citus local
  // table", which cannot then be sharded as every table can be (its identity column, say): the keys that touch
  // the tables to place are dropped first and made again once every table is where it belongs.
  const keys = (
    await db.raw(
      `select conrelid::regclass::text as "table", conname as name, pg_get_constraintdef(oid) as definition
         from pg_constraint
        where contype = 'f' and connamespace = 'public'::regnamespace
          and (conrelid::regclass::text = any(?) or confrelid::regclass::text = any(?))`,
      [unplaced, unplaced],
    )
  ).rows as { table: string; name: string; definition: string }[];
  for (const key of keys) await db.raw(`alter table ?? drop constraint ??`, [key.table, key.name]);
  for (const table of REFERENCE_TABLES) {
    if (placed.has(table)) continue;
    await db.raw('select create_reference_table(?)', [table]);
    done.reference.push(table);
  }
  const [first] = TENANT_TABLES;
  for (const table of TENANT_TABLES) {
    if (placed.has(table)) continue;
    await db.raw('select create_distributed_table(?, ?, colocate_with => ?)', [
      table,
      DISTRIBUTION_COLUMN,
      table === first ? 'none' : first,
    ]);
    done.distributed.push(table);
  }
  for (const key of keys) await db.raw(`alter table ?? add constraint ?? ${key.definition}`, [key.table, key.name]);
  // A function's body may name functions not yet copied (one made again later has a later oid): the workers
  // check no bodies while they are copied.
  await db.raw(`set local citus.propagate_set_commands to 'local'`);
  await db.raw('set local check_function_bodies to off');
  const functions = await db.raw(`
    select p.oid::regprocedure::text as signature
      from pg_proc p
     where p.pronamespace = 'public'::regnamespace
       and not exists (select 1 from pg_depend d where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')
       and not exists (select 1 from pg_dist_object o where o.classid = 'pg_proc'::regclass and o.objid = p.oid)
     order by p.oid`);
  for (const { signature } of functions.rows as { signature: string }[]) {
    await db.raw('select create_distributed_function(?)', [signature]);
    done.functions.push(signature);
  }
  await colocateFunctions(db);
  return done;
}

/**
 * Distributes COLOCATED_FUNCTIONS by their environment argument, colocated with `events`, so that Citus runs
 * a call on the node of that environment (the function's body included) instead of on the coordinator. Those
 * that do not exist yet (a database migrated part way) are left for the migration that makes them. Does
 * nothing where the database has no Citus.
 */
export async function colocateFunctions(db: Knex): Promise<void> {
  if (!(await hasCitus(db))) return;
  for (const { signature, argument } of COLOCATED_FUNCTIONS) {
    const exists = await db.raw('select to_regprocedure(?) is not null as found', [signature]);
    if (!exists.rows[0].found) continue;
    await db.raw(`select create_distributed_function(?, ?, colocate_with => 'events')`, [signature, argument]);
  }
}
