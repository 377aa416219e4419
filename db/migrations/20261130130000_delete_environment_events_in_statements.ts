import type { Knex } from 'knex';

// Events have no foreign key to their environment (the check_event_environments_per_batch migration), and a
// trigger on environments deleted them with it. environments is a reference table of a distributed PostgreSQL
// (db/pg/distribution.ts), where a row trigger that writes a sharded table is not allowed, so the statements that
// delete environments, directly or through the cascade from organizations and projects, delete their events
// themselves (db/queries/organizations.ts).
export async function up(db: Knex): Promise<void> {
  await db.raw('drop trigger environments_delete_events on environments');
  await db.raw('drop function delete_environment_events()');
}

export async function down(db: Knex): Promise<void> {
  // Events of environments deleted while there was no trigger went with them already.
  await db.raw(`
    create function delete_environment_events() returns trigger
    language plpgsql as $$
    begin
      delete from events where team_id = old.id;
      return null;
    end
    $$`);
  await db.raw(`
    create trigger environments_delete_events after delete on environments
    for each row execute function delete_environment_events()`);
}
