import type { Knex } from 'knex';

// A distributed PostgreSQL (Citus) enforces a primary key or a unique constraint of a sharded table only when it
// includes the distribution column, and a foreign key between two sharded tables only when it maps that column
// to itself (db/pg/distribution.ts; test/integration/distribution-catalogue.test.ts holds the schema to it).
//
// Every key of a tenant table that lacked team_id gets it, appended last: ids and uuids stay unique on their own
// (their sequences and defaults are unchanged), so a lookup by id alone still finds its row through the key's
// index. The foreign keys between tenant tables become (team_id, …) pairs.
const KEYS = [
  { table: 'persons', constraint: 'persons_pkey', kind: 'primary key', columns: ['id'] },
  { table: 'persons', constraint: 'persons_uuid_unique', kind: 'unique', columns: ['uuid'] },
  { table: 'ingestion_warnings', constraint: 'ingestion_warnings_pkey', kind: 'primary key', columns: ['id'] },
  { table: 'session_recording_playlists', constraint: 'session_recording_playlists_pkey', kind: 'primary key', columns: ['id'] },
  { table: 'session_recording_playlist_items', constraint: 'session_recording_playlist_items_pkey', kind: 'primary key', columns: ['id'] },
  {
    table: 'session_recording_playlist_items',
    constraint: 'session_recording_playlist_items_playlist_id_session_id_unique',
    kind: 'unique',
    columns: ['playlist_id', 'session_id'],
  },
  { table: 'batch_exports', constraint: 'batch_exports_pkey', kind: 'primary key', columns: ['id'] },
  { table: 'batch_export_backfills', constraint: 'batch_export_backfills_pkey', kind: 'primary key', columns: ['id'] },
  { table: 'batch_export_runs', constraint: 'batch_export_runs_pkey', kind: 'primary key', columns: ['id'] },
  {
    table: 'batch_export_runs',
    constraint: 'batch_export_runs_one_per_interval',
    kind: 'unique',
    columns: ['batch_export_id', 'data_interval_end'],
  },
] as const;

interface ForeignKey {
  table: string;
  constraint: string;
  column: string;
  parent: string;
  onDelete: string;
  /** The action of the composite key, where it differs from the single-column one's. */
  compositeOnDelete?: string;
}

const FOREIGN_KEYS: readonly ForeignKey[] = [
  { table: 'person_distinct_ids', constraint: 'person_distinct_ids_person_id_foreign', column: 'person_id', parent: 'persons', onDelete: 'cascade' },
  {
    table: 'session_recording_playlist_items',
    constraint: 'session_recording_playlist_items_playlist_id_foreign',
    column: 'playlist_id',
    parent: 'session_recording_playlists',
    onDelete: 'cascade',
  },
  {
    table: 'batch_export_backfills',
    constraint: 'batch_export_backfills_batch_export_id_foreign',
    column: 'batch_export_id',
    parent: 'batch_exports',
    onDelete: 'cascade',
  },
  {
    table: 'batch_export_runs',
    constraint: 'batch_export_runs_batch_export_id_foreign',
    column: 'batch_export_id',
    parent: 'batch_exports',
    onDelete: 'cascade',
  },
  {
    // A backfill goes only with its export, whose runs go too: cascading says the same, and Citus accepts it
    // where it refuses to set one column of a key that holds the distribution column to null.
    table: 'batch_export_runs',
    constraint: 'batch_export_runs_backfill_id_foreign',
    column: 'backfill_id',
    parent: 'batch_export_backfills',
    onDelete: 'set null',
    compositeOnDelete: 'cascade',
  },
];

export async function up(db: Knex): Promise<void> {
  for (const key of FOREIGN_KEYS) await db.raw(`alter table ${key.table} drop constraint ${key.constraint}`);
  for (const key of KEYS) {
    await db.raw(`alter table ${key.table} drop constraint ${key.constraint}`);
    await db.raw(`alter table ${key.table} add constraint ${key.constraint} ${key.kind} (${[...key.columns, 'team_id'].join(', ')})`);
  }
  for (const key of FOREIGN_KEYS) {
    await db.raw(
      `alter table ${key.table} add constraint ${key.constraint}
         foreign key (team_id, ${key.column}) references ${key.parent} (team_id, id)
         on delete ${key.compositeOnDelete ?? key.onDelete}`,
    );
  }
}

export async function down(db: Knex): Promise<void> {
  for (const key of FOREIGN_KEYS) await db.raw(`alter table ${key.table} drop constraint ${key.constraint}`);
  for (const key of KEYS) {
    await db.raw(`alter table ${key.table} drop constraint ${key.constraint}`);
    await db.raw(`alter table ${key.table} add constraint ${key.constraint} ${key.kind} (${key.columns.join(', ')})`);
  }
  for (const key of FOREIGN_KEYS) {
    await db.raw(
      `alter table ${key.table} add constraint ${key.constraint}
         foreign key (${key.column}) references ${key.parent} (id) on delete ${key.onDelete}`,
    );
  }
}
