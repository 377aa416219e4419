/**
 * Dates, times and intervals as ClickHouse computes them, on the wall clock of the project's timezone (or of the
 * zone toTimeZone() gave a datetime, or of a function's own timezone argument, checked against the names the
 * runtime knows). Functions that return a Date in ClickHouse (toStartOfMonth, toMonday, …) return one here;
 * week numbers follow ClickHouse's ten week modes (hogql_year_week); a value beyond PostgreSQL's range is NULL.
 */
import type { Expr, IntervalUnit } from '../ast.js';
import type { Compiler } from '../compiler.js';
import { parseIsoDateTime } from '../datetime.js';
import { HogQLError } from '../errors.js';
import type { FunctionDef } from '../functions.js';
import { keyword, param, sql, type Fragment } from '../sql.js';
import { arrayOf, coerce, timezoneName, timezoneParam, typed, wallClockZone, type Typed } from '../types.js';
import type { Family } from './index.js';

const arg = (args: readonly Expr[], index: number): Expr => args[index]!;

const UNITS: readonly IntervalUnit[] = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'];

/** A datetime and the zone its wall clock is read in. */
interface Clock {
  at: Typed;
  zone: Fragment;
  /** The zone named by the call's timezone argument, which the result keeps. */
  zoneName?: string;
}

/**
 * The datetime of `args[0]` and the zone of `args[zoneIndex]` when the call has it. A text is read on the wall
 * clock of that zone, as ClickHouse reads `toUnixTimestamp('2017-11-05 08:07:47', 'Asia/Tokyo')`.
 */
function clock(c: Compiler, args: readonly Expr[], zoneIndex: number, fn: string): Clock {
  const zoneName = args.length > zoneIndex ? timezoneName(arg(args, zoneIndex), fn) : undefined;
  const value = c.compile(arg(args, 0));
  const at = coerce(value, 'datetime', zoneName ? { timezone: zoneName } : c.scope);
  return { at, zone: zoneName ? param(zoneName, 'text') : wallClockZone(at, c.scope), zoneName };
}

/** The wall-clock time (a PostgreSQL timestamp) of a clock. */
const wall = (clk: Clock): Fragment => sql`(${clk.at.sql} at time zone ${clk.zone})`;

/** The calendar day of a clock. */
const dayOf = (clk: Clock): Fragment => sql`(${wall(clk)})::date`;

/** The instant a wall-clock time of the clock's zone is. */
const instantOf = (clk: Clock, wallTime: Fragment): Fragment => sql`(${wallTime} at time zone ${clk.zone})`;

function dateResult(fragment: Fragment, clk: Clock): Typed {
  return typed(fragment, 'date', clk.at.nullable, clk.at.aggregate);
}

function datetimeResult(fragment: Fragment, clk: Clock): Typed {
  const zone = clk.zoneName ?? clk.at.zone;
  return { ...typed(fragment, 'datetime', clk.at.nullable, clk.at.aggregate), ...(zone ? { zone } : {}) };
}

function intResult(fragment: Fragment, clk: Clock): Typed {
  return typed(fragment, 'int', clk.at.nullable, clk.at.aggregate);
}

function stringResult(fragment: Fragment, clk: Clock): Typed {
  return typed(fragment, 'string', clk.at.nullable, clk.at.aggregate);
}

/** A whole-number constant from `low` to `high` (a week mode, an interval's length). */
function integerConstant(expr: Expr, what: string, low: number, high: number): number {
  if (expr.kind !== 'constant' || typeof expr.value !== 'number' || !Number.isInteger(expr.value) || expr.value < low || expr.value > high) {
    throw new HogQLError(`${what} must be an integer constant from ${low} to ${high}.`);
  }
  return expr.value;
}

/** ClickHouse's week mode argument (0 when absent): 0 to 9. */
export function weekMode(args: readonly Expr[], index: number, fn: string): number {
  return args.length > index ? integerConstant(arg(args, index), `The mode of ${fn}()`, 0, 9) : 0;
}

