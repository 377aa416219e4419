import type { Knex } from 'knex';

// IP addresses and ranges read from text for HogQL's IP functions (db/hogql/library/ip.ts). PostgreSQL's inet
// cast raises an error on text that is not an address, so that one event's property would fail a whole query;
// these answer NULL instead. An IPv4 address is four numbers of at most three digits, each up to 255, as
// ClickHouse's parser reads them; an IPv6 one has a colon (an IPv4-mapped one included); neither has a prefix.
// A range is an address, "/" and a prefix length. Each is one call of its text, so that nested calls stay small.
// (No question mark anywhere below: Knex would read it as a placeholder.)
const OCTET = '(25[0-5]|2[0-4][0-9]|[01]{0,1}[0-9]{0,1}[0-9])';
const IPV4 = `^(${OCTET}\\.){3}${OCTET}$`;

const FUNCTIONS = [
  `create function hogql_ipv4_address(value text) returns inet language plpgsql immutable strict parallel safe as $$
    begin
      if length(value) > 15 or value !~ '${IPV4}' then
        return null;
      end if;
      return value::inet;
    exception when others then
      return null;
    end
  $$`,
  `create function hogql_ipv6_address(value text) returns inet language plpgsql immutable strict parallel safe as $$
    begin
      if length(value) > 64 or strpos(value, ':') = 0 or value !~ '^[0-9A-Fa-f:.]+$' then
        return null;
      end if;
      return value::inet;
    exception when others then
      return null;
    end
  $$`,
  `create function hogql_ip_address(value text) returns inet language sql immutable strict parallel safe as $$
    select coalesce(hogql_ipv4_address(value), hogql_ipv6_address(value))
  $$`,
  // An IPv4 address converts to IPv6 as its IPv4-mapped address (::ffff:a.b.c.d), as ClickHouse's toIPv6 does.
  `create function hogql_to_ipv6(value text) returns inet language sql immutable strict parallel safe as $$
    select coalesce(hogql_ipv6_address(value), ('::ffff:' || host(hogql_ipv4_address(value)))::inet)
  $$`,
  `create function hogql_is_ipv4(value text) returns boolean language sql immutable strict parallel safe as $$
    select hogql_ipv4_address(value) is not null
  $$`,
  `create function hogql_is_ipv6(value text) returns boolean language sql immutable strict parallel safe as $$
    select hogql_ipv6_address(value) is not null
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
  for (const name of ['hogql_ip_range', 'hogql_is_ipv6', 'hogql_is_ipv4', 'hogql_to_ipv6', 'hogql_ip_address', 'hogql_ipv6_address', 'hogql_ipv4_address']) {
    await db.raw(`drop function ${name}(text)`);
  }
}
