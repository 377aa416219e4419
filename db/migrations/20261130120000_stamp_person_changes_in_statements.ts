import type { Knex } from 'knex';

// A distributed PostgreSQL (Citus) refuses to shard a table that has triggers, so persons and
// person_distinct_ids lose the triggers that stamped their changes (the prepare_batch_export_records migration).
// Every statement that changes a person's properties, is_identified or version now sets updated_at itself, and
// every statement that moves a distinct id to another person counts its version up and sets its updated_at
// (db/queries/ingestion.ts, applyPersonPlan).
export async function up(db: Knex): Promise<void> {
  await db.raw('drop trigger person_distinct_ids_stamp_move on person_distinct_ids');
  await db.raw('drop function stamp_distinct_id_move()');
  await db.raw('drop trigger persons_stamp_change on persons');
  await db.raw('drop function stamp_person_change()');
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`
    create function stamp_person_change() returns trigger language plpgsql as $$
    begin
      new.updated_at := now();
      return new;
    end
    $$`);
  await db.raw(`
    create trigger persons_stamp_change before update on persons
      for each row when (old.properties is distinct from new.properties
                         or old.is_identified is distinct from new.is_identified
                         or old.version is distinct from new.version)
      execute function stamp_person_change()`);
  await db.raw(`
    create function stamp_distinct_id_move() returns trigger language plpgsql as $$
    begin
      new.version := old.version + 1;
      new.updated_at := now();
      return new;
    end
    $$`);
  await db.raw(`
    create trigger person_distinct_ids_stamp_move before update on person_distinct_ids
      for each row when (old.person_id is distinct from new.person_id)
      execute function stamp_distinct_id_move()`);
}
