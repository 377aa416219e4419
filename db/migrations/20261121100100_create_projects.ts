import type { Knex } from 'knex';

// A project's id is the id of its first environment (as in PostHog), so it has no sequence of its own.
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('projects', (t) => {
    t.integer('id').primary();
    t.uuid('uuid').notNullable().unique().defaultTo(db.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE').index();
    t.string('name', 200).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('projects');
}
