/**
 * The three shapes a capture payload takes, read into one envelope: a batch object `{api_key, batch, sent_at,
 * historical_migration}`, a bare array of events, or a single event. Also where the project API key comes
 * from and whether it is well-formed (PostHog's token checks), as pure functions.
 */
import { ExactInteger, isPlainObject } from '../../db/core/exact-json.js';
import { captureErrors, type TokenProblem } from './errors.js';
import { parseTimestamp } from './timestamps.js';

export interface Envelope {
  token: string;
  events: Record<string, unknown>[];
  /** The batch's `sent_at`; null when absent or unreadable. */
  sentAt: Date | null;
  /** Only a batch object can ask for it, as in PostHog. */
  historicalMigration: boolean;
}

/** The token's problem, or null when it has the shape of a project API key. */
export function tokenProblem(token: unknown): TokenProblem | null {
  if (typeof token !== 'string') return 'not_string';
  if (token === '') return 'empty';
  if (token.length > 64) return 'too_long';
  if (token.includes('\u0000')) return 'null_byte';
  if (!/^[\x20-\x7e]*$/.test(token)) return 'not_ascii';
  if (token.startsWith('phx_')) return 'personal_api_key';
  return null;
}

/** The token an event carries itself: `token`, `$token`, `api_key`, then `properties.token`. */
export function eventToken(event: Record<string, unknown>): unknown {
  const own = event.token ?? event.$token ?? event.api_key;
  if (own !== undefined && own !== null) return own;
  return isPlainObject(event.properties) ? event.properties.token : undefined;
}

export function normaliseToken(token: unknown): string {
  const trimmed = typeof token === 'string' ? token.trim() : token;
  const problem = tokenProblem(trimmed);
  if (problem) throw captureErrors.invalidToken(problem);
  return trimmed as string;
}

/** The fields of an event that hold a value to store (with `properties`, `$set` and `$set_once` inside). */
const EVENT_VALUE_FIELDS: ReadonlySet<string> = new Set(['distinct_id', '$distinct_id']);
const NO_FIELDS: ReadonlySet<string> = new Set();

/** An exact integer as a plain number; anything else as it is. */
const plainNumber = (value: unknown): unknown => (value instanceof ExactInteger ? Number(value.text) : value);

function withPlainNumbers(record: Record<string, unknown>, except: ReadonlySet<string>): void {
  for (const key in record) {
    if (record[key] instanceof ExactInteger && !except.has(key)) record[key] = plainNumber(record[key]);
  }
}

/**
 * The payload with integers beyond 2^53 as plain numbers again wherever they are not a value to store: the
 * payload or an event itself, the batch's own fields, and the events' fields other than the distinct id
 * (`offset`, or a number where an object or a string belongs). There the spec's checks and the reading of the
 * envelope take them as numbers, as before (db/core/exact-json.ts).
 */
export function withPlainNumbersOutsideValues(payload: unknown): unknown {
  const events = (list: unknown[]) => {
    for (let index = 0; index < list.length; index += 1) {
      if (list[index] instanceof ExactInteger) list[index] = plainNumber(list[index]);
      const event = list[index];
      if (isPlainObject(event)) withPlainNumbers(event, EVENT_VALUE_FIELDS);
    }
  };
  if (Array.isArray(payload)) {
    events(payload);
  } else if (isPlainObject(payload)) {
    if (!Array.isArray(payload.batch)) {
      withPlainNumbers(payload, EVENT_VALUE_FIELDS);
    } else {
      withPlainNumbers(payload, NO_FIELDS);
      events(payload.batch);
    }
  }
  return plainNumber(payload);
}

/**
 * Reads a decoded payload (valid against the spec's `CapturePayload`) into an envelope. A batch object's own
 * key wins over any key inside its events; otherwise every event that names a key must name the same one.
 */
export function readEnvelope(payload: unknown): Envelope {
  let events: Record<string, unknown>[];
  let batchToken: unknown;
  let sentAt: Date | null = null;
  let historicalMigration = false;
  if (Array.isArray(payload)) {
    events = payload as Record<string, unknown>[];
  } else if (isPlainObject(payload) && Array.isArray(payload.batch)) {
    events = payload.batch as Record<string, unknown>[];
    batchToken = payload.api_key ?? payload.token;
    sentAt = parseTimestamp(payload.sent_at);
    historicalMigration = payload.historical_migration === true;
  } else if (isPlainObject(payload)) {
    events = [payload];
  } else {
    throw captureErrors.notAnEnvelope();
  }
  if (events.length === 0) throw captureErrors.noEvent();

  let token: string | undefined;
  if (batchToken !== undefined && batchToken !== null) {
    token = normaliseToken(batchToken);
  } else {
    for (const event of events) {
      const candidate = eventToken(event);
      if (candidate === undefined || candidate === null) continue;
      const normalised = normaliseToken(candidate);
      if (token !== undefined && token !== normalised) throw captureErrors.inconsistentTokens();
      token = normalised;
    }
  }
  if (token === undefined) throw captureErrors.missingToken();
  return { token, events, sentAt, historicalMigration };
}
