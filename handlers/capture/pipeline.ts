/**
 * One capture request, from its bytes to its acknowledgement:
 *
 *   decode (gzip, form, base64, lz64 → JSON bytes, held against the memory budget) → project API key →
 *   project lookup → each event: parse, check against the spec's `CaptureEvent`, normalise (or drop it with a
 *   reason) → store (the group commit, ingest.ts) → done
 *
 * A small payload is parsed whole and checked against `CapturePayload` before its key is looked at, as it
 * always was. A large one (a batch; or an attack: 25 KB of gzip can hold millions of empty events) is read
 * event by event (json-scan.ts), so that:
 *   - its key is checked before any event is parsed: a request without a key, or with a wrong one, costs the
 *     inflating and a scan of the bytes, never the events;
 *   - the work pauses between events every few milliseconds, so no request holds the event loop for long;
 *   - each event is let go once normalised, and one event may be at most MAX_EVENT_BYTES (413, as PostHog's
 *     per-event limit), so nothing grows with the number of events but the events stored.
 *
 * Storing decides the answer: resolved means every event of the request is stored, a rejection carries the
 * ApiError to answer.
 */
import type { ValidateFunction } from 'ajv';
import { isUtf8 } from 'node:buffer';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ENVIRONMENT_GONE } from '../../db/queries/ingestion.js';
import type { ApiError } from '../../db/core/errors.js';
import { MAX_JSON_DEPTH } from '../../db/core/json-limits.js';
import { payloadError } from '../openapi/validation-errors.js';
import type { BudgetLease } from './budget.js';
import { decompressPayload, parseJsonText, parsePayload, type EncodedRequest } from './decode.js';
import { eventToken, normaliseToken, readEnvelope, withPlainNumbersOutsideValues } from './envelope.js';
import { captureErrors } from './errors.js';
import { JsonStructureError, arrayItems, objectMembers, topLevelArray, topLevelKind, type Range } from './json-scan.js';
import type { CaptureMetrics } from './metrics.js';
import { normaliseEvent, toStoredEvent, type NormaliseContext } from './normalise.js';
import { parseTimestamp, sentAtFromQuery } from './timestamps.js';
import type { ProjectTokens } from './tokens.js';
import type { IngestionWarning } from '../../db/queries/ingestion-types.js';
import type { DropReason, IngestRequest, Normalised, StoredEvent } from './types.js';
import { uuidv7 } from '../../db/core/uuid.js';

/** Payloads up to this size are parsed whole; larger ones event by event. */
export const WHOLE_PAYLOAD_MAX_BYTES = 64 * 1024;

/** One event's JSON may be at most this large (PostHog's capture: its Kafka message limit). */
export const MAX_EVENT_BYTES = 1_000_000;

/** A batch's own fields (its key, `sent_at`, …) are small; anything larger is not a capture payload. */
const MAX_BATCH_FIELD_BYTES = 64 * 1024;

/** Warnings stored per request; beyond them one warning counts the rest (millions of dropped events need not be millions of rows). */
export const MAX_WARNINGS_PER_REQUEST = 100;

/**
 * What reading a payload event by event holds in memory, per byte of its JSON, beyond the bytes themselves:
 * the events normalised for storing and their rows for the database. Measured with several large batches of
 * small events at once: about ten bytes held per byte of JSON in all, the JSON's own byte included.
 */
export const EVENT_MEMORY_FACTOR = 8;

/** How long reading events may hold the event loop before it lets other requests in. */
const SLICE_MS = 5;

/** A capture request as the lane hands it over. */
export interface CaptureRequest extends EncodedRequest {
  /** `/engage/` reads an event without a name as `$identify`. */
  engage: boolean;
  /** What the request holds of capture's memory budget (the lane releases it once answered). */
  lease: BudgetLease | null;
}

export interface CapturePipeline {
  validatePayload: ValidateFunction;
  validateEvent: ValidateFunction;
  validateBatch: ValidateFunction;
  tokens: ProjectTokens;
  /** Resolves once the request's events are committed. */
  store: (request: IngestRequest) => Promise<void>;
  metrics: CaptureMetrics;
}

/** The events of a request as they are normalised: what to store, the warnings, and the drops by reason. */
class Collected {
  readonly events: StoredEvent[] = [];
  readonly warnings: IngestionWarning[] = [];
  readonly dropped = new Map<DropReason, number>();
  received = 0;
  private omittedWarnings = 0;
  private emptyOutcome: Normalised | undefined;

  constructor(private readonly context: NormaliseContext) {}

  add(raw: Record<string, unknown>): void {
    this.record(normaliseEvent(raw, this.context));
  }

  /** An event that is `{}`: one outcome, worked out once (a flood of them costs a comparison each). */
  addEmpty(): void {
    this.emptyOutcome ??= normaliseEvent({}, this.context);
    this.record(this.emptyOutcome);
  }

