/**
 * Dates and times written by clients: ISO 8601 (with or without a time and an offset) and PostHog's relative forms
 * (`-7d`, `-1h`, `-30M`). Parsed here, in code, so that PostgreSQL only ever receives well-formed values.
 */

export type DateTimeText =
  /** `YYYY-MM-DD`: a calendar day. */
  | { kind: 'date'; text: string }
  /** A date and time without an offset: a wall-clock time, read in the project's timezone. */
  | { kind: 'naive'; text: string }
  /** A point in time (it had an offset, `Z`, or was relative to now). */
  | { kind: 'instant'; text: string };

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const RELATIVE = /^-?(\d{1,6})?([smhHdwmqyM])(Start|End)?$/;

/** Midnight UTC of a calendar day. (Not Date.UTC, which reads the years 0-99 as 1900-1999.) */
function utcDay(year: number, monthIndex: number, day: number): Date {
  const date = new Date(0);
  date.setUTCFullYear(year, monthIndex, day);
  return date;
}

/** A day of the years 1-9999 (PostgreSQL has no year 0; ISO 8601 text has four digits). */
function validDate(year: number, month: number, day: number): boolean {
  if (year < 1) return false;
  const date = utcDay(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * `months` calendar months before `date`, its day of the month kept or, past the end of the shorter month,
 * clamped to that month's last day: a month before 31 March is 29 February (PostHog's relativedelta), not 2 March.
 */
function monthsBefore(date: Date, months: number): void {
  const total = date.getUTCFullYear() * 12 + date.getUTCMonth() - months;
  const year = Math.floor(total / 12);
  const monthIndex = total - year * 12;
  const lastDay = utcDay(year, monthIndex + 1, 0).getUTCDate();
  date.setUTCFullYear(year, monthIndex, Math.min(date.getUTCDate(), lastDay));
}

/** Parses an ISO 8601 date or date-time; null when it is not one (or names an impossible day or time). */
export function parseIsoDateTime(input: string): DateTimeText | null {
  const match = ISO.exec(input.trim());
  if (!match) return null;
  const [, year, month, day, hour, minute, second, fraction, offset] = match;
  if (!validDate(Number(year), Number(month), Number(day))) return null;
  if (hour === undefined) {
    if (offset) return null;
    return { kind: 'date', text: `${year}-${month}-${day}` };
  }
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second ?? 0) > 59) return null;
  // PostgreSQL keeps microseconds: longer fractions are cut rather than rounded past a second boundary.
  const micros = fraction ? fraction.slice(0, 7) : '';
  const time = `${year}-${month}-${day}T${hour}:${minute}:${second ?? '00'}${micros}`;
  if (!offset) return { kind: 'naive', text: time };
  const zone = offset.toUpperCase() === 'Z' ? 'Z' : offset.length === 3 ? `${offset}:00` : offset.replace(/^([+-]\d{2})(\d{2})$/, '$1:$2');
  if (zone !== 'Z' && (Number(zone.slice(1, 3)) > 23 || Number(zone.slice(4, 6)) > 59)) return null;
  return { kind: 'instant', text: `${time}${zone}` };
}

/** The wall clock of an instant in a time zone (UTC for a name this Node does not know): year, month, day, hour. */
function wallClock(instant: Date, timezone: string): [number, number, number, number] {
  const options: Intl.DateTimeFormatOptions = { hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric' };
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', { ...options, timeZone: timezone });
  } catch {
    format = new Intl.DateTimeFormat('en-US', { ...options, timeZone: 'UTC' });
  }
  const parts = format.formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((item) => item.type === type)?.value);
  return [part('year'), part('month'), part('day'), part('hour')];
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/**
 * `Start` or `End` of the hour, day, month or year of an instant, on the project's wall clock (PostHog's
 * `-1dStart`, `mEnd`), as a time the compiler reads in the project's timezone. Other units take no position in
 * PostHog: the instant itself.
 */
function positioned(instant: Date, unit: string, position: 'Start' | 'End', timezone: string): DateTimeText {
  if (!'hHdmy'.includes(unit)) return { kind: 'instant', text: instant.toISOString() };
  const [year, month, day, hour] = wallClock(instant, timezone);
  const start = position === 'Start';
  const date =
    unit === 'y'
      ? `${pad(year, 4)}-${start ? '01-01' : '12-31'}`
      : `${pad(year, 4)}-${pad(month)}-${pad(unit !== 'm' ? day : start ? 1 : utcDay(year, month, 0).getUTCDate())}`;
  const time = unit === 'h' || unit === 'H' ? `${pad(hour)}:${start ? '00:00' : '59:59'}` : start ? '00:00:00' : '23:59:59';
  return { kind: 'naive', text: `${date}T${time}${start ? '' : '.999999'}` };
}

/**
 * PostHog's relative dates: `-<n><unit>` before now, unit s (seconds), M (minutes), h/H (hours), d (days),
 * w (weeks), m (months), q (quarters), y (years); without `<n>`, now. A `Start` or `End` suffix moves it to the
 * start or end of its hour, day, month or year in the project's `timezone`.
 */
export function parseRelativeDateTime(input: string, now: Date = new Date(), timezone = 'UTC'): DateTimeText | null {
  const match = RELATIVE.exec(input.trim());
  if (!match) return null;
  const amount = Number(match[1] ?? 0);
  const unit = match[2]!;
  const date = new Date(now.getTime());
  switch (unit) {
    case 's':
      date.setUTCSeconds(date.getUTCSeconds() - amount);
      break;
    case 'M':
      date.setUTCMinutes(date.getUTCMinutes() - amount);
      break;
    case 'h':
    case 'H':
      date.setUTCHours(date.getUTCHours() - amount);
      break;
    case 'd':
      date.setUTCDate(date.getUTCDate() - amount);
      break;
    case 'w':
      date.setUTCDate(date.getUTCDate() - 7 * amount);
      break;
    case 'm':
      monthsBefore(date, amount);
      break;
    case 'q':
      monthsBefore(date, 3 * amount);
      break;
    default:
      monthsBefore(date, 12 * amount);
  }
  const year = date.getUTCFullYear(); // NaN when the date went beyond what a Date holds
  if (!(year >= 1 && year <= 9999)) return null;
  const position = match[3] as 'Start' | 'End' | undefined;
  return position ? positioned(date, unit, position, timezone) : { kind: 'instant', text: date.toISOString() };
}

/** An ISO 8601 value or a relative one (`timezone`: the project's, for a relative one's Start or End). */
export function parseDateTimeInput(input: string, now?: Date, timezone?: string): DateTimeText | null {
  return parseIsoDateTime(input) ?? parseRelativeDateTime(input, now, timezone);
}
