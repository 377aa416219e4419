import type { Knex } from 'knex';

// The event listing pages by the keyset (timestamp, uuid). Filtered by event name or distinct id, it needs the
// uuid in those indexes too, or every page sorts the rows that share a timestamp. The wider indexes replace the
// narrower ones of 20261121110000_create_events (they serve every query those did), so capture does not pay
// for both.
export async function up(db: Knex): Promise<void> {
  await db.raw('create index events_team_event_timestamp_uuid on events (team_id, event, "timestamp" desc, uuid desc)');
  await db.raw('drop index events_team_event_timestamp');
  await db.raw(
    'create index events_team_distinct_id_timestamp_uuid on events (team_id, distinct_id, "timestamp" desc, uuid desc)',
  );
  await db.raw('drop index events_team_distinct_id_timestamp');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('create index events_team_event_timestamp on events (team_id, event, "timestamp" desc)');
  await db.raw('drop index events_team_event_timestamp_uuid');
  await db.raw('create index events_team_distinct_id_timestamp on events (team_id, distinct_id, "timestamp" desc)');
  await db.raw('drop index events_team_distinct_id_timestamp_uuid');
}
