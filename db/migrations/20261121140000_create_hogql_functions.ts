import type { Knex } from 'knex';

// Conversions the HogQL compiler (db/hogql/) emits for values read from JSON or text, which may hold anything:
// each answers NULL for what does not convert instead of failing the whole query. The simple ones are SQL
// functions that PostgreSQL inlines; those that must catch a parse error are PL/pgSQL and only enter their
// exception block (a subtransaction) for text that already looks right.
// (No "?" anywhere below: Knex would read it as a placeholder.)
const FUNCTIONS = [
  `create function hogql_to_number(value text) returns numeric language sql immutable parallel safe as $$
    select case when length(value) <= 100
      and value ~ '^\\s*[-+]{0,1}([0-9]+(\\.[0-9]*){0,1}|\\.[0-9]+)([eE][-+]{0,1}[0-9]{1,4}){0,1}\\s*$'
      then btrim(value)::numeric end
  $$`,
  `create function hogql_to_number(value jsonb) returns numeric language sql immutable parallel safe as $$
    select case jsonb_typeof(value)
      when 'number' then value::numeric
      when 'string' then hogql_to_number(value #>> '{}')
      when 'boolean' then case when value = 'true'::jsonb then 1 else 0 end
    end
  $$`,
  `create function hogql_trunc_int(value numeric) returns bigint language sql immutable parallel safe as $$
    select case when abs(value) < 9223372036854775807 then trunc(value)::bigint end
  $$`,
  `create function hogql_to_bool(value text) returns boolean language sql immutable parallel safe as $$
    select case lower(btrim(value)) when 'true' then true when '1' then true when 'false' then false when '0' then false end
  $$`,
  `create function hogql_to_bool(value jsonb) returns boolean language sql immutable parallel safe as $$
    select case jsonb_typeof(value)
      when 'boolean' then value = 'true'::jsonb
      when 'string' then hogql_to_bool(value #>> '{}')
      when 'number' then value::numeric <> 0
    end
  $$`,
  // ISO 8601 text (a time without an offset is read in timezone tz) or Unix seconds.
  `create function hogql_to_datetime(value text, tz text) returns timestamptz language plpgsql stable parallel safe as $$
    declare
      trimmed text := btrim(value);
    begin
      if trimmed is null or length(trimmed) > 64 then
        return null;
      end if;
      if trimmed ~ '^[-+]{0,1}[0-9]{1,12}(\\.[0-9]+){0,1}$' then
        return to_timestamp(trimmed::float8);
      end if;
      if trimmed !~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}' then
        return null;
      end if;
      begin
        if trimmed ~ '[T ][0-9]{2}:' and trimmed ~ '(Z|z|[+-][0-9]{2}(:{0,1}[0-9]{2}){0,1})$' then
          return trimmed::timestamptz;
        end if;
        return trimmed::timestamp at time zone tz;
      exception when others then
        return null;
      end;
    end
  $$`,
  `create function hogql_to_datetime(value jsonb, tz text) returns timestamptz language sql stable parallel safe as $$
    select hogql_to_datetime(case when jsonb_typeof(value) in ('string', 'number') then value #>> '{}' end, tz)
  $$`,
  `create function hogql_to_date(value text, tz text) returns date language plpgsql stable parallel safe as $$
    begin
      if value ~ '^\\s*[0-9]{4}-[0-9]{2}-[0-9]{2}\\s*$' then
        begin
          return btrim(value)::date;
        exception when others then
          return null;
        end;
      end if;
      return (hogql_to_datetime(value, tz) at time zone tz)::date;
    end
  $$`,
  `create function hogql_to_date(value jsonb, tz text) returns date language sql stable parallel safe as $$
    select hogql_to_date(case when jsonb_typeof(value) in ('string', 'number') then value #>> '{}' end, tz)
  $$`,
  // ISO 8601 in UTC with milliseconds, or microseconds when there are any.
  `create function hogql_format_datetime(value timestamptz) returns text language sql stable parallel safe as $$
    select to_char(value at time zone 'UTC', case when extract(microseconds from value)::bigint % 1000 = 0
      then 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"' else 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"' end)
  $$`,
  `create function hogql_json_parse(value text) returns jsonb language plpgsql immutable parallel safe as $$
    begin
      return value::jsonb;
    exception when others then
      return null;
    end
  $$`,
  `create function hogql_json_string(value jsonb) returns text language sql immutable parallel safe as $$
    select case when jsonb_typeof(value) = 'string' then value #>> '{}' else '' end
  $$`,
  `create function hogql_json_length(value jsonb) returns bigint language sql immutable parallel safe as $$
    select case jsonb_typeof(value)
      when 'array' then jsonb_array_length(value)::bigint
      when 'object' then (select count(*) from jsonb_object_keys(value))
      when 'null' then null
      else char_length(value #>> '{}')::bigint
    end
  $$`,
];

const SIGNATURES = [
  'hogql_to_number(text)',
  'hogql_to_number(jsonb)',
  'hogql_trunc_int(numeric)',
  'hogql_to_bool(text)',
  'hogql_to_bool(jsonb)',
  'hogql_to_datetime(jsonb, text)',
  'hogql_to_datetime(text, text)',
  'hogql_to_date(jsonb, text)',
  'hogql_to_date(text, text)',
  'hogql_format_datetime(timestamptz)',
  'hogql_json_parse(text)',
  'hogql_json_string(jsonb)',
  'hogql_json_length(jsonb)',
];

export async function up(db: Knex): Promise<void> {
  for (const statement of FUNCTIONS) await db.raw(statement);
}

export async function down(db: Knex): Promise<void> {
  for (const signature of SIGNATURES) await db.raw(`drop function if exists ${signature}`);
}
