import type { Knex } from 'knex';

// Events that capture accepted (200) but did not ingest, with the reason, per environment.
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('ingestion_warnings', (t) => {
    t.bigIncrements('id').primary();
    t.integer('team_id').notNullable().references('environments.id').onDelete('CASCADE');
    t.text('type').notNullable();
    t.jsonb('details').notNullable().defaultTo('{}');
    t.timestamp('timestamp', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['team_id', 'timestamp']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('ingestion_warnings');
}