  private record(outcome: Normalised): void {
    this.received += 1;
    for (const warning of outcome.warnings) {
      if (this.warnings.length < MAX_WARNINGS_PER_REQUEST) this.warnings.push(warning);
      else this.omittedWarnings += 1;
    }
    if (outcome.kind === 'ingest') this.events.push(toStoredEvent(outcome.event));
    else this.dropped.set(outcome.reason, (this.dropped.get(outcome.reason) ?? 0) + 1);
  }

  allWarnings(): IngestionWarning[] {
    if (this.omittedWarnings === 0) return this.warnings;
    return [...this.warnings, { type: 'warnings_omitted', details: { omitted: this.omittedWarnings, kept: MAX_WARNINGS_PER_REQUEST } }];
  }
}

function contextOf(request: CaptureRequest, sentAt: Date | null, historicalMigration: boolean): NormaliseContext {
  const now = new Date();
  return {
    now,
    sentAt: sentAt ?? sentAtFromQuery(request.query._),
    historicalMigration,
    engage: request.engage,
    newUuid: () => uuidv7(now.getTime()),
  };
}

export async function capture(pipeline: CapturePipeline, request: CaptureRequest): Promise<void> {
  const bytes = await decompressPayload(request, undefined, request.lease);
  const { environmentId, token, collected } =
    bytes.length <= WHOLE_PAYLOAD_MAX_BYTES || topLevelKind(bytes) === 'other'
      ? await readWhole(pipeline, request, bytes)
      : await readEventByEvent(pipeline, request, bytes);
  pipeline.metrics.received.add(collected.received);
  try {
    await pipeline.store({ teamId: environmentId, events: collected.events, warnings: collected.allWarnings() });
  } catch (error) {
    // The project was deleted after its key was looked up (and cached): its key is no longer valid.
    if ((error as { code?: unknown }).code !== ENVIRONMENT_GONE) throw error;
    pipeline.tokens.forget(token);
    throw captureErrors.unknownToken();
  }
  // Counted once stored: a request refused with 503 will be sent again.
  for (const [reason, count] of collected.dropped) pipeline.metrics.drop(reason, count);
}

interface ReadPayload {
  environmentId: number;
  token: string;
  collected: Collected;
}

async function environmentOf(pipeline: CapturePipeline, token: string): Promise<number> {
  const environmentId = await pipeline.tokens.environmentId(token);
  if (environmentId === null) throw captureErrors.unknownToken();
  return environmentId;
}

async function readWhole(pipeline: CapturePipeline, request: CaptureRequest, bytes: Buffer): Promise<ReadPayload> {
  const payload = withPlainNumbersOutsideValues(parsePayload(bytes));
  if (!pipeline.validatePayload(payload)) throw payloadError(pipeline.validatePayload.errors);
  const envelope = readEnvelope(payload);
  const environmentId = await environmentOf(pipeline, envelope.token);
  const collected = new Collected(contextOf(request, envelope.sentAt, envelope.historicalMigration));
  for (const raw of envelope.events) collected.add(raw);
  return { environmentId, token: envelope.token, collected };
}

/**
 * Whether the bytes could name a project API key at all: a key is the value of a member named `token`,
 * `$token` or `api_key`, and those names appear as such in the text unless written with `\u` escapes.
 */
function mayHoldToken(bytes: Buffer): boolean {
  return bytes.includes('token') || bytes.includes('api_key') || bytes.includes('\\u');
}

/** A structural error of the JSON as the 400 of malformed JSON; anything else as it is. */
function structureError(error: unknown): unknown {
  return error instanceof JsonStructureError || error instanceof SyntaxError ? captureErrors.malformed(`Invalid JSON: ${error.message}`) : error;
}

/** Runs `read`, with its structural errors as the 400 of malformed JSON. */
function structure<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw structureError(error);
  }
}

/** A validation failure of one event, named by its place in the payload (as the whole payload's check names it). */
function eventError(validate: ValidateFunction, prefix: string): ApiError {
  return payloadError((validate.errors ?? []).map((error) => ({ ...error, instancePath: `${prefix}${error.instancePath}` })));
}

