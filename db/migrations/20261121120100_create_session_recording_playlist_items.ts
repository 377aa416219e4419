import type { Knex } from 'knex';

// The session recordings pinned to a playlist, by session id (recordings themselves are not stored). A
// recording is pinned at most once per playlist; unpinning deletes the row.
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('session_recording_playlist_items', (t) => {
    t.bigIncrements('id').primary();
    t.integer('playlist_id').notNullable().references('session_recording_playlists.id').onDelete('CASCADE');
    t.string('session_id', 200).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.unique(['playlist_id', 'session_id']);
    t.index(['playlist_id', 'created_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('session_recording_playlist_items');
}
