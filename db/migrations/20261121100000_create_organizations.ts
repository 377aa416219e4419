import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('organizations', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.string('name', 64).notNullable();
    t.string('slug', 48).notNullable().unique();
    t.uuid('logo_media_id').nullable();
    // Self-hosted organizations get root plugin access (9), as PostHog gives them.
    t.smallint('plugins_access_level').notNullable().defaultTo(9);
    t.boolean('is_member_join_email_enabled').notNullable().defaultTo(true);
    t.boolean('enforce_2fa').nullable();
    t.boolean('members_can_invite').notNullable().defaultTo(true);
    t.boolean('is_ai_data_processing_approved').nullable();
    t.string('default_experiment_stats_method', 16).notNullable().defaultTo('bayesian');
    t.string('customer_id', 200).nullable();
    t.jsonb('available_product_features').notNullable().defaultTo('[]');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
  await db.raw(`alter table organizations add constraint organizations_stats_method_check
    check (default_experiment_stats_method in ('bayesian', 'frequentist'))`);
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('organizations');
}
