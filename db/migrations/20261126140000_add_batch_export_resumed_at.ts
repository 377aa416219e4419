import type { Knex } from 'knex';

// When the engine first saw an export running again after its last pause. Scheduled runs start after it: the
// intervals a pause skipped are not caught up (that is what unpausing with `backfill` is for), while those that
// downtime made the engine miss still are.
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('batch_exports', (t) => {
    t.timestamp('resumed_at', { useTz: true }).nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('batch_exports', (t) => {
    t.dropColumn('resumed_at');
  });
}
