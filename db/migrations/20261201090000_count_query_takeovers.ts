import type { Knex } from 'knex';

// A run whose process stops is started over by another (db/queries/query/status.ts); the status counts how often
// that happened after a process died, so that a query that brings its processes down is not run on every one.
export async function up(db: Knex): Promise<void> {
  await db.raw('alter table query_statuses add column takeovers smallint not null default 0');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('alter table query_statuses drop column takeovers');
}
