import type { Knex } from 'knex';

// ClickHouse's windowFunnel(window)(timestamp, cond1, cond2, …) for the HogQL compiler: given a group's events as
// a jsonb array of [time, conditions] pairs (conditions a bit mask, bit i for condition i + 1), the furthest step
// of the funnel reached within the window. As ClickHouse does it: the events sorted by time, then by step; a
// first step (re)starts the chain at its time; a later step counts when the step before it was reached and it
// comes no later than that chain's start plus the window; n steps reached ends the search.
// (No "?" anywhere below: Knex would read it as a placeholder.)
const FUNCTION = `create function hogql_window_funnel(window_size numeric, steps int, events jsonb) returns bigint
  language plpgsql immutable parallel safe as $$
  declare
    starts numeric[] := array_fill(null::numeric, array[steps]);
    item record;
    level int;
  begin
    if events is null or jsonb_typeof(events) <> 'array' or jsonb_array_length(events) = 0 then
      return 0;
    end if;
    if steps = 1 then
      return 1;
    end if;
    for item in
      select (pair ->> 0)::numeric as at, step
      from jsonb_array_elements(events) as pairs(pair), generate_series(1, steps) as step
      where ((pair ->> 1)::bigint >> (step - 1)) & 1 = 1
      order by 1, 2
    loop
      if item.step = 1 then
        starts[1] := item.at;
      elsif starts[item.step - 1] is not null and item.at <= starts[item.step - 1] + window_size then
        starts[item.step] := starts[item.step - 1];
        if item.step = steps then
          return steps;
        end if;
      end if;
    end loop;
    for level in reverse steps..1 loop
      if starts[level] is not null then
        return level;
      end if;
    end loop;
    return 0;
  end
$$`;

export async function up(db: Knex): Promise<void> {
  await db.raw(FUNCTION);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('drop function if exists hogql_window_funnel(numeric, int, jsonb)');
}
