import type { Knex } from 'knex';

// Persons and the distinct ids that point at them. A merge ($create_alias of two known ids) moves every
// distinct id of one person to the other and deletes the emptied person.
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('persons', (t) => {
    t.bigIncrements('id').primary();
    t.uuid('uuid').notNullable().unique().defaultTo(db.raw('gen_random_uuid()'));
    t.integer('team_id').notNullable().references('environments.id').onDelete('CASCADE').index();
    t.jsonb('properties').notNullable().defaultTo('{}');
    t.boolean('is_identified').notNullable().defaultTo(false);
    t.integer('version').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
  await db.schema.createTable('person_distinct_ids', (t) => {
    t.integer('team_id').notNullable().references('environments.id').onDelete('CASCADE');
    t.text('distinct_id').notNullable();
    t.bigInteger('person_id').notNullable().references('persons.id').onDelete('CASCADE').index();
    t.primary(['team_id', 'distinct_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('person_distinct_ids');
  await db.schema.dropTable('persons');
}
