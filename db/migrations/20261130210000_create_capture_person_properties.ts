import type { Knex } from 'knex';

// Capture's quick statement (db/queries/ingestion.ts, QUICK_INSERT) reads the properties of the persons of its
// events in the statement that checks the environments. Through a function, its statement names no distributed
// table, so Citus runs it on the coordinator, where the checks must take their locks; the function's own query
// goes to the nodes of the environments. A function PostgreSQL cannot inline (PL/pgSQL) keeps it that way. Its
// estimate of one row makes the planner hash its rows, not the events', so the events go in in their order.
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    create function capture_person_properties(team_ids integer[], person_uuids uuid[])
    returns table (team_id integer, uuid uuid, properties jsonb)
    language plpgsql stable rows 1 as $$
    #variable_conflict use_column
    begin
      return query select p.team_id, p.uuid, p.properties from persons p
                    where p.team_id = any(team_ids) and p.uuid = any(person_uuids);
    end
    $$`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('drop function capture_person_properties(integer[], uuid[])');
}
