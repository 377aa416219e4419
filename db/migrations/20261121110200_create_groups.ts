import type { Knex } from 'knex';

// Group analytics: each project names up to five group types (index 0-4) and keeps the groups' properties.
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('group_type_mappings', (t) => {
    t.integer('team_id').notNullable().references('environments.id').onDelete('CASCADE');
    t.text('group_type').notNullable();
    t.smallint('group_type_index').notNullable();
    t.primary(['team_id', 'group_type']);
    t.unique(['team_id', 'group_type_index']);
  });
  await db.raw(`alter table group_type_mappings add constraint group_type_mappings_index_check
    check (group_type_index between 0 and 4)`);
  await db.schema.createTable('groups', (t) => {
    t.integer('team_id').notNullable().references('environments.id').onDelete('CASCADE');
    t.smallint('group_type_index').notNullable();
    t.text('group_key').notNullable();
    t.jsonb('group_properties').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.primary(['team_id', 'group_type_index', 'group_key']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('groups');
  await db.schema.dropTable('group_type_mappings');
}
