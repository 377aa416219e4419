/**
 * When an event happened, as PostHog decides it: the client's `timestamp` corrected for the client's clock skew
 * with `sent_at`, or `offset` milliseconds before the request arrived, or the time it arrived; never more than
 * 23 hours in the future.
 */
import type { IngestionWarning } from '../../db/queries/ingestion-types.js';

const HOUR_MS = 60 * 60 * 1000;
/** Events dated further ahead than this are clamped to the time they arrived. */
export const MAX_FUTURE_MS = 23 * HOUR_MS;
/** `_` query values below this (2021-01-01) are not milliseconds (seconds, say) and are ignored. */
export const MIN_SENT_AT_MS = Date.UTC(2021, 0, 1);

const CANONICAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;
const ISO_LIKE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

function isoLike(text: string): Date | null {
  const match = ISO_LIKE.exec(text);
  if (!match) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '', zone] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return null;
  const millis = Math.floor(Number(`0.${fraction || '0'}`) * 1000);
  let epoch = Date.UTC(year, month - 1, day, hour, minute, Math.min(second, 59), millis);
  const check = new Date(epoch);
  if (check.getUTCDate() !== day) return null; // 2024-02-30 and the like
  if (zone && zone.toUpperCase() !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const offsetMinutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || '0');
    epoch -= sign * offsetMinutes * 60_000;
  }
  return new Date(epoch);
}

/** A timestamp as SDKs send it: ISO 8601 or RFC 3339 (no zone = UTC), RFC 2822, or an epoch in s or ms. */
export function parseTimestamp(value: unknown): Date | null {
  if (typeof value === 'number') return Number.isFinite(value) ? epochDate(value, String(Math.trunc(value))) : null;
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (text === '') return null;
  if (/^-?\d+(\.\d+)?$/.test(text)) return epochDate(Number(text), text.split('.')[0]!.replace('-', ''));
  // The usual case (SDKs send `toISOString()`): V8 parses it fast and exactly.
  if (CANONICAL.test(text)) {
    const date = new Date(Date.parse(text));
    return date.getUTCDate() === Number(text.slice(8, 10)) ? date : null; // not 2026-02-30
  }
  const iso = isoLike(text);
  if (iso) return iso;
  if (!/[a-z]/i.test(text)) return null; // digits and punctuation that are not ISO: not a date
  const parsed = Date.parse(text);
  return Number.isNaN(parsed) ? null : new Date(parsed);
}

/** Epoch numbers of up to 11 integer digits are seconds, longer ones milliseconds (as PostHog reads them). */
function epochDate(value: number, integerDigits: string): Date | null {
  const millis = integerDigits.length <= 11 ? value * 1000 : value;
  const date = new Date(millis);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The `_` query parameter as a sent-at time, when it is plausible milliseconds. */
export function sentAtFromQuery(value: unknown): Date | null {
  const millis = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  if (!Number.isFinite(millis) || millis < MIN_SENT_AT_MS) return null;
  // Beyond the range of dates (8.64e15 ms) it would be an Invalid Date, which a future event's warning cannot write.
  const date = new Date(millis);
  return Number.isNaN(date.getTime()) ? null : date;
}

export interface TimestampInput {
  timestamp: unknown;
  offset: unknown;
  sentAt: Date | null;
  now: Date;
  ignoreSentAt: boolean;
}

export function eventTimestamp(input: TimestampInput): { timestamp: Date; warnings: IngestionWarning[] } {
  const { now, sentAt } = input;
  const warnings: IngestionWarning[] = [];
  // In milliseconds until the end: a far offset can point beyond what a Date holds, and must still be clamped.
  let resultMs = now.getTime();
  const hasTimestamp = input.timestamp !== undefined && input.timestamp !== null && input.timestamp !== '';
  const hasOffset = typeof input.offset === 'number' && Number.isFinite(input.offset);
  if (hasTimestamp) {
    const parsed = parseTimestamp(input.timestamp);
    if (parsed) {
      // The client's clock may be wrong; the interval between the event and the sending is not.
      resultMs = sentAt && !input.ignoreSentAt ? now.getTime() + (parsed.getTime() - sentAt.getTime()) : parsed.getTime();
    } else if (!hasOffset) {
      warnings.push({ type: 'ignored_invalid_timestamp', details: { timestamp: String(input.timestamp) } });
    }
  }
  if (hasOffset) resultMs = now.getTime() - (input.offset as number);
  if (resultMs - now.getTime() > MAX_FUTURE_MS) {
    const beyond = new Date(resultMs);
    warnings.push({
      type: 'event_timestamp_in_future',
      details: {
        timestamp: hasTimestamp ? String(input.timestamp) : null,
        sentAt: sentAt?.toISOString() ?? null,
        offset: hasOffset ? input.offset : null,
        result: Number.isNaN(beyond.getTime()) ? null : beyond.toISOString(),
      },
    });
    resultMs = now.getTime();
  }
  let result = new Date(resultMs);
  const year = result.getUTCFullYear();
  if (Number.isNaN(year) || year < 0 || year > 9999) result = new Date(0);
  return { timestamp: result, warnings };
}
