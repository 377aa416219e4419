import type { Knex } from 'knex';

// The person's properties as they were once the event was processed (after its own $set, $set_once and $unset),
// as PostHog stores them on each event at ingestion: HogQL's `poe.properties` and the batch exports'
// `person_properties` read them. Null for an event without a person. Events stored before this column get their
// person's properties of today, the nearest to "at capture" that is still known.
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('events', (t) => {
    t.jsonb('person_properties').nullable();
  });
  await db.raw(`update events e set person_properties = p.properties
                  from persons p where p.uuid = e.person_id and p.team_id = e.team_id`);
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('events', (t) => {
    t.dropColumn('person_properties');
  });
}