/** The first day of the week of `day`: Monday when the mode's lowest bit is set, Sunday otherwise. */
export function weekStart(day: Fragment, mode: number): Fragment {
  return mode % 2 === 1 ? sql`(${day} - (extract(isodow from ${day})::int - 1))` : sql`(${day} - extract(dow from ${day})::int)`;
}

/** A constant interval: `INTERVAL n unit` or `toIntervalUnit(n)` with a positive whole n. */
function constantInterval(expr: Expr, fn: string): { amount: number; unit: IntervalUnit } {
  const what = `The interval of ${fn}()`;
  if (expr.kind === 'interval') return { amount: integerConstant(expr.amount, `${what}'s length`, 1, 1_000_000), unit: expr.unit };
  if (expr.kind === 'call' && expr.args.length === 1) {
    const unit = UNITS.find((name) => `tointerval${name}` === expr.name.toLowerCase());
    if (unit) return { amount: integerConstant(arg(expr.args, 0), `${what}'s length`, 1, 1_000_000), unit };
  }
  throw new HogQLError(`${what} must be a constant such as INTERVAL 15 MINUTE or toIntervalHour(2).`);
}

/**
 * The start of the interval of `amount` units holding the clock's time, as ClickHouse's toStartOfInterval
 * counts: seconds and minutes from the Unix epoch, hours from midnight, days from 1970-01-01, weeks from Monday
 * 1970-01-05, months and quarters from January 1900, years from year 0. A datetime for units up to a day (a
 * Date stays a Date), a Date for weeks and longer.
 */
function startOfInterval(clk: Clock, amount: number, unit: IntervalUnit, dateInput: boolean): Typed {
  const n = keyword(String(amount));
  const day = dayOf(clk);
  switch (unit) {
    case 'second':
    case 'minute': {
      const seconds = keyword(String(unit === 'second' ? amount : amount * 60));
      return datetimeResult(sql`to_timestamp(floor(extract(epoch from ${clk.at.sql}) / ${seconds}) * ${seconds})`, clk);
    }
    case 'hour':
      return datetimeResult(
        instantOf(clk, sql`(date_trunc('day', ${wall(clk)}) + (floor(extract(hour from ${wall(clk)}) / ${n}) * ${n}) * interval '1 hour')`),
        clk,
      );
    case 'day': {
      const start = sql`(date '1970-01-01' + (floor((${day} - date '1970-01-01') / ${n}::numeric) * ${n})::int)`;
      return dateInput ? dateResult(start, clk) : datetimeResult(instantOf(clk, sql`(${start})::timestamp`), clk);
    }
    case 'week': {
      const days = keyword(String(amount * 7));
      return dateResult(sql`(date '1970-01-05' + (floor((${day} - date '1970-01-05') / ${days}::numeric) * ${days})::int)`, clk);
    }
    case 'month':
    case 'quarter': {
      const months = keyword(String(unit === 'quarter' ? amount * 3 : amount));
      const index = sql`((extract(year from ${day}) - 1900) * 12 + extract(month from ${day}) - 1)`;
      return dateResult(sql`(date '1900-01-01' + (floor(${index} / ${months}) * ${months})::int * interval '1 month')::date`, clk);
    }
    default:
      // A year rounded down before 1900 is 1900, ClickHouse's first year (and never PostgreSQL's missing year 0).
      if (amount === 1) return dateResult(sql`date_trunc('year', ${day})::date`, clk);
      return dateResult(sql`make_date(greatest(floor(extract(year from ${day}) / ${n}) * ${n}, 1900)::int, 1, 1)`, clk);
  }
}

/**
 * The start of the interval holding `t` among intervals of `amount` units counted from `origin` (ClickHouse's
 * toStartOfInterval with an origin). Units of a fixed length only: a month or a year from an origin that is not
 * the start of one has no single meaning PostgreSQL and ClickHouse share.
 */
