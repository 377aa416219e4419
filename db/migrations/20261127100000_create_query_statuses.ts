import type { Knex } from 'knex';

// The status of an asynchronous query run (PostHog's QueryStatus, kept in Redis there): one row per (environment,
// query id), written by the API when the query is submitted and by whichever engine process runs it. Besides
// PostHog's fields it holds what running needs: the query itself, and the PostgreSQL session running its
// statement (pid and backend_start together, since a pid alone may be reused), so that any process can cancel
// the statement and tell a runner that died from one still at work. The query and its response are `json`, not
// jsonb: kept as the text they were written (exact numbers), and accepting `\u0000`, which jsonb refuses and a
// query's text may hold; nothing ever looks inside them in SQL.
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('query_statuses', (t) => {
    t.integer('team_id').notNullable().references('environments.id').onDelete('CASCADE');
    t.string('id', 200).notNullable();
    t.json('query').notNullable();
    t.boolean('query_async').notNullable().defaultTo(true);
    t.boolean('complete').notNullable().defaultTo(false);
    t.boolean('error').notNullable().defaultTo(false);
    t.text('error_message').nullable();
    t.json('results').nullable();
    t.timestamp('start_time', { useTz: true }).nullable();
    t.timestamp('pickup_time', { useTz: true }).nullable();
    t.timestamp('end_time', { useTz: true }).nullable();
    t.timestamp('expiration_time', { useTz: true }).notNullable();
    // The pg-boss job that runs the query.
    t.string('task_id', 64).nullable();
    t.integer('insight_id').nullable();
    t.integer('dashboard_id').nullable();
    t.specificType('labels', 'text[]').nullable();
    t.jsonb('query_progress').nullable();
    t.integer('runner_pid').nullable();
    t.timestamp('runner_backend_start', { useTz: true }).nullable();
    t.primary(['team_id', 'id']);
    // The periodic cleanup deletes by expiry; a job finds its status by its id.
    t.index(['expiration_time']);
    t.index(['task_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('query_statuses');
}
