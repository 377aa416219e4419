import type { Knex } from 'knex';

// When the export's schedule last started again: an unpause, or a change of its interval, timezone or offset
// (set by the API in the same statement). Scheduled runs are made only for intervals that end after it (and after
// created_at): what a pause skipped is not caught up (unpausing with `backfill` is for that), and a new grid of
// intervals does not re-export the history the old one already covered. What downtime made the engine miss still
// is caught up.
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('batch_exports', (t) => {
    t.timestamp('schedule_from', { useTz: true }).nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('batch_exports', (t) => {
    t.dropColumn('schedule_from');
  });
}
