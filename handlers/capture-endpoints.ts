/**
 * The capture operations (capture lane, see handlers/server/lane.ts): the capture paths, the two start-up calls of
 * posthog-js (`/flags/`, `/array/{token}/config(.js)`), and their CORS pre-flights.
 *
 * A capture request is decoded, checked against the spec's `CapturePayload` and normalised
 * (handlers/capture/pipeline.ts), and its events are stored by the group commit (handlers/capture/ingest.ts,
 * db/pg/group-commit.ts); it is answered 200 once they are committed.
 */
import { randomUUID } from 'node:crypto';
import { FLAGS_DECODED_LIMIT_BYTES, decodePayload } from './capture/decode.js';
import { tokenProblem, withPlainNumbersOutsideValues } from './capture/envelope.js';
import { captureErrors } from './capture/errors.js';
import { capture as runCapture } from './capture/pipeline.js';
import { errors } from '../db/core/errors.js';
import { payloadError } from './openapi/validation-errors.js';
import { laneHandler, type LaneHandler, type LaneInput, type OperationId } from './types.js';

type CaptureOperation =
  | 'capture_event_create'
  | 'capture_event_retrieve'
  | 'capture_e_create'
  | 'capture_e_retrieve'
  | 'capture_capture_create'
  | 'capture_capture_retrieve'
  | 'capture_track_create'
  | 'capture_track_retrieve'
  | 'capture_engage_create'
  | 'capture_engage_retrieve'
  | 'capture_batch_create'
  | 'capture_batch_retrieve';

type PreflightOperation =
  | 'capture_event_options'
  | 'capture_e_options'
  | 'capture_capture_options'
  | 'capture_track_options'
  | 'capture_engage_options'
  | 'capture_batch_options'
  | 'flags_options';

/** Runs the capture pipeline (handlers/capture/pipeline.ts); 200 once every event of the request is stored. */
function capture<K extends CaptureOperation>(options: { engage: boolean }): LaneHandler<K> {
  return laneHandler<K>(async ({ body, query, headers, capture: services, lease }) => {
    await runCapture(services.pipeline, {
      body,
      lease,
      query: query as Record<string, unknown>,
      contentType: headers['content-type'],
      contentEncoding: headers['content-encoding'],
      engage: options.engage,
    });
    return { status: 200, contentType: 'application/json', body: { status: 1 } } as Awaited<
      ReturnType<LaneHandler<K>['handle']>
    >;
  });
}

/** The CORS headers themselves are the lane's; the body is the one posthog-js's old capture returned. */
function preflight<K extends PreflightOperation>(): LaneHandler<K> {
  return laneHandler<K>(
    async () => ({ status: 200, contentType: 'application/json', body: { status: 1 } }) as Awaited<ReturnType<LaneHandler<K>['handle']>>,
  );
}

export const capture_event_create = capture<'capture_event_create'>({ engage: false });
export const capture_event_retrieve = capture<'capture_event_retrieve'>({ engage: false });
export const capture_e_create = capture<'capture_e_create'>({ engage: false });
export const capture_e_retrieve = capture<'capture_e_retrieve'>({ engage: false });
export const capture_capture_create = capture<'capture_capture_create'>({ engage: false });
export const capture_capture_retrieve = capture<'capture_capture_retrieve'>({ engage: false });
export const capture_track_create = capture<'capture_track_create'>({ engage: false });
export const capture_track_retrieve = capture<'capture_track_retrieve'>({ engage: false });
export const capture_engage_create = capture<'capture_engage_create'>({ engage: true });
export const capture_engage_retrieve = capture<'capture_engage_retrieve'>({ engage: true });
export const capture_batch_create = capture<'capture_batch_create'>({ engage: false });
export const capture_batch_retrieve = capture<'capture_batch_retrieve'>({ engage: false });

export const capture_event_options = preflight<'capture_event_options'>();
export const capture_e_options = preflight<'capture_e_options'>();
export const capture_capture_options = preflight<'capture_capture_options'>();
export const capture_track_options = preflight<'capture_track_options'>();
export const capture_engage_options = preflight<'capture_engage_options'>();
export const capture_batch_options = preflight<'capture_batch_options'>();
export const flags_options = preflight<'flags_options'>();

/** The environment of a project API key from the request, or the capture 401s. */
async function environmentOf<K extends OperationId>(input: LaneInput<K>, token: unknown): Promise<number> {
  if (token === undefined || token === null) throw captureErrors.missingToken();
  const trimmed = typeof token === 'string' ? token.trim() : token;
  const problem = tokenProblem(trimmed);
  if (problem) throw captureErrors.invalidToken(problem);
  const environmentId = await input.capture.tokens.environmentId(trimmed as string);
  if (environmentId === null) throw captureErrors.unknownToken();
  return environmentId;
}

/** No feature flags are defined in Hedgerow: every caller gets an empty set. */
export const flags_create = laneHandler<'flags_create'>(async (input) => {
  const payload = withPlainNumbersOutsideValues(
    await decodePayload({
      body: input.body,
      query: input.query,
      contentType: input.headers['content-type'],
      contentEncoding: input.headers['content-encoding'],
    }, FLAGS_DECODED_LIMIT_BYTES),
  );
  const validate = input.capture.validators.schema('FlagsRequest');
  if (!validate(payload)) throw payloadError(validate.errors);
  const { token, api_key: apiKey } = payload as { token?: unknown; api_key?: unknown };
  await environmentOf(input, token ?? apiKey);
  return {
    status: 200,
    contentType: 'application/json',
    body: { flags: {}, errorsWhileComputingFlags: false, requestId: randomUUID() },
  };
});

/** The configuration posthog-js reads at start-up: analytics to /i/v0/e/, gzip, nothing else turned on. */
function remoteConfig(token: string) {
  return {
    token,
    supportedCompression: ['gzip', 'gzip-js'],
    hasFeatureFlags: false,
    analytics: { endpoint: '/i/v0/e/' },
    sessionRecording: false as const,
    surveys: false,
    heatmaps: false,
    autocaptureExceptions: false,
    captureDeadClicks: false,
    capturePerformance: false,
    defaultIdentifiedOnly: true,
    elementsChainAsString: true,
    siteApps: [],
  };
}

async function knownToken<K extends 'remote_config_retrieve' | 'remote_config_js_retrieve'>(input: LaneInput<K>): Promise<string> {
  const token = input.params.token;
  const problem = tokenProblem(token);
  if (problem) throw captureErrors.invalidToken(problem);
  if ((await input.capture.tokens.environmentId(token)) === null) throw errors.notFound('No project has this API key.');
  return token;
}

export const remote_config_retrieve = laneHandler<'remote_config_retrieve'>(async (input) => ({
  status: 200,
  contentType: 'application/json',
  body: remoteConfig(await knownToken(input)),
}));

export const remote_config_js_retrieve = laneHandler<'remote_config_js_retrieve'>(async (input) => {
  const token = await knownToken(input);
  const config = JSON.stringify({ config: remoteConfig(token), siteApps: [] }).replace(/</g, '\\u003c');
  const script = [
    '(function () {',
    '  window._POSTHOG_REMOTE_CONFIG = window._POSTHOG_REMOTE_CONFIG || {};',
    `  window._POSTHOG_REMOTE_CONFIG[${JSON.stringify(token)}] = ${config};`,
    '})();',
    '',
  ].join('\n');
  return { status: 200, contentType: 'application/javascript', body: script };
});

