import type { Knex } from 'knex';
import { colocateFunctions } from '../pg/citus.js';

// On a Citus cluster, capture's quick path stores a batch of one environment (what an SDK sends) through
// capture_store_events, a function that does what the quick statement does (db/queries/ingestion.ts,
// QUICK_INSERT): the environment's checks, its persons' properties read, the insert. It is distributed by its
// environment, colocated with events, so that the coordinator hands the whole call to the node holding the
// environment's shards, where everything it reads and writes is local: one exchange between the nodes and no
// two-phase commit, where the quick statement makes the coordinator read the epoch and the persons from the
// node, copy the rows back to it and insert them there. Plain PostgreSQL keeps the quick statement (the call
// measured slower there); the function exists on both, so that a database distributed later has it.
//
// The capture lock therefore has to live on that node too: capture_check_environments takes it in a statement
// that names the environment's row of capture_person_epochs, which Citus runs on the environment's node (on
// plain PostgreSQL, the same lock as before), and the full path takes its exclusive lock the same way.
//
// Events already stored are left out by NOT EXISTS rather than ON CONFLICT, and the stored ones counted by the
// insert's row count rather than RETURNING: on Citus either clause makes the insert write its rows to an
// intermediate result and read them back, where without them they are copied into the shard. An event that
// another transaction stores meanwhile fails the call with a unique violation (capture then takes its full
// path), and capture calls it only for batches without a uuid twice.
const CHECK_ENVIRONMENTS = (lock: string) => `
    create or replace function capture_check_environments(lock_class integer, environment_ids integer[], expected_epochs bigint[])
    returns boolean
    language plpgsql as $$
    begin
      for i in 1 .. coalesce(array_length(environment_ids, 1), 0) loop
        ${lock}
        call capture_require_environment(environment_ids[i]);
        if coalesce((select epoch from capture_person_epochs where team_id = environment_ids[i]), 0) <> expected_epochs[i] then
          raise exception 'the persons of environment % changed', environment_ids[i] using errcode = 'HX001';
        end if;
      end loop;
      return true;
    end
    $$`;

export async function up(db: Knex): Promise<void> {
  await db.raw(
    CHECK_ENVIRONMENTS(`perform pg_advisory_xact_lock_shared(lock_class, environment_ids[i])
          from (select count(*) from capture_person_epochs where team_id = environment_ids[i]) as environment_node;`),
  );
  await db.raw(`
    create function capture_store_events(
      environment_id integer, lock_class integer, expected_epoch bigint,
      uuids uuid[], event_names text[], distinct_ids text[], event_properties jsonb[], timestamps timestamptz[],
      elements_chains text[], person_ids uuid[], event_person_properties jsonb[],
      groups_0 text[], groups_1 text[], groups_2 text[], groups_3 text[], groups_4 text[], historical_migrations boolean[])
    returns integer
    language plpgsql as $$
    declare
      stored integer;
    begin
      perform capture_check_environments(lock_class, array[environment_id], array[expected_epoch]);
      insert into events (team_id, uuid, event, distinct_id, properties, "timestamp", elements_chain, person_id,
                          person_properties, group_0, group_1, group_2, group_3, group_4, historical_migration)
      select environment_id, u.uuid, u.event, u.distinct_id, u.properties, u.at, u.elements_chain, u.person_id,
             coalesce(u.person_properties, p.properties), u.group_0, u.group_1, u.group_2, u.group_3, u.group_4,
             u.historical_migration
        from unnest(uuids, event_names, distinct_ids, event_properties, timestamps, elements_chains, person_ids,
                    event_person_properties, groups_0, groups_1, groups_2, groups_3, groups_4, historical_migrations)
               as u(uuid, event, distinct_id, properties, at, elements_chain, person_id, person_properties,
                    group_0, group_1, group_2, group_3, group_4, historical_migration)
        left join (select p.uuid, p.properties from persons p where p.team_id = environment_id and p.uuid = any(person_ids)) as p
               on p.uuid = u.person_id
       where not exists (select 1 from events e where e.team_id = environment_id and e.uuid = u.uuid);
      get diagnostics stored = row_count;
      return stored;
    end
    $$`);
  await colocateFunctions(db);
}

export async function down(db: Knex): Promise<void> {
  await db.raw(
    'drop function capture_store_events(integer, integer, bigint, uuid[], text[], text[], jsonb[], timestamptz[], text[], uuid[], jsonb[], text[], text[], text[], text[], text[], boolean[])',
  );
  await db.raw(CHECK_ENVIRONMENTS('perform pg_advisory_xact_lock_shared(lock_class, environment_ids[i]);'));
}
