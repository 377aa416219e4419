import type { Knex } from 'knex';

// Session recording playlists of an environment: hand-picked collections or saved searches (`type`), addressed
// by a short id unique within the environment. Deleting is soft (`deleted`); deleting the environment (or its
// organization) takes its playlists along, and the environment rollback re-points `team_id`.
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('session_recording_playlists', (t) => {
    t.increments('id').primary();
    t.integer('team_id').notNullable().references('environments.id').onDelete('CASCADE');
    t.string('short_id', 12).notNullable();
    t.string('name', 400).nullable();
    t.string('derived_name', 400).nullable();
    t.text('description').notNullable().defaultTo('');
    t.boolean('pinned').notNullable().defaultTo(false);
    t.boolean('deleted').notNullable().defaultTo(false);
    // Any JSON value; a JSON null is stored as the jsonb value `null`, never as SQL NULL.
    t.jsonb('filters').notNullable().defaultTo('{}');
    t.string('type', 50).notNullable();
    // The folder the creator asked to file the playlist in; write-only in the API.
    t.text('create_in_folder').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.integer('created_by').nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('last_modified_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.integer('last_modified_by').nullable().references('users.id').onDelete('SET NULL');
    t.unique(['team_id', 'short_id']);
    t.index(['team_id', 'deleted', 'last_modified_at']);
    t.check("type in ('collection', 'filters')", [], 'session_recording_playlists_type_check');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('session_recording_playlists');
}
