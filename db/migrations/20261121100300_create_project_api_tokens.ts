import type { Knex } from 'knex';

// The public project API key (`phc_…`) that capture requests carry, one per environment. It is not a secret
// (it ships in web pages), so it is stored as is and looked up directly.
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('environments', (t) => {
    t.string('api_token', 64).nullable().unique();
  });
  await db.raw(`update environments set api_token = 'phc_' || replace(gen_random_uuid()::text, '-', '')`);
  await db.raw('alter table environments alter column api_token set not null');
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('environments', (t) => {
    t.dropColumn('api_token');
  });
}
