import type { Knex } from 'knex';

// events.team_id had a foreign key to environments: PostgreSQL checked it for every row, one lookup and one row
// lock per captured event, measured at about a fifth of the database's time per event under single-event load.
// Capture already locks each environment once per batch (capture_lock_environment, or startBatch's exclusive
// lock), so the check moves there: the environment row is locked FOR KEY SHARE until the batch commits, as the
// foreign key did, and a batch for an environment that no longer exists fails with SQLSTATE HX002 (capture
// answers that the project API key is invalid). An environment's events go with it through a trigger, as the
// cascade did. Whatever moves events between environments names the events table itself
// (db/queries/organizations.ts, rollbackEnvironments), since it is no longer found among the foreign keys.
export async function up(db: Knex): Promise<void> {
  await db.raw('alter table events drop constraint events_team_id_foreign');
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
  await db.raw(`
    create procedure capture_require_environment(environment_id integer)
    language plpgsql as $$
    begin
      perform 1 from environments where id = environment_id for key share;
      if not found then
        raise exception 'environment % does not exist', environment_id using errcode = 'HX002';
      end if;
    end
    $$`);
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
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`
    create or replace procedure capture_lock_environment(lock_class integer, environment_id integer, expected_epoch bigint)
    language plpgsql as $$
    begin
      perform pg_advisory_xact_lock_shared(lock_class, environment_id);
      if coalesce((select epoch from capture_person_epochs where team_id = environment_id), 0) <> expected_epoch then
        raise exception 'the persons of environment % changed', environment_id using errcode = 'HX001';
      end if;
    end
    $$`);
  await db.raw('drop procedure capture_require_environment(integer)');
  await db.raw('drop trigger environments_delete_events on environments');
  await db.raw('drop function delete_environment_events()');
  // Rows of environments deleted meanwhile would fail the key; the cascade would have removed them.
  await db.raw('delete from events e where not exists (select 1 from environments v where v.id = e.team_id)');
  await db.raw(`
    alter table events add constraint events_team_id_foreign
    foreign key (team_id) references environments (id) on delete cascade`);
}
