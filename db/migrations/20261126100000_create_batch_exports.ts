import type { Knex } from 'knex';

// Batch exports of an environment, their backfills and their runs.
//
// A run is one (export, data interval): the unique key on (batch_export_id, data_interval_end) is what makes every
// interval run once, whichever process schedules it and however often; the scheduler claims a run by inserting
// its row in the same transaction that enqueues its job. A backfill that covers an interval that already has a
// run re-runs that row (PostHog reuses the workflow id) instead of adding a second one.
//
// Destination settings, secrets included, are kept in `destination_config`; the API never returns the secret keys.
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('batch_exports', (t) => {
    t.uuid('id').primary();
    t.integer('team_id').notNullable().references('environments.id').onDelete('CASCADE');
    t.string('name', 255).notNullable();
    t.string('model', 32).notNullable().defaultTo('events');
    t.string('destination_type', 64).notNullable();
    t.jsonb('destination_config').notNullable().defaultTo('{}');
    t.string('interval', 64).notNullable().defaultTo('hour');
    // Seconds after the interval's natural start (PostHog's interval_offset): offset_day * 86400 + offset_hour * 3600.
    t.integer('interval_offset').notNullable().defaultTo(0);
    t.string('timezone', 240).notNullable().defaultTo('UTC');
    t.boolean('paused').notNullable().defaultTo(false);
    t.boolean('deleted').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('last_updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('last_paused_at', { useTz: true }).nullable();
    t.timestamp('start_at', { useTz: true }).nullable();
    t.timestamp('end_at', { useTz: true }).nullable();
    // The user's HogQL text (the source of truth) and the columns derived from it; null for the model's defaults.
    t.text('hogql_query').nullable();
    t.jsonb('schema').nullable();
    t.jsonb('filters').nullable();
    t.integer('created_by').nullable().references('users.id').onDelete('SET NULL');
    t.index(['team_id', 'deleted', 'created_at']);
  });

  await db.schema.createTable('batch_export_backfills', (t) => {
    t.uuid('id').primary();
    t.uuid('batch_export_id').notNullable().references('batch_exports.id').onDelete('CASCADE');
    t.integer('team_id').notNullable().references('environments.id').onDelete('CASCADE');
    t.timestamp('start_at', { useTz: true }).nullable();
    t.timestamp('end_at', { useTz: true }).nullable();
    // start_at moved forward to the earliest data, aligned to the interval.
    t.timestamp('adjusted_start_at', { useTz: true }).nullable();
    t.string('status', 32).notNullable().defaultTo('Starting');
    t.bigInteger('total_records_count').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('finished_at', { useTz: true }).nullable();
    t.timestamp('last_updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['batch_export_id', 'created_at']);
  });

  await db.schema.createTable('batch_export_runs', (t) => {
    t.uuid('id').primary();
    t.uuid('batch_export_id').notNullable().references('batch_exports.id').onDelete('CASCADE');
    t.uuid('backfill_id').nullable().references('batch_export_backfills.id').onDelete('SET NULL');
    t.string('status', 32).notNullable().defaultTo('Starting');
    t.timestamp('data_interval_start', { useTz: true }).nullable();
    t.timestamp('data_interval_end', { useTz: true }).notNullable();
    t.bigInteger('records_completed').nullable();
    t.bigInteger('records_failed').nullable();
    t.bigInteger('records_total_count').nullable();
    t.bigInteger('bytes_exported').nullable();
    t.text('latest_error').nullable();
    // How far the run got (the last exported _inserted_at), so that a retry can resume.
    t.text('cursor').nullable();
    // How many times a worker has started this run, and the job that runs it now.
    t.integer('attempts').notNullable().defaultTo(0);
    t.uuid('job_id').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('finished_at', { useTz: true }).nullable();
    t.timestamp('last_updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.unique(['batch_export_id', 'data_interval_end'], { indexName: 'batch_export_runs_one_per_interval' });
    t.index(['batch_export_id', 'created_at']);
    t.index(['backfill_id']);
    t.check(
      "status in ('Cancelled', 'Completed', 'ContinuedAsNew', 'Failed', 'FailedRetryable', 'FailedBilling', 'Terminated', 'TimedOut', 'Running', 'Starting')",
      [],
      'batch_export_runs_status_check',
    );
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('batch_export_runs');
  await db.schema.dropTable('batch_export_backfills');
  await db.schema.dropTable('batch_exports');
}
