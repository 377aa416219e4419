import type { Knex } from 'knex';

// IP addresses and ranges read from text for HogQL's IP functions (db/hogql/library/ip.ts). PostgreSQL's inet
// cast raises an error on text that is not an address, so that one event's property would fail a whole query;
// these answer NULL instead. An address has no prefix; a range is an address, "/" and a prefix length.
// (No question mark anywhere below: Knex would read it as a placeholder.)
const FUNCTIONS = [
  `create function hogql_ip_address(value text) returns inet language plpgsql immutable strict parallel safe as $$
    begin
      if length(value) > 64 or value !~ '^[0-9A-Fa-f:.]+$' then
        return null;
      end if;
      return value::inet;
    exception when others then
      return null;
    end
  $$`,
  `create function hogql_ip_range(value text) returns inet language plpgsql immutable strict parallel safe as $$
    begin
      if length(value) > 64 or value !~ '^[0-9A-Fa-f:.]+/[0-9]{1,3}$' then
        return null;
      end if;
      return value::inet;
    exception when others then
      return null;
    end
  $$`,
];

export async function up(db: Knex): Promise<void> {
  for (const statement of FUNCTIONS) await db.raw(statement);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('drop function hogql_ip_range(text)');
  await db.raw('drop function hogql_ip_address(text)');
}
