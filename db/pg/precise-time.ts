/**
 * timestamptz values to the microsecond. PostgreSQL stores microseconds; pg parses a timestamptz into a Date,
 * which holds milliseconds. Where the rest must survive (the files a batch export writes carry microseconds, as
 * PostHog's do), a query reads with PRECISE_TIME_TYPES: a value with microseconds below the millisecond comes
 * back as a PreciseDate, which is a Date (every use of one keeps working) that also knows them.
 */
import pg from 'pg';

const TIMESTAMPTZ_OID = 1184;

export class PreciseDate extends Date {
  /** The microseconds below the millisecond, 0 to 999. */
  readonly microsBelowMilli: number;

  constructor(epochMillis: number, microsBelowMilli: number) {
    super(epochMillis);
    this.microsBelowMilli = microsBelowMilli;
  }
}

/** The microseconds of a date since its second: a Date's milliseconds, and what a PreciseDate holds below them. */
export function microsOfSecond(date: Date): number {
  return date.getUTCMilliseconds() * 1000 + (date instanceof PreciseDate ? date.microsBelowMilli : 0);
}

/** Microseconds since the epoch, exactly. */
export function epochMicros(date: Date): bigint {
  return BigInt(date.getTime()) * 1000n + BigInt(date instanceof PreciseDate ? date.microsBelowMilli : 0);
}

const FRACTION = /:\d{2}\.(\d{1,6})/;

function parseTimestamptz(text: string): unknown {
  const parsed = pg.types.getTypeParser(TIMESTAMPTZ_OID, 'text')(text) as unknown;
  if (!(parsed instanceof Date) || Number.isNaN(parsed.getTime())) return parsed;
  const digits = FRACTION.exec(text)?.[1];
  const below = digits ? Number(digits.padEnd(6, '0').slice(3)) : 0;
  return below === 0 ? parsed : new PreciseDate(parsed.getTime(), below);
}

/** pg's type parsers, with timestamptz read to the microsecond (a query config's `types`). */
export const PRECISE_TIME_TYPES = {
  getTypeParser: (oid: number, format: string): unknown =>
    oid === TIMESTAMPTZ_OID && format !== 'binary' ? parseTimestamptz : pg.types.getTypeParser(oid, format as 'text'),
};
