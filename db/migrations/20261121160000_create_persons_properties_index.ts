import type { Knex } from 'knex';

// Listing events by a person property that many persons share (a plan, a country) first finds those persons,
// and a filter on an expression of any property has no statistics and no index. The listing adds a
// containment test (`properties @> {"plan": "pro"}`) to such filters, which this index serves for every key;
// jsonb_path_ops because containment is the only operator it is asked for, and its index is the smaller.
export async function up(db: Knex): Promise<void> {
  await db.raw('create index persons_properties_path on persons using gin (properties jsonb_path_ops)');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('drop index persons_properties_path');
}
