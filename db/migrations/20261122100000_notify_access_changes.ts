import type { Knex } from 'knex';

// The API remembers who a personal API key is and what it may reach (db/queries/access-cache.ts). Any change to the
// tables that decide it notifies channel hedgerow_access, whoever makes it, and the cache is emptied. Triggers
// are per statement (a change of many rows is one notification; PostgreSQL also folds a transaction's equal
// notifications into one). A key's last_used_at, which the API itself refreshes, decides nothing: updates of it
// alone do not notify. (Replaced by 20261130090000_notify_access_from_statements: the writers notify themselves.)
const TABLES = ['users', 'organizations', 'organization_memberships', 'environments'];
const KEY_COLUMNS = ['user_id', 'secure_value', 'scopes', 'scoped_organizations', 'scoped_teams'];

export async function up(db: Knex): Promise<void> {
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

export async function down(db: Knex): Promise<void> {
  await db.raw('drop trigger personal_api_keys_notify_access_update on personal_api_keys');
  await db.raw('drop trigger personal_api_keys_notify_access on personal_api_keys');
  for (const table of TABLES) await db.raw(`drop trigger ${table}_notify_access on ${table}`);
  await db.raw('drop function notify_access_change()');
}
