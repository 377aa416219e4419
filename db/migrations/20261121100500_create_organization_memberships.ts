import type { Knex } from 'knex';

// Levels as PostHog numbers them: member 1, administrator 8, owner 15.
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('organization_memberships', (t) => {
    t.increments('id').primary();
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE').index();
    t.smallint('level').notNullable().defaultTo(1);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.unique(['organization_id', 'user_id']);
  });
  await db.raw(`alter table organization_memberships add constraint organization_memberships_level_check
    check (level in (1, 8, 15))`);
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('organization_memberships');
}
