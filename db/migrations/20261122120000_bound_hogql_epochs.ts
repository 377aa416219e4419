import type { Knex } from 'knex';

// Unix seconds beyond PostgreSQL's timestamps (before 4713 BC or after 294276 AD, with a day's margin so that a
// conversion to any timezone's wall clock stays inside them) convert to NULL, as every other value that does not
// convert does: to_timestamp() raised an error instead, so a single stored event whose property held such a
// number failed every date filter and toDateTime() of its project with a 400.
// hogql_to_datetime(text, tz) keeps its other readings; it now hands Unix seconds to the bounded conversion, which
// the compiler also uses for numbers (db/hogql/types.ts).
// (No "?" anywhere below: Knex would read it as a placeholder.)
const EPOCH_SECONDS = '^[-+]{0,1}[0-9]{1,12}(\\.[0-9]+){0,1}$';

export async function up(db: Knex): Promise<void> {
  await db.raw(`create function hogql_epoch_to_datetime(seconds numeric) returns timestamptz language sql immutable parallel safe as $$
    select case when seconds between -210866716800 and 9224317929599 then to_timestamp(seconds::float8) end
  $$`);
  await db.raw('alter function hogql_to_datetime(text, text) rename to hogql_to_datetime_unbounded');
  await db.raw(`create function hogql_to_datetime(value text, tz text) returns timestamptz language sql stable parallel safe as $$
    select case when btrim(value) ~ '${EPOCH_SECONDS}' then hogql_epoch_to_datetime(btrim(value)::numeric)
      else hogql_to_datetime_unbounded(value, tz) end
  $$`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('drop function hogql_to_datetime(text, text)');
  await db.raw('alter function hogql_to_datetime_unbounded(text, text) rename to hogql_to_datetime');
  await db.raw('drop function hogql_epoch_to_datetime(numeric)');
}
