import type { Knex } from 'knex';

// Batch exports read records by when they changed. The persons model exports the persons and distinct-id
// mappings that changed in a window, so both tables learn when they last changed, and a mapping how often it
// moved (PostHog's person_distinct_id_version, which decides which of two exported rows of a distinct id is newer).
//
// Triggers keep the columns, so that capture's statements (db/queries/ingestion.ts) and anything else that
// writes persons need not know of them: an update that changes a person stamps it, and a distinct id that
// moves to another person (a merge) is stamped and its version counted up. Rows already stored count as
// changed when their person was created.
//
// Scheduled exports read events by inserted_at. A BRIN index serves those windows: events are appended in about
// inserted_at order, and a BRIN index costs capture next to nothing to keep, where a btree would cost every insert.
export async function up(db: Knex): Promise<void> {
  await db.raw('create index events_inserted_at_brin on events using brin (inserted_at)');
  await db.raw('alter table persons add column updated_at timestamptz not null default now()');
  await db.raw('update persons set updated_at = created_at');
  await db.raw('alter table person_distinct_ids add column version integer not null default 0');
  await db.raw('alter table person_distinct_ids add column updated_at timestamptz not null default now()');
  await db.raw('update person_distinct_ids d set updated_at = p.created_at from persons p where p.id = d.person_id');
  await db.raw('create index persons_team_updated_at on persons (team_id, updated_at)');
  await db.raw('create index person_distinct_ids_team_updated_at on person_distinct_ids (team_id, updated_at)');

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

export async function down(db: Knex): Promise<void> {
  await db.raw('drop trigger person_distinct_ids_stamp_move on person_distinct_ids');
  await db.raw('drop function stamp_distinct_id_move()');
  await db.raw('drop trigger persons_stamp_change on persons');
  await db.raw('drop function stamp_person_change()');
  await db.raw('drop index person_distinct_ids_team_updated_at');
  await db.raw('drop index persons_team_updated_at');
  await db.raw('alter table person_distinct_ids drop column updated_at');
  await db.raw('alter table person_distinct_ids drop column version');
  await db.raw('alter table persons drop column updated_at');
  await db.raw('drop index events_inserted_at_brin');
}
