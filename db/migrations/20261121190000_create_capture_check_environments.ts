import type { Knex } from 'knex';

// The quick path's usual batch is now one prepared INSERT that is its own transaction (db/queries/ingestion.ts,
// finishBatch): its environment checks must run inside that statement, so they become a function (a procedure
// cannot be called from a query). It takes the environments sorted, as the capture lock is always taken in that
// order, and does for each what capture_lock_environment did, which now calls it.
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    create function capture_check_environments(lock_class integer, environment_ids integer[], expected_epochs bigint[])
    returns boolean
    language plpgsql as $$
    begin
      for i in 1 .. coalesce(array_length(environment_ids, 1), 0) loop
        perform pg_advisory_xact_lock_shared(lock_class, environment_ids[i]);
        call capture_require_environment(environment_ids[i]);
        if coalesce((select epoch from capture_person_epochs where team_id = environment_ids[i]), 0) <> expected_epochs[i] then
          raise exception 'the persons of environment % changed', environment_ids[i] using errcode = 'HX001';
        end if;
      end loop;
      return true;
    end
    $$`);
  await db.raw(`
    create or replace procedure capture_lock_environment(lock_class integer, environment_id integer, expected_epoch bigint)
    language plpgsql as $$
    begin
      perform capture_check_environments(lock_class, array[environment_id], array[expected_epoch]);
    end
    $$`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`
    create or replace procedure capture_lock_environment(lock_class integer, environment_id integer, expected_epoch bigint)
    language plpgsql as $$
    begin
      perform pg_advisory_xact_lock_shared(lock_class, environment_id);
      call capture_require_environment(environment_id);
      if coalesce((select epoch from capture_person_epochs where team_id = environment_id), 0) <> expected_epoch then
        raise exception 'the persons of environment % changed', environment_id using errcode = 'HX001';
      end if;
    end
    $$`);
  await db.raw('drop function capture_check_environments(integer, integer[], bigint[])');
}
