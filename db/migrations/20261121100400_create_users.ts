import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('users', (t) => {
    t.increments('id').primary();
    t.uuid('uuid').notNullable().unique().defaultTo(db.raw('gen_random_uuid()'));
    t.string('distinct_id', 200).notNullable().unique().defaultTo(db.raw('gen_random_uuid()::text'));
    t.string('first_name', 150).notNullable().defaultTo('');
    t.string('last_name', 150).notNullable().defaultTo('');
    // Stored lower-cased so that uniqueness is case-insensitive.
    t.string('email', 254).notNullable().unique();
    t.boolean('is_email_verified').nullable();
    t.jsonb('hedgehog_config').nullable();
    t.string('role_at_organization', 64).nullable();
    t.boolean('is_active').notNullable().defaultTo(true);
    t.uuid('current_organization_id').nullable().references('organizations.id').onDelete('SET NULL');
    t.integer('current_team_id').nullable().references('environments.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('users');
}
