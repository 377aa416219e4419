import type { Knex } from 'knex';

// Every tenant table carries the environment it belongs to (db/pg/distribution.ts), so that a distributed
// PostgreSQL can shard it by team_id and keep each row beside its parent. The pinned recordings of a playlist and
// the runs of a batch export knew theirs only through the parent row; they now carry it, copied from the parent.
// Like every other tenant table's, the column points at its environment, which also lets rollbackEnvironments
// (which moves every column pointing at environments) move these rows with their parents.
const CHILDREN = [
  { table: 'session_recording_playlist_items', parent: 'session_recording_playlists', parentKey: 'playlist_id' },
  { table: 'batch_export_runs', parent: 'batch_exports', parentKey: 'batch_export_id' },
] as const;

export async function up(db: Knex): Promise<void> {
  for (const { table, parent, parentKey } of CHILDREN) {
    await db.raw(`alter table ${table} add column team_id integer`);
    await db.raw(`update ${table} c set team_id = p.team_id from ${parent} p where p.id = c.${parentKey}`);
    await db.raw(`alter table ${table} alter column team_id set not null`);
    await db.raw(
      `alter table ${table} add constraint ${table}_team_id_foreign
         foreign key (team_id) references environments (id) on delete cascade`,
    );
  }
}

export async function down(db: Knex): Promise<void> {
  for (const { table } of [...CHILDREN].reverse()) {
    await db.raw(`alter table ${table} drop column team_id`);
  }
}
