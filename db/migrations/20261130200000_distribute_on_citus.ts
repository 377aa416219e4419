import type { Knex } from 'knex';
import { distributeTables } from '../pg/citus.js';
import { REFERENCE_TABLES, TENANT_TABLES } from '../pg/distribution.js';

// On a database whose PostgreSQL has Citus (db/pg/citus.ts), the tenant tables are sharded by environment and
// the shared ones copied to every node; on plain PostgreSQL nothing changes. Later migrations alter the tables
// in place either way: Citus carries DDL to the shards.
export async function up(db: Knex): Promise<void> {
  await distributeTables(db);
}

export async function down(db: Knex): Promise<void> {
  const placed = await db.raw(`select 1 from pg_extension where extname = 'citus'`);
  if (placed.rows.length === 0) return;
  for (const table of [...TENANT_TABLES].reverse()) {
    await db.raw(`select undistribute_table(?, cascade_via_foreign_keys => true)
                   where exists (select 1 from pg_dist_partition where logicalrelid = ?::regclass)`, [table, table]);
  }
  for (const table of [...REFERENCE_TABLES].reverse()) {
    await db.raw(`select undistribute_table(?, cascade_via_foreign_keys => true)
                   where exists (select 1 from pg_dist_partition where logicalrelid = ?::regclass)`, [table, table]);
  }
}
