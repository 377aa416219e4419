import type { Knex } from 'knex';

// Listing events by a person property first finds the persons that match. The one filter that names a single
// person is nearly always the email: index it, so that finding that person does not read every person of the
// project.
export async function up(db: Knex): Promise<void> {
  await db.raw(`create index persons_team_email on persons (team_id, (properties ->> 'email'))`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('drop index persons_team_email');
}
