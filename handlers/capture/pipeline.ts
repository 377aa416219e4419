/**
 * One capture request, from its bytes to its acknowledgement:
 *
 *   decode (gzip, form, base64, lz64 → JSON) → check against the spec's `CapturePayload` → envelope and project
 *   API key → project lookup → normalise each event (or drop it with a reason) → store (the group commit,
 *   ingest.ts) → done
 *
 * Everything before storing is a pure function of the request and the clock; storing decides the answer:
 * resolved means every event of the request is stored, a rejection carries the ApiError to answer.
 */
import type { ValidateFunction } from 'ajv';
import { ENVIRONMENT_GONE } from '../../db/queries/ingestion.js';
import { payloadError } from '../spec-validators.js';
import { decodePayload, type EncodedRequest } from './decode.js';
import { readEnvelope, tokenErrors, withPlainNumbersOutsideValues } from './envelope.js';
import type { CaptureMetrics } from './metrics.js';
import { normaliseEvent, toStoredEvent } from './normalise.js';
import { sentAtFromQuery } from './timestamps.js';
import type { ProjectTokens } from './tokens.js';
import type { DropReason, IngestRequest, IngestionWarning, StoredEvent } from './types.js';
import { uuidv7 } from './uuid.js';

/** A capture request as the lane hands it over. */
export interface CaptureRequest extends EncodedRequest {
  /** `/engage/` reads an event without a name as `$identify`. */
  engage: boolean;
}

export interface CapturePipeline {
  validatePayload: ValidateFunction;
  tokens: ProjectTokens;
  /** Resolves once the request's events are committed. */
  store: (request: IngestRequest) => Promise<void>;
  metrics: CaptureMetrics;
}

export async function capture(pipeline: CapturePipeline, request: CaptureRequest): Promise<void> {
  const payload = withPlainNumbersOutsideValues(await decodePayload(request));
  if (!pipeline.validatePayload(payload)) throw payloadError(pipeline.validatePayload.errors);
  const envelope = readEnvelope(payload);
  const environmentId = await pipeline.tokens.environmentId(envelope.token);
  if (environmentId === null) throw tokenErrors.unknown();

  const now = new Date();
  const context = {
    now,
    sentAt: envelope.sentAt ?? sentAtFromQuery(request.query._),
    historicalMigration: envelope.historicalMigration,
    engage: request.engage,
    newUuid: () => uuidv7(now.getTime()),
  };
  const events: StoredEvent[] = [];
  const warnings: IngestionWarning[] = [];
  const dropped: DropReason[] = [];
  for (const raw of envelope.events) {
    const outcome = normaliseEvent(raw, context);
    warnings.push(...outcome.warnings);
    if (outcome.kind === 'ingest') events.push(toStoredEvent(outcome.event));
    else dropped.push(outcome.reason);
  }
  pipeline.metrics.received.add(envelope.events.length);
  try {
    await pipeline.store({ teamId: environmentId, events, warnings });
  } catch (error) {
    // The project was deleted after its key was looked up (and cached): its key is no longer valid.
    if ((error as { code?: unknown }).code !== ENVIRONMENT_GONE) throw error;
    pipeline.tokens.forget(envelope.token);
    throw tokenErrors.unknown();
  }
  // Counted once stored: a request refused with 503 will be sent again.
  for (const reason of dropped) pipeline.metrics.drop(reason);
}
