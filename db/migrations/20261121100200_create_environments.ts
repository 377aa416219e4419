import type { Knex } from 'knex';

// Environments are PostHog's teams: the `project_id` of /api/environments/<project_id>/ paths, and what every
// stored event, person and playlist belongs to (through a `team_id` column).
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('environments', (t) => {
    t.increments('id').primary();
    t.uuid('uuid').notNullable().unique().defaultTo(db.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE').index();
    t.integer('project_id').notNullable().references('projects.id').onDelete('CASCADE').index();
    t.string('name', 200).notNullable();
    t.string('timezone', 240).notNullable().defaultTo('UTC');
    t.boolean('is_demo').notNullable().defaultTo(false);
    t.boolean('ingested_event').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('environments');
}
