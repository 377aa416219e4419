import type { Knex } from 'knex';

// Access changes are now announced by the statements that make them (db/queries/access-changes.ts), in the
// writer's own transaction: on Citus these tables are reference tables, which may carry no triggers, and a
// NOTIFY sent from a trigger on a shard makes the two-phase commit fail. Down puts the triggers back as
// 20261122100000_notify_access_changes made them.
const TABLES = ['users', 'organizations', 'organization_memberships', 'environments'];
const KEY_COLUMNS = ['user_id', 'secure_value', 'scopes', 'scoped_organizations', 'scoped_teams'];

export async function up(db: Knex): Promise<void> {
  await db.raw('drop trigger personal_api_keys_notify_access_update on personal_api_keys');
  await db.raw('drop trigger personal_api_keys_notify_access on personal_api_keys');
  for (const table of TABLES) await db.raw(`drop trigger ${table}_notify_access on ${table}`);
  await db.raw('drop function notify_access_change()');
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`
    create function notify_access_change() returns trigger
    language plpgsql as $$
    begin
      perform pg_notify('hedgerow_access', tg_table_name);
      return null;
    end
    $$`);
  for (const table of TABLES) {
    await db.raw(`create trigger ${table}_notify_access after insert or update or delete or truncate on ${table}
      for each statement execute function notify_access_change()`);
  }
  await db.raw(`create trigger personal_api_keys_notify_access after insert or delete or truncate on personal_api_keys
    for each statement execute function notify_access_change()`);
  await db.raw(`create trigger personal_api_keys_notify_access_update after update of ${KEY_COLUMNS.join(', ')} on personal_api_keys
    for each statement execute function notify_access_change()`);
}