function startOfIntervalFrom(c: Compiler, t: Expr, amount: number, unit: IntervalUnit, origin: Expr, fn: string): Typed {
  if (['month', 'quarter', 'year'].includes(unit)) throw new HogQLError(`The interval of ${fn}() with an origin must be of seconds, minutes, hours, days or weeks.`);
  const at = coerce(c.compile(t), 'datetime', c.scope);
  const from = coerce(c.compile(origin), 'datetime', c.scope);
  const stride = keyword(`interval '${amount * (unit === 'week' ? 7 : 1)} ${unit === 'week' ? 'day' : unit}'`);
  const start = typed(sql`date_bin(${stride}, ${at.sql}, ${from.sql})`, 'datetime', at.nullable || from.nullable, at.aggregate || from.aggregate);
  return at.zone ? { ...start, zone: at.zone } : start;
}

/** A toStartOf… function of a fixed interval. */
function startOfFixed(name: string, amount: number, unit: IntervalUnit): FunctionDef {
  return { name, minArgs: 1, maxArgs: 1, compile: (c, args) => startOfInterval(clock(c, args, 1, name), amount, unit, false) };
}

/** A function of the calendar day of its argument, returning a Date. */
function dayFunction(name: string, body: (day: Fragment) => Fragment): FunctionDef {
  return {
    name,
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => {
      const day = coerce(c.compile(arg(args, 0)), 'date', c.scope);
      return typed(body(day.sql), 'date', day.nullable, day.aggregate);
    },
  };
}

/** A number read off the wall clock (toDayOfYear, toYYYYMM, …), with ClickHouse's optional timezone argument. */
function wallNumber(name: string, body: (wallTime: Fragment) => Fragment, maxArgs = 1): FunctionDef {
  return { name, minArgs: 1, maxArgs, compile: (c, args) => {
    const clk = clock(c, args, 1, name);
    return intResult(body(wall(clk)), clk);
  } };
}

/** toIntervalSecond(n) … toIntervalYear(n): `INTERVAL n unit`. */
function toInterval(unit: IntervalUnit): FunctionDef {
  const name = `toInterval${unit[0]!.toUpperCase()}${unit.slice(1)}`;
  return { name, minArgs: 1, maxArgs: 1, compile: (c, args) => c.compile({ kind: 'interval', amount: arg(args, 0), unit }) };
}

/** addDays(t, n), subtractMonths(t, n), …: `t ± INTERVAL n unit`. */
function addUnits(verb: 'add' | 'subtract', unit: IntervalUnit): FunctionDef {
  const name = `${verb}${unit[0]!.toUpperCase()}${unit.slice(1)}s`;
  return {
    name,
    minArgs: 2,
    maxArgs: 2,
    compile: (c, args) => {
      const moment = c.compile(arg(args, 0));
      // A text or a property is read as a datetime, as ClickHouse reads a String argument.
      const at = moment.type === 'datetime' || moment.type === 'date' ? moment : coerce(moment, 'datetime', c.scope);
      return c.arithmetic(verb === 'add' ? '+' : '-', at, c.compile({ kind: 'interval', amount: arg(args, 1), unit }));
    },
  };
}

/** timeStampAdd(t, interval), date_add(t, interval), …: a datetime and an interval added or subtracted. */
function withInterval(name: string, op: '+' | '-'): FunctionDef {
  return {
    name,
    minArgs: 2,
    maxArgs: 2,
    compile: (c, args) => {
      const moment = c.compile(arg(args, 0));
      const interval = c.compile(arg(args, 1));
      if (interval.type !== 'interval') throw new HogQLError(`The second argument of ${name}() must be an interval, such as INTERVAL 1 DAY.`);
      const at = moment.type === 'date' || moment.type === 'datetime' ? moment : coerce(moment, 'datetime', c.scope);
      return c.arithmetic(op, at, interval);
    },
  };
}

