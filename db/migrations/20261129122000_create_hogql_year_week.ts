/**
 * ClickHouse's week numbers (toWeek, toYearWeek) for its ten week modes, which PostgreSQL has no form of: which
 * day starts a week, whether weeks count from 0 or 1, and which week of January is the first. One function
 * answers year * 100 + week for a day and a mode; toWeek keeps the week, toYearWeek the whole.
 *
 * And datetimes moved by intervals as ClickHouse moves them: days, weeks, months and years on the wall clock of
 * the datetime's timezone (a day after 09:00 is 09:00 across a change to summer time; a month after 31 January
 * is the last day of February), hours, minutes and seconds as elapsed time. A value that would leave
 * PostgreSQL's range is NULL, never an error that fails the query.
 */
import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // Mode bits as ClickHouse reads them: 1, Monday starts the week; 2, weeks count from 1 (a day before week 1
  // belongs to the previous year's last week); 4, week 1 is the first week with the week's first day in it
  // (else the first with 4 or more days of the year; the bit is flipped for weeks starting on Sunday); 8, week 1
  // is the week holding 1 January.
  await db.raw(`create function hogql_year_week(d date, mode int) returns int language plpgsql immutable parallel safe as $$
    declare
      monday_first boolean := (mode & 1) = 1;
      flags int := case when (mode & 1) = 1 then mode & 7 else (mode & 7) # 4 end;
      week_year boolean := (flags & 2) = 2;
      first_weekday boolean := (flags & 4) = 4;
      y int := extract(year from d)::int;
      first_day date;
      this_day date;
      weekday int;
      days int;
    begin
      -- The first year has no year before it (PostgreSQL has no year 0); ClickHouse's dates start in 1900.
      if d is null or mode is null or d < date '0002-01-01' then return null; end if;
      if (mode & 8) = 8 then
        -- The week of 1 January is week 1 of the year its last day is in.
        if monday_first then
          this_day := d - (extract(isodow from d)::int - 1);
        else
          this_day := d - extract(dow from d)::int;
        end if;
        y := extract(year from this_day + 6)::int;
        first_day := make_date(y, 1, 1);
        first_day := first_day - case when monday_first then extract(isodow from first_day)::int - 1 else extract(dow from first_day)::int end;
        return y * 100 + (this_day - first_day) / 7 + 1;
      end if;
      first_day := make_date(y, 1, 1);
      -- The weekday of 1 January, 0 for the week's first day.
      weekday := case when monday_first then extract(isodow from first_day)::int - 1 else extract(dow from first_day)::int end;
      if extract(month from d) = 1 and extract(day from d) <= 7 - weekday then
        if not week_year and ((first_weekday and weekday <> 0) or (not first_weekday and weekday >= 4)) then
          return y * 100;
        end if;
        week_year := true;
        y := y - 1;
        days := make_date(y + 1, 1, 1) - make_date(y, 1, 1);
        first_day := first_day - days;
        weekday := (weekday + 53 * 7 - days) % 7;
      end if;
      if (first_weekday and weekday <> 0) or (not first_weekday and weekday >= 4) then
        days := d - (first_day + (7 - weekday));
      else
        days := d - (first_day - weekday);
      end if;
      if week_year and days >= 52 * 7 then
        weekday := (weekday + (make_date(y + 1, 1, 1) - make_date(y, 1, 1))) % 7;
        if (not first_weekday and weekday < 4) or (first_weekday and weekday = 0) then
          return (y + 1) * 100 + 1;
        end if;
      end if;
      return y * 100 + days / 7 + 1;
    end
  $$`);
  // Intervals stay within 10^12 seconds (some 31,700 years) and a move within 10^11 (3,170 years) of a datetime
  // from 1500 BC to 290000 AD, so that no result leaves PostgreSQL's range (4713 BC to 294276 AD); beyond, NULL.
  // Plain SQL, so that the planner inlines them: a filter such as timestamp > now() - INTERVAL 7 DAY still
  // reads the events' index.
  await db.raw(`create function hogql_shift(at timestamptz, shift interval, zone text) returns timestamptz language sql stable parallel safe as $$
    select case when abs(extract(epoch from shift)) <= 1e11 and at between '1500-01-01 00:00:00+00 BC' and '290000-01-01 00:00:00+00'
      then ((at at time zone zone) + date_trunc('day', shift)) at time zone zone + (shift - date_trunc('day', shift)) end
  $$`);
  await db.raw(`create function hogql_interval_sum(a interval, b interval) returns interval language sql immutable parallel safe as $$
    select case when abs(extract(epoch from a)) + abs(extract(epoch from b)) <= 1e12 then a + b end
  $$`);
  await db.raw(`create function hogql_interval_scale(a interval, factor numeric) returns interval language sql immutable parallel safe as $$
    select case when abs(extract(epoch from a)) * abs(factor) <= 1e12 then a * factor::float8 end
  $$`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('drop function hogql_interval_scale(interval, numeric)');
  await db.raw('drop function hogql_interval_sum(interval, interval)');
  await db.raw('drop function hogql_shift(timestamptz, interval, text)');
  await db.raw('drop function hogql_year_week(date, int)');
}
