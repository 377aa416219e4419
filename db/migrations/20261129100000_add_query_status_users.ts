import type { Knex } from 'knex';

// The user whose API key submitted an asynchronous query: a user's queued and running queries are limited across
// all of its environments, since any key with organization:write can make more of them. Null for statuses
// written before (and for submits made for no user); a deleted user's statuses keep running, counted for no one.
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('query_statuses', (t) => {
    t.integer('user_id').nullable().references('users.id').onDelete('SET NULL');
  });
  // The submit counts the user's statuses not complete.
  await db.raw('create index query_statuses_user_pending on query_statuses (user_id) where not complete');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('drop index query_statuses_user_pending');
  await db.schema.alterTable('query_statuses', (t) => {
    t.dropColumn('user_id');
  });
}
