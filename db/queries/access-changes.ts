/**
 * The announcement that something deciding access changed, which empties every process's access cache
 * (db/queries/access-cache.ts). Each write that changes a key, a user, a membership, an environment or an
 * organization sends it in its own transaction, so it is delivered when the change is committed and never for
 * one that was rolled back. It is sent by the statement, not by a trigger: on Citus these tables are reference
 * tables, which may carry no triggers, and a NOTIFY from a trigger on a shard makes the two-phase commit fail.
 */
import type { Knex } from 'knex';
import { ACCESS_CHANNEL } from './access-cache.js';

/** The tables whose rows decide who a key is and what it reaches; the payload names the one that changed. */
export type AccessTable = 'users' | 'organizations' | 'organization_memberships' | 'environments' | 'personal_api_keys';

/** Announces a change of `table` when `db`'s transaction commits. */
export async function notifyAccessChange(db: Knex | Knex.Transaction, table: AccessTable): Promise<void> {
  await db.raw('select pg_notify(?, ?)', [ACCESS_CHANNEL, table]);
}

/**
 * Runs `write` and announces the change of `table` in one transaction: the one `db` already is, or a new one.
 * The change and its announcement are then committed together: never one without the other.
 */
export async function changingAccess<T>(db: Knex, table: AccessTable, write: (trx: Knex) => Promise<T>): Promise<T> {
  const writeAndNotify = async (trx: Knex): Promise<T> => {
    const result = await write(trx);
    await notifyAccessChange(trx, table);
    return result;
  };
  return db.isTransaction ? writeAndNotify(db) : db.transaction(writeAndNotify);
}