function alias(name: string, target: string, minArgs: number, maxArgs: number): FunctionDef {
  return { name, minArgs, maxArgs, compile: (c, args) => c.call(target, args) };
}

/** Unix seconds (or milliseconds) to a datetime; NULL beyond PostgreSQL's range. */
function fromEpoch(c: Compiler, expr: Expr, divisor: number): Typed {
  const number = coerce(c.numeric(c.compile(expr)), 'float', c.scope);
  const seconds = divisor === 1 ? number.sql : sql`(${number.sql} / ${keyword(String(divisor))})`;
  return typed(sql`hogql_epoch_to_datetime(${seconds})`, 'datetime', true, number.aggregate);
}

const AGE_UNITS: Readonly<Record<string, string>> = {
  second: '1',
  minute: '60',
  hour: '3600',
  day: '86400',
  week: '604800',
};

/** dateName()'s parts and the text of each, from the wall-clock time. */
const DATE_NAME_PARTS: Readonly<Record<string, (wallTime: Fragment) => Fragment>> = {
  year: (t) => sql`extract(year from ${t})::int::text`,
  quarter: (t) => sql`extract(quarter from ${t})::int::text`,
  month: (t) => sql`to_char(${t}, 'FMMonth')`,
  week: (t) => sql`extract(week from ${t})::int::text`,
  dayofyear: (t) => sql`extract(doy from ${t})::int::text`,
  day: (t) => sql`extract(day from ${t})::int::text`,
  weekday: (t) => sql`to_char(${t}, 'FMDay')`,
  hour: (t) => sql`extract(hour from ${t})::int::text`,
  minute: (t) => sql`extract(minute from ${t})::int::text`,
  second: (t) => sql`floor(extract(second from ${t}))::int::text`,
};

/** PostgreSQL's date_part() names as PostHog maps them to ClickHouse's functions. */
const DATE_PART_NAMES: Readonly<Record<string, (wallTime: Fragment) => Fragment>> = {
  year: (t) => sql`extract(year from ${t})`,
  month: (t) => sql`extract(month from ${t})`,
  day: (t) => sql`extract(day from ${t})`,
  hour: (t) => sql`extract(hour from ${t})`,
  minute: (t) => sql`extract(minute from ${t})`,
  second: (t) => sql`floor(extract(second from ${t}))`,
  dow: (t) => sql`extract(isodow from ${t})`,
  doy: (t) => sql`extract(doy from ${t})`,
  quarter: (t) => sql`extract(quarter from ${t})`,
};

function constantWord(expr: Expr, what: string, words: readonly string[]): string {
  if (expr.kind !== 'constant' || typeof expr.value !== 'string' || !words.includes(expr.value.toLowerCase())) {
    throw new HogQLError(`${what} must be one of ${words.join(', ')}.`);
  }
  return expr.value.toLowerCase();
}

/**
 * A date from year, month and day (ClickHouse's makeDate); NULL for a day that does not exist. The checks come
 * first so that PostgreSQL's make_date(), which raises an error for such a day, only sees real ones.
 */
function madeDate(c: Compiler, args: readonly Expr[]): { sql: Fragment; parts: Typed[] } {
  const parts = [0, 1, 2].map((index) => coerce(c.numeric(c.compile(arg(args, index))), 'int', c.scope));
  const [y, m, d] = parts.map((part) => part.sql) as [Fragment, Fragment, Fragment];
  const lastDay = sql`extract(day from (make_date((${y})::int, (${m})::int, 1) + interval '1 month' - interval '1 day'))`;
  const body = sql`(case when ${y} between 1 and 9999 and ${m} between 1 and 12 then (case when ${d} between 1 and ${lastDay} then make_date((${y})::int, (${m})::int, (${d})::int) end) end)`;
  return { sql: body, parts };
}

