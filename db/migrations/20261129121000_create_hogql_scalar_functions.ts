import type { Knex } from 'knex';

// Helpers of HogQL's scalar functions (db/hogql/library/) whose PostgreSQL form would raise an error on some
// stored value: a decoding of text that is not base64 or hex, or whose bytes are not UTF-8, and floating-point
// powers that overflow. Each answers NULL (or ClickHouse's infinity) instead, so that one event's property can
// never fail a whole query. Each is strict: NULL in, NULL out.
// (No question mark anywhere below: Knex would read it as a placeholder.)
const FUNCTIONS = [
  `create function hogql_base64_decode(value text) returns text language plpgsql immutable strict parallel safe as $$
    begin
      return convert_from(decode(value, 'base64'), 'UTF8');
    exception when others then
      return null;
    end
  $$`,
  // Hex digits two a byte; an odd count reads as if a 0 stood before them, as ClickHouse's unhex() does.
  `create function hogql_unhex(value text) returns text language plpgsql immutable strict parallel safe as $$
    begin
      if value !~ '^[0-9A-Fa-f]*$' then
        return null;
      end if;
      if length(value) % 2 = 1 then
        value := '0' || value;
      end if;
      return convert_from(decode(value, 'hex'), 'UTF8');
    exception when others then
      return null;
    end
  $$`,
  // Percent-decoding: %XX sequences become bytes (and + a space in form encoding); a % not followed by two hex
  // digits stays as it is. Text whose decoded bytes are not UTF-8 stays undecoded.
  `create function hogql_url_decode(value text, form boolean) returns text language plpgsql immutable strict parallel safe as $$
    declare
      source bytea := convert_to(value, 'UTF8');
      result bytea := ''::bytea;
      position int := 0;
      size int := length(source);
      byte int;
    begin
      while position < size loop
        byte := get_byte(source, position);
        if byte = 37 and position + 2 < size
          and encode(substring(source from position + 2 for 2), 'escape') ~ '^[0-9A-Fa-f]{2}$' then
          result := result || decode(encode(substring(source from position + 2 for 2), 'escape'), 'hex');
          position := position + 3;
        elsif byte = 43 and form then
          result := result || '\\x20'::bytea;
          position := position + 1;
        else
          result := result || substring(source from position + 1 for 1);
          position := position + 1;
        end if;
      end loop;
      return convert_from(result, 'UTF8');
    exception when others then
      return value;
    end
  $$`,
  // Percent-encoding of every byte but the unreserved ones (letters, digits, - . _ ~); in form encoding a space
  // is +.
  `create function hogql_url_encode(value text, form boolean) returns text language sql immutable strict parallel safe as $$
    select coalesce(string_agg(
      case
        when b between 48 and 57 or b between 65 and 90 or b between 97 and 122 or b in (45, 46, 95, 126) then chr(b)
        when b = 32 and form then '+'
        else '%' || upper(lpad(to_hex(b), 2, '0'))
      end, '' order by i), '')
    from generate_series(0, octet_length(value) - 1) as i, get_byte(convert_to(value, 'UTF8'), i) as b
  $$`,
  // x to the power y as ClickHouse's Float64 pow(): infinity past the largest double, NaN where there is no real
  // answer.
  `create function hogql_power(x float8, y float8) returns float8 language plpgsql immutable strict parallel safe as $$
    begin
      return power(x, y);
    exception
      when numeric_value_out_of_range then
        return case when x < 0 and y = floor(y) and floor(y)::numeric % 2 = 1 then '-Infinity'::float8 else 'Infinity'::float8 end;
      when others then
        return case when x = 0 then 'Infinity'::float8 else 'NaN'::float8 end;
    end
  $$`,
];

const SIGNATURES = [
  'hogql_base64_decode(text)',
  'hogql_unhex(text)',
  'hogql_url_decode(text, boolean)',
  'hogql_url_encode(text, boolean)',
  'hogql_power(float8, float8)',
];

export async function up(db: Knex): Promise<void> {
  for (const statement of FUNCTIONS) await db.raw(statement);
}

export async function down(db: Knex): Promise<void> {
  for (const signature of SIGNATURES) await db.raw(`drop function if exists ${signature}`);
}
