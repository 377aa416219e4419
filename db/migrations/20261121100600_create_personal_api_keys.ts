import type { Knex } from 'knex';

// Personal API keys (`phx_…`) are stored only as "sha256$<hex>" of the key; the key itself is shown once.
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('personal_api_keys', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE').index();
    t.string('label', 40).notNullable();
    t.string('secure_value', 80).notNullable().unique();
    t.string('mask_value', 16).notNullable();
    t.specificType('scopes', 'text[]').notNullable();
    // Null means "every organization / project the user can reach".
    t.specificType('scoped_organizations', 'uuid[]').nullable();
    t.specificType('scoped_teams', 'integer[]').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('last_used_at', { useTz: true }).nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('personal_api_keys');
}
