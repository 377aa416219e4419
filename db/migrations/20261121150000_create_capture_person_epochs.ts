import type { Knex } from 'knex';

// Capture remembers which person each distinct id belongs to, so that a batch of events of known users is
// stored with one COPY and no lookup. Such a memory goes stale only when a distinct id moves to another person
// (a merge). Each merge bumps its environment's epoch here, and a batch that relied on the memory checks the
// epoch it knew, under the environment's capture lock, in the same transaction: a mismatch aborts the batch
// (SQLSTATE HX001) and capture stores it again after looking the persons up. Anything else that ever moves or
// deletes a distinct id must bump the epoch too.
//
// Such a batch changes no person, so it takes the environment's capture lock in shared mode: batches of known
// users run side by side, while a batch that changes persons (exclusive mode) runs alone. The check is a
// procedure because CALL returns no rows: it can run in the same message as the COPY.
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('capture_person_epochs', (t) => {
    t.integer('team_id').primary().references('environments.id').onDelete('CASCADE');
    t.bigInteger('epoch').notNullable().defaultTo(0);
  });
  await db.raw(`
    create procedure capture_lock_environment(lock_class integer, environment_id integer, expected_epoch bigint)
    language plpgsql as $$
    begin
      perform pg_advisory_xact_lock_shared(lock_class, environment_id);
      if coalesce((select epoch from capture_person_epochs where team_id = environment_id), 0) <> expected_epoch then
        raise exception 'the persons of environment % changed', environment_id using errcode = 'HX001';
      end if;
    end
    $$`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('drop procedure capture_lock_environment(integer, integer, bigint)');
  await db.schema.dropTable('capture_person_epochs');
}
