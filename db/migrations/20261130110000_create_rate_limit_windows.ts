import type { Knex } from 'knex';

// The request counts of personal API keys, one row per key: the window of a minute that began with the key's
// first request after the previous one ended, and the requests counted in it. Kept in the database so that
// every host behind a load balancer counts against the same budget. Keyed by the key's row id, which says
// nothing of its secret; no foreign key, so a key's deletion never waits on this bookkeeping (its row expires
// within a minute and is cleaned up like any other).
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('rate_limit_windows', (t) => {
    t.uuid('key_id').primary();
    t.timestamp('started_at', { useTz: true }).notNullable();
    t.integer('requests').notNullable();
    // The cleanup deletes the windows that ended.
    t.index(['started_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('rate_limit_windows');
}
