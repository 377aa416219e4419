/**
 * The channel on which a change to batch exports, backfills or runs wakes the engine (handlers/jobs/) at once,
 * in whichever process it runs, instead of at its next scheduled look. Sent inside the writer's transaction, so
 * it is delivered only when that change is committed, and never for one that was rolled back.
 */
import type { Knex } from 'knex';

export const ENGINE_CHANNEL = 'hedgerow_batch_exports';

export async function notifyEngine(db: Knex | Knex.Transaction): Promise<void> {
  await db.raw('select pg_notify(?, ?)', [ENGINE_CHANNEL, '']);
}
