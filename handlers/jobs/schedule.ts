/**
 * When a batch export's intervals end, computed without a database or a clock (the engine passes the instants).
 *
 * Sub-day intervals (hour, every 5 or 15 minutes) are fixed lengths counted from the Unix epoch plus the
 * export's offset, whatever its timezone: a Temporal interval schedule, which PostHog uses, does the same. Day
 * and week intervals are calendar steps in the export's timezone: they end at local midnight plus the offset
 * (offset_hour; for week also offset_day, Sunday = 0), so a day across a DST change lasts 23 or 25 hours.
 */
import type { BatchExportInterval } from '../../db/queries/batch-exports/rows.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The nominal length of each interval (a calendar day or week may differ by an hour across DST). */
export const INTERVAL_MS: Record<BatchExportInterval, number> = {
  hour: HOUR,
  day: DAY,
  week: 7 * DAY,
  'every 5 minutes': 5 * MINUTE,
  'every 15 minutes': 15 * MINUTE,
};

/** What the schedule math needs of an export row. */
export interface ExportSchedule {
  interval: BatchExportInterval;
  timezone: string;
  /** Seconds after the interval's natural start: offset_day * 86400 + offset_hour * 3600. */
  intervalOffset: number;
}

export interface Window {
  /** Null only for a backfill from the beginning of the data. */
  start: Date | null;
  end: Date;
}

const calendarDays = (interval: BatchExportInterval): number => (interval === 'day' ? 1 : interval === 'week' ? 7 : 0);

// ---- local time in an IANA timezone, with Intl only -------------------------------------------------------------

interface LocalTime {
  year: number;
  month: number; // 1-12
  day: number;
  /** Milliseconds since local midnight. */
  timeOfDay: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timezone: string): Intl.DateTimeFormat {
  let format = formatters.get(timezone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timezone, format);
  }
  return format;
}

/** Whether Intl knows the timezone (the API validates it; the engine falls back to UTC for one it cannot use). */
export function isKnownTimezone(timezone: string): boolean {
  try {
    formatter(timezone);
    return true;
  } catch {
    return false;
  }
}

function localTime(instant: number, timezone: string): LocalTime {
  const parts: Record<string, number> = {};
  for (const part of formatter(timezone).formatToParts(new Date(instant))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const ms = ((instant % 1000) + 1000) % 1000;
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    timeOfDay: ((parts.hour! * 60 + parts.minute!) * 60 + parts.second!) * 1000 + ms,
  };
}

const wallClock = (local: LocalTime): number => Date.UTC(local.year, local.month - 1, local.day) + local.timeOfDay;

/** The zone's offset from UTC at an instant, in milliseconds. */
function offsetAt(instant: number, timezone: string): number {
  return wallClock(localTime(instant, timezone)) - instant;
}

/**
 * The instant a local wall-clock time names. A time that happens twice (clocks going back) is its first
 * occurrence; a time that never happens (clocks going forward) is moved forward by the gap, as most calendars do.
 */
export function zonedInstant(local: LocalTime, timezone: string): number {
  const wall = wallClock(local);
  const before = offsetAt(wall - DAY, timezone);
  const after = offsetAt(wall + DAY, timezone);
  const candidates = [wall - before, wall - after].filter((instant) => wallClock(localTime(instant, timezone)) === wall);
  if (candidates.length > 0) return Math.min(...candidates);
  return wall - before;
}

/** The local date `days` after `local`'s, at `timeOfDay`. */
function addLocalDays(local: LocalTime, days: number, timeOfDay: number): LocalTime {
  const date = new Date(Date.UTC(local.year, local.month - 1, local.day + days));
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate(), timeOfDay };
}

const weekday = (local: LocalTime): number => new Date(Date.UTC(local.year, local.month - 1, local.day)).getUTCDay();

// ---- scheduled interval ends ------------------------------------------------------------------------------------

/**
 * The interval ends in (after, until], oldest first, at most `limit` of them.
 */
export function intervalEndsBetween(schedule: ExportSchedule, after: Date, until: Date, limit = Infinity): Date[] {
  const ends: Date[] = [];
  const from = after.getTime();
  const to = until.getTime();
  if (!(to > from) || limit <= 0) return ends;
  const offsetMs = schedule.intervalOffset * 1000;
  const days = calendarDays(schedule.interval);
  if (days === 0) {
    const step = INTERVAL_MS[schedule.interval];
    for (let end = (Math.floor((from - offsetMs) / step) + 1) * step + offsetMs; end <= to && ends.length < limit; end += step) {
      ends.push(new Date(end));
    }
    return ends;
  }
  const timeOfDay = offsetMs % DAY;
  const offsetDay = Math.floor(offsetMs / DAY) % 7;
  // Start a step before `after`'s local date (on the right weekday for week), then walk forward in local days.
  let date = addLocalDays(localTime(from, schedule.timezone), -days, timeOfDay);
  if (days === 7) date = addLocalDays(date, -((weekday(date) - offsetDay + 7) % 7), timeOfDay);
  for (;;) {
    const end = zonedInstant(date, schedule.timezone);
    if (end > to || ends.length >= limit) return ends;
    if (end > from) ends.push(new Date(end));
    date = addLocalDays(date, days, timeOfDay);
  }
}

/** The start of the scheduled interval that ends at `end`: the previous end (a local calendar step for day/week). */
export function intervalStart(schedule: ExportSchedule, end: Date): Date {
  const days = calendarDays(schedule.interval);
  if (days === 0) return new Date(end.getTime() - INTERVAL_MS[schedule.interval]);
  const local = localTime(end.getTime(), schedule.timezone);
  return new Date(zonedInstant(addLocalDays(local, -days, local.timeOfDay), schedule.timezone));
}

/** `instant` moved back to the latest interval end at or before it. */
export function floorToInterval(schedule: ExportSchedule, instant: Date): Date | null {
  const back = new Date(instant.getTime() - 2 * INTERVAL_MS[schedule.interval] - 2 * HOUR);
  const ends = intervalEndsBetween(schedule, back, instant);
  return ends.length > 0 ? ends[ends.length - 1]! : null;
}

// ---- backfill windows -------------------------------------------------------------------------------------------

/**
 * A backfill's windows: consecutive [start, start + step) from `start`, oldest first, the last one ending at or
 * before `end`; a final window shorter than a step is dropped. Day and week steps are taken in local time. With
 * no start there is one window from the beginning of the data to `end`.
 */
export function backfillWindows(schedule: ExportSchedule, start: Date | null, end: Date, limit = Infinity): Window[] {
  if (start === null) return [{ start: null, end }];
  const windows: Window[] = [];
  const days = calendarDays(schedule.interval);
  const step = INTERVAL_MS[schedule.interval];
  let from = start.getTime();
  let local = localTime(from, schedule.timezone);
  while (windows.length < limit) {
    let to: number;
    if (days === 0) {
      to = from + step;
    } else {
      local = addLocalDays(local, days, local.timeOfDay);
      to = zonedInstant(local, schedule.timezone);
    }
    if (to > end.getTime()) break;
    windows.push({ start: new Date(from), end: new Date(to) });
    from = to;
  }
  return windows;
}
