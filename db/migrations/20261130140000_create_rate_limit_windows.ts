import type { Knex } from 'knex';

// The request counts of personal API keys, one row per key: the window of a minute that began with the key's
// first request after the previous one ended, and the requests counted in it. Kept in the database so that
// every host behind a load balancer counts against the same budget. Keyed by the key's row id, which says
// nothing of its secret; no foreign key, so a key's deletion never waits on this bookkeeping (its row expires
// within a minute and is cleaned up like any other). Unlogged: every API request writes it, and a count of the
// last minute is not worth a WAL flush per request; after a crash of PostgreSQL the table starts empty, which
// gives every key a fresh minute.
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    create unlogged table rate_limit_windows (
      key_id uuid primary key,
      started_at timestamptz not null,
      requests integer not null
    )`);
  // The cleanup deletes the windows that ended.
  await db.raw('create index rate_limit_windows_started_at_index on rate_limit_windows (started_at)');
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('rate_limit_windows');
}