/** A datetime from its parts on the wall clock of `zone`; NULL for parts out of range. */
function madeDateTime(c: Compiler, args: readonly Expr[], zone: Fragment): Typed {
  const date = madeDate(c, args);
  const time = [3, 4].map((index) => coerce(c.numeric(c.compile(arg(args, index))), 'int', c.scope));
  const second = coerce(c.numeric(c.compile(arg(args, 5))), 'float', c.scope);
  const [h, mi] = time.map((part) => part.sql) as [Fragment, Fragment];
  const valid = sql`${h} between 0 and 23 and ${mi} between 0 and 59 and ${second.sql} >= 0 and ${second.sql} < 60`;
  const wallTime = sql`(${date.sql} + make_interval(hours => (${h})::int, mins => (${mi})::int, secs => (${second.sql})::float8))`;
  const parts = [...date.parts, ...time, second];
  return typed(sql`(case when ${valid} then (${wallTime} at time zone ${zone}) end)`, 'datetime', true, parts.some((part) => part.aggregate));
}

const DEFINITIONS: FunctionDef[] = [
  ...UNITS.map(toInterval),
  ...(['year', 'quarter', 'month', 'week', 'day', 'hour', 'minute', 'second'] as const).flatMap((unit) => [addUnits('add', unit), addUnits('subtract', unit)]),
  withInterval('timeStampAdd', '+'),
  withInterval('timeStampSub', '-'),
  withInterval('date_add', '+'),
  withInterval('date_subtract', '-'),
  {
    name: 'toStartOfInterval',
    minArgs: 2,
    maxArgs: 4,
    compile: (c, args) => {
      const { amount, unit } = constantInterval(arg(args, 1), 'toStartOfInterval');
      const third = args.length > 2 ? arg(args, 2) : null;
      // toStartOfInterval(t, interval, origin[, tz]): intervals counted from the origin instead.
      if (third && !(third.kind === 'constant' && typeof third.value === 'string' && args.length === 3 && parseIsoDateTime(third.value) === null)) {
        const start = startOfIntervalFrom(c, arg(args, 0), amount, unit, third, 'toStartOfInterval');
        return args.length > 3 ? { ...start, zone: timezoneName(arg(args, 3), 'toStartOfInterval') } : start;
      }
      if (args.length > 3) throw new HogQLError('toStartOfInterval() takes a timezone as its third argument, or an origin and then a timezone.');
      const value = c.compile(arg(args, 0));
      return startOfInterval(clock(c, args, 2, 'toStartOfInterval'), amount, unit, value.type === 'date');
    },
  },
  {
    name: 'date_bin',
    minArgs: 3,
    maxArgs: 3,
    // PostgreSQL's date_bin(stride, t, origin), which PostHog maps to toStartOfInterval(t, stride, origin).
    compile: (c, args) => {
      const { amount, unit } = constantInterval(arg(args, 0), 'date_bin');
      return startOfIntervalFrom(c, arg(args, 1), amount, unit, arg(args, 2), 'date_bin');
    },
  },
  startOfFixed('toStartOfSecond', 1, 'second'),
  startOfFixed('toStartOfMinute', 1, 'minute'),
  startOfFixed('toStartOfFiveMinutes', 5, 'minute'),
  startOfFixed('toStartOfTenMinutes', 10, 'minute'),
  startOfFixed('toStartOfFifteenMinutes', 15, 'minute'),
  {
    name: 'timeSlot',
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => startOfInterval(clock(c, args, 1, 'timeSlot'), 30, 'minute', false),
  },
  dayFunction('toStartOfYear', (day) => sql`date_trunc('year', ${day})::date`),
  dayFunction('toStartOfQuarter', (day) => sql`date_trunc('quarter', ${day})::date`),
  // NULL in the first year, whose ISO year may be PostgreSQL's missing year 0.
  dayFunction('toStartOfISOYear', (day) => sql`(case when ${day} >= date '0002-01-01' then date_trunc('week', make_date(extract(isoyear from ${day})::int, 1, 4))::date end)`),
  dayFunction('toMonday', (day) => weekStart(day, 1)),
  dayFunction('toLastDayOfMonth', (day) => sql`(date_trunc('month', ${day}) + interval '1 month' - interval '1 day')::date`),
  {
    name: 'toLastDayOfWeek',
    minArgs: 1,
    maxArgs: 2,
    compile: (c, args) => {
      const mode = weekMode(args, 1, 'toLastDayOfWeek');
      const day = coerce(c.compile(arg(args, 0)), 'date', c.scope);
      return typed(sql`(${weekStart(day.sql, mode)} + 6)`, 'date', day.nullable, day.aggregate);
    },
  },
  wallNumber('toDayOfYear', (t) => sql`extract(doy from ${t})::bigint`),
  wallNumber('toISOYear', (t) => sql`extract(isoyear from ${t})::bigint`),
  wallNumber('toISOWeek', (t) => sql`extract(week from ${t})::bigint`),
  wallNumber('toYYYYMM', (t) => sql`to_char(${t}, 'YYYYMM')::bigint`),
  wallNumber('toYYYYMMDD', (t) => sql`to_char(${t}, 'YYYYMMDD')::bigint`),
  wallNumber('toYYYYMMDDhhmmss', (t) => sql`to_char(${t}, 'YYYYMMDDHH24MISS')::bigint`),
  {
    name: 'toWeek',
    minArgs: 1,
    maxArgs: 3,
    compile: (c, args) => {
      const mode = weekMode(args, 1, 'toWeek');
      const clk = clock(c, args, 2, 'toWeek');
      return intResult(sql`(hogql_year_week(${dayOf(clk)}, ${keyword(String(mode))}) % 100)::bigint`, clk);
    },
  },
  {
    name: 'toYearWeek',
    minArgs: 1,
    maxArgs: 3,
    compile: (c, args) => {
      // toYearWeek always counts a day before the year's first week in the previous year's last week.
      const mode = weekMode(args, 1, 'toYearWeek') | 2;
      const clk = clock(c, args, 2, 'toYearWeek');
      return intResult(sql`hogql_year_week(${dayOf(clk)}, ${keyword(String(mode))})::bigint`, clk);
    },
  },
  {
    name: 'toUnixTimestamp',
    minArgs: 1,
    maxArgs: 2,
    compile: (c, args) => {
      const clk = clock(c, args, 1, 'toUnixTimestamp');
      return intResult(sql`floor(extract(epoch from ${clk.at.sql}))::bigint`, clk);
    },
  },
  {
    name: 'toUnixTimestamp64Milli',
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => {
      const clk = clock(c, args, 1, 'toUnixTimestamp64Milli');
      return intResult(sql`floor(extract(epoch from ${clk.at.sql}) * 1000)::bigint`, clk);
    },
  },
  { name: 'fromUnixTimestamp', minArgs: 1, maxArgs: 1, compile: (c, args) => fromEpoch(c, arg(args, 0), 1) },
  { name: 'fromUnixTimestamp64Milli', minArgs: 1, maxArgs: 1, compile: (c, args) => fromEpoch(c, arg(args, 0), 1000) },
  {
    name: 'to_timestamp',
    minArgs: 1,
    maxArgs: 2,
    compile: (c, args) => {
      const value = fromEpoch(c, arg(args, 0), 1);
      return args.length > 1 ? { ...value, zone: timezoneName(arg(args, 1), 'to_timestamp') } : value;
    },
  },
  {
    name: 'monthName',
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => {
      const clk = clock(c, args, 1, 'monthName');
      return stringResult(sql`to_char(${wall(clk)}, 'FMMonth')`, clk);
    },
  },
  {
    name: 'dateName',
    minArgs: 2,
    maxArgs: 3,
    compile: (c, args) => {
      const part = constantWord(arg(args, 0), 'The part of dateName()', Object.keys(DATE_NAME_PARTS));
      const clk = clock(c, args.slice(1), 1, 'dateName');
      return stringResult(DATE_NAME_PARTS[part]!(wall(clk)), clk);
    },
  },
  {
    name: 'date_part',
    minArgs: 2,
    maxArgs: 2,
    compile: (c, args) => {
      const part = constantWord(arg(args, 0), 'The part of date_part()', Object.keys(DATE_PART_NAMES));
      const clk = clock(c, args.slice(1), 1, 'date_part');
      return intResult(sql`${DATE_PART_NAMES[part]!(wall(clk))}::bigint`, clk);
    },
  },
  {
    name: 'age',
    minArgs: 3,
    maxArgs: 3,
    compile: (c, args) => {
      // The whole units elapsed from the start to the end, on the wall clock: age('month', 31 January,
      // 28 February) is 0, where dateDiff counts the month boundary crossed.
      const unit = constantWord(arg(args, 0), 'The unit of age()', UNITS).replace(/s$/, '');
      const start = clock(c, args.slice(1, 2), 1, 'age');
      const end = clock(c, args.slice(2, 3), 1, 'age');
      const nullable = start.at.nullable || end.at.nullable;
      const aggregate = start.at.aggregate || end.at.aggregate;
      const seconds = AGE_UNITS[unit];
      if (seconds) {
        const elapsed = unit === 'day' || unit === 'week' ? sql`extract(epoch from (${wall(end)} - ${wall(start)}))` : sql`extract(epoch from (${end.at.sql} - ${start.at.sql}))`;
        return typed(sql`trunc(${elapsed} / ${keyword(seconds)})::bigint`, 'int', nullable, aggregate);
      }
      const span = sql`age(${wall(end)}, ${wall(start)})`;
      const months = sql`(extract(year from ${span}) * 12 + extract(month from ${span}))`;
      const per = keyword(unit === 'month' ? '1' : unit === 'quarter' ? '3' : '12');
      return typed(sql`trunc(${months} / ${per})::bigint`, 'int', nullable, aggregate);
    },
  },
  {
    name: 'timeZoneOf',
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => {
      const at = coerce(c.compile(arg(args, 0)), 'datetime', c.scope);
      return typed(at.zone ? param(at.zone, 'text') : timezoneParam(c.scope), 'string', false, at.aggregate);
    },
  },
  {
    name: 'timeZoneOffset',
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => {
      // Seconds east of UTC of the datetime's zone at that instant (summer time included).
      const clk = clock(c, args, 1, 'timeZoneOffset');
      return intResult(sql`extract(epoch from (${wall(clk)} - (${clk.at.sql} at time zone 'UTC')))::bigint`, clk);
    },
  },
  {
    name: 'yesterday',
    minArgs: 0,
    maxArgs: 0,
    compile: (c) => typed(sql`((now() at time zone ${timezoneParam(c.scope)})::date - 1)`, 'date', false),
  },
  alias('current_timestamp', 'now', 0, 0),
  alias('current_date', 'today', 0, 0),
  alias('date_diff', 'dateDiff', 3, 3),
  alias('date_trunc', 'dateTrunc', 2, 3),
  alias('to_char', 'formatDateTime', 2, 3),
  {
    name: 'timezone',
    minArgs: 2,
    maxArgs: 2,
    compile: (c, args) => c.call('toTimeZone', [arg(args, 1), arg(args, 0)]),
  },
  {
    name: 'toModifiedJulianDay',
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => {
      const day = coerce(c.compile(arg(args, 0)), 'date', c.scope);
      return typed(sql`(${day.sql} - date '1858-11-17')::bigint`, 'int', day.nullable, day.aggregate);
    },
  },
  {
    name: 'fromModifiedJulianDay',
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => {
      // PostHog maps it to the OrNull form: a day outside the years 1 to 9999 is NULL.
      const number = coerce(c.numeric(c.compile(arg(args, 0))), 'int', c.scope);
      return typed(sql`(case when ${number.sql} between -678575 and 2973483 then date '1858-11-17' + (${number.sql})::int end)`, 'date', true, number.aggregate);
    },
  },
  {
    name: 'make_date',
    minArgs: 3,
    maxArgs: 3,
    compile: (c, args) => {
      const date = madeDate(c, args);
      return typed(date.sql, 'date', true, date.parts.some((part) => part.aggregate));
    },
  },
  {
    name: 'make_timestamp',
    minArgs: 6,
    maxArgs: 7,
    compile: (c, args) => {
      const zoneName = args.length > 6 ? timezoneName(arg(args, 6), 'make_timestamp') : undefined;
      const value = madeDateTime(c, args, zoneName ? param(zoneName, 'text') : timezoneParam(c.scope));
      return zoneName ? { ...value, zone: zoneName } : value;
    },
  },
  {
    name: 'make_timestamptz',
    minArgs: 7,
    maxArgs: 7,
    compile: (c, args) => {
      // PostHog's toTimeZone(makeDateTime(…), tz): the parts read in the project's zone, shown in tz.
      const zoneName = timezoneName(arg(args, 6), 'make_timestamptz');
      return { ...madeDateTime(c, args, timezoneParam(c.scope)), zone: zoneName };
    },
  },
  {
    name: 'make_interval',
    minArgs: 6,
    maxArgs: 6,
    compile: (c, args) => {
      const units: IntervalUnit[] = ['year', 'month', 'day', 'hour', 'minute', 'second'];
      const parts = units.map((unit, index) => c.compile({ kind: 'interval', amount: arg(args, index), unit }));
      return parts.slice(1).reduce((sum, part) => c.arithmetic('+', sum, part), parts[0]!);
    },
  },
  {
    name: 'timeSlots',
    minArgs: 2,
    maxArgs: 3,
    compile: (c, args) => {
      // The half hours (or `size` seconds) from the start for `duration` seconds: a start, a duration and a size
      // that are constants, so that the list's length is known and bounded before the query runs.
      const size = args.length > 2 ? integerConstant(arg(args, 2), 'The size of timeSlots()', 1, 31_536_000) : 1800;
      const duration = integerConstant(arg(args, 1), 'The duration of timeSlots()', 0, 31_536_000);
      if (duration / size > 10_000) throw new HogQLError('timeSlots() may give at most 10000 slots.');
      const at = coerce(c.compile(arg(args, 0)), 'datetime', c.scope);
      const step = keyword(String(size));
      const first = sql`floor(extract(epoch from ${at.sql}) / ${step}) * ${step}`;
      const last = sql`(extract(epoch from ${at.sql}) + ${keyword(String(duration))})`;
      const slots = sql`(select coalesce(jsonb_agg(hogql_format_datetime(to_timestamp(slot)) order by slot), '[]'::jsonb) from generate_series(${first}, ${last}, ${step}) as slot)`;
      return arrayOf(slots, 'string', at.nullable, at.aggregate);
    },
  },
];

export const DATES: Family = {
  title: 'Dates and times',
  definitions: DEFINITIONS,
  unavailable: {
    toTime:
      "ClickHouse's toTime() changed meaning between versions (a DateTime on 1970-01-02, then a value of its Time type); there is no one answer to copy.",
    nowInBlock: 'ClickHouse reads the time once per block of rows it processes; PostgreSQL has no such blocks. Use now().',
    rowNumberInBlock: 'Blocks are how ClickHouse processes rows; PostgreSQL has no such blocks. Use row_number() OVER ().',
    rowNumberInAllBlocks: 'Blocks are how ClickHouse processes rows; PostgreSQL has no such blocks. Use row_number() OVER ().',
  },
};
