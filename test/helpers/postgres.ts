/**
 * Databases made and dropped on a PostgreSQL server through its maintenance connection: the one harness the
 * tests (test/helpers/database.ts) and the benchmarks (scripts/bench/) start their databases with.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { clusterNodes, createClusterDatabase, dropClusterDatabase, type ClusterNodes } from '../../db/pg/citus.js';

export const DEFAULT_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

export interface PostgresServer {
  /** The URL of a database of this server. */
  databaseUrl(name: string): string;
  /**
   * A new empty database, named `<prefix>_<random hex>`; on a Citus coordinator, one of the cluster unless
   * `local` (a database of the coordinator alone, such as an export's destination).
   */
  createDatabase(prefix: string, options?: { local?: boolean }): Promise<string>;
  dropDatabase(name: string): Promise<void>;
  /** Work on the maintenance connection, closed after it. */
  admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T>;
}

/**
 * When the admin URL names a Citus coordinator (`npm run test:citus`), a database is made on every node of its
 * cluster and joined up, so that the migrations distribute its tables.
 */
export function postgresServer(adminUrl: string): PostgresServer {
  let cluster: Promise<ClusterNodes | null> | null = null;
  const nodes = () => (cluster ??= clusterNodes(adminUrl));
  const admin = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  return {
    databaseUrl(name) {
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      return url.toString();
    },
    async createDatabase(prefix, options = {}) {
      const name = `${prefix}_${randomBytes(6).toString('hex')}`;
      const citus = options.local ? null : await nodes();
      if (citus) await createClusterDatabase(adminUrl, citus, name);
      else await admin((client) => client.query(`create database ${name}`));
      return name;
    },
    async dropDatabase(name) {
      const citus = await nodes();
      if (citus) return dropClusterDatabase(adminUrl, citus, name);
      await admin((client) => client.query(`drop database if exists ${name} with (force)`));
    },
    admin,
  };
}
