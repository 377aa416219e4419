import type { Knex } from 'knex';

// How far a backfill has got: the end of the last of its windows that is over. Its windows up to there are never
// started again, even when another backfill (a run's retry) has since taken their run row over.
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('batch_export_backfills', (t) => {
    t.timestamp('finished_through', { useTz: true }).nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('batch_export_backfills', (t) => {
    t.dropColumn('finished_through');
  });
}
