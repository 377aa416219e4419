import type { Knex } from 'knex';

// Captured events. (team_id, uuid) is the key, so a retried event (same uuid) is never stored twice.
// The listing index serves "newest first" pages with a (timestamp, uuid) keyset for one environment.
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('events', (t) => {
    t.integer('team_id').notNullable().references('environments.id').onDelete('CASCADE');
    t.uuid('uuid').notNullable();
    t.text('event').notNullable();
    t.text('distinct_id').notNullable();
    t.jsonb('properties').notNullable().defaultTo('{}');
    t.timestamp('timestamp', { useTz: true }).notNullable();
    t.text('elements_chain').notNullable().defaultTo('');
    // The person the distinct id belonged to when the event was ingested (null when personless).
    t.uuid('person_id').nullable();
    // Group keys of the event's $groups, by group type index 0-4 (as PostHog's $group_0 … $group_4).
    for (let index = 0; index < 5; index += 1) t.text(`group_${index}`).nullable();
    t.boolean('historical_migration').notNullable().defaultTo(false);
    // When Hedgerow stored it (PostHog's _inserted_at).
    t.timestamp('inserted_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.primary(['team_id', 'uuid']);
  });
  await db.raw('create index events_team_timestamp_uuid on events (team_id, "timestamp" desc, uuid desc)');
  await db.raw('create index events_team_event_timestamp on events (team_id, event, "timestamp" desc)');
  await db.raw('create index events_team_distinct_id_timestamp on events (team_id, distinct_id, "timestamp" desc)');
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('events');
}