async function readEventByEvent(pipeline: CapturePipeline, request: CaptureRequest, bytes: Buffer): Promise<ReadPayload> {
  if (!mayHoldToken(bytes)) throw captureErrors.missingToken();
  await request.lease?.turnForLargeWork();
  let items: Range;
  let placeOf: (index: number) => string;
  let depth: number;
  let token: string | undefined;
  let environmentId: number | undefined;
  /** A batch's own key wins over any key inside its events. */
  let keyOfBatch = false;
  let sentAt: Date | null = null;
  let historicalMigration = false;

  if (topLevelKind(bytes) === 'object') {
    // A name given twice keeps its last value, as JSON.parse does. A key met before the events (as posthog-node
    // sends it) is checked before the rest is even scanned: a wrong one costs nothing more.
    const members = new Map<string, Range>();
    const scan = objectMembers(bytes, () => nextTurn());
    for (;;) {
      const next = await scan.next().catch((error: unknown) => {
        throw structureError(error);
      });
      if (next.done) break;
      const [name, range] = next.value;
      members.delete(name);
      members.set(name, range);
      if (name === 'api_key' && bytes[range.start] === 0x22 && range.end - range.start <= MAX_BATCH_FIELD_BYTES) {
        const named = normaliseToken(parseJsonText(bytes, range.start, range.end, 1));
        if ((await pipeline.tokens.environmentId(named)) === null) throw captureErrors.unknownToken();
      }
    }
    const batch = members.get('batch');
    if (!batch || bytes[batch.start] !== 0x5b) {
      // One event: parsed whole, within the size of one event.
      if (bytes.length > MAX_EVENT_BYTES) throw captureErrors.eventTooBig(MAX_EVENT_BYTES);
      return readWhole(pipeline, request, bytes);
    }
    const fields: Record<string, unknown> = {};
    for (const [name, range] of members) {
      if (name === 'batch') continue;
      if (range.end - range.start > MAX_BATCH_FIELD_BYTES) {
        throw captureErrors.malformed(`the batch's field "${name}" is larger than ${MAX_BATCH_FIELD_BYTES} bytes.`);
      }
      fields[name] = parseJsonText(bytes, range.start, range.end, MAX_JSON_DEPTH - 1);
    }
    const head = withPlainNumbersOutsideValues({ ...fields, batch: [] }) as Record<string, unknown>;
    if (!pipeline.validateBatch(head)) throw payloadError(pipeline.validateBatch.errors);
    const batchToken = head.api_key ?? head.token;
    if (batchToken !== undefined && batchToken !== null) {
      token = normaliseToken(batchToken);
      environmentId = await environmentOf(pipeline, token);
      keyOfBatch = true;
    }
    sentAt = parseTimestamp(head.sent_at);
    historicalMigration = head.historical_migration === true;
    items = batch;
    placeOf = (index) => `/batch/${index}`;
    depth = 2;
  } else {
    items = structure(() => topLevelArray(bytes));
    placeOf = (index) => `/${index}`;
    depth = 1;
  }

  // Held once the key is known to be good, before the events' memory is: a request with a wrong key never waits for it.
  let heldForEvents = false;
  const holdForEvents = async () => {
    heldForEvents = true;
    await request.lease?.grow(bytes.length * EVENT_MEMORY_FACTOR);
  };
  if (environmentId !== undefined) await holdForEvents();
  const collected = new Collected(contextOf(request, sentAt, historicalMigration));
  if (!isUtf8(bytes)) throw captureErrors.malformed('invalid UTF-8 in request payload.');
  const itemsOfBatch = structure(() => arrayItems(bytes, items));
  let index = 0;
  let sliceStarted = performance.now();
  for (;;) {
    let next: IteratorResult<Readonly<Range>>;
    try {
      next = itemsOfBatch.next();
    } catch (error) {
      throw structureError(error);
    }
    if (next.done) break;
    const range = next.value;
    if (range.end - range.start > MAX_EVENT_BYTES) throw captureErrors.eventTooBig(MAX_EVENT_BYTES);
    if (range.end - range.start === 2 && bytes[range.start + 1] === 0x7d) {
      collected.addEmpty();
    } else {
      const raw = withPlainNumbersOutsideValues(parseJsonText(bytes, range.start, range.end, MAX_JSON_DEPTH - depth, true));
      if (!pipeline.validateEvent(raw)) throw eventError(pipeline.validateEvent, placeOf(index));
      const event = raw as Record<string, unknown>;
      if (!keyOfBatch) {
        // Every event that names a key must name the same one; the first one named is checked at once.
        const candidate = eventToken(event);
        if (candidate !== undefined && candidate !== null) {
          const named = normaliseToken(candidate);
          if (token === undefined) {
            token = named;
            environmentId = await environmentOf(pipeline, token);
            if (!heldForEvents) await holdForEvents();
          } else if (named !== token) {
            throw captureErrors.inconsistentTokens();
          }
        }
      }
      collected.add(event);
    }
    index += 1;
    if ((index & 255) === 0 && performance.now() - sliceStarted > SLICE_MS) {
      await nextTurn();
      sliceStarted = performance.now();
    }
  }
  if (index === 0) throw captureErrors.noEvent();
  if (token === undefined || environmentId === undefined) throw captureErrors.missingToken();
  return { environmentId, token, collected };
}
