/**
 * Every error capture answers of its own, in one catalogue: the status, type, code and wording of each are what
 * SDKs and PostHog's capture tests expect, so they are written once here and thrown from wherever a step fails.
 */
import { ApiError } from '../../db/core/errors.js';

/** Why a token is refused before any lookup (PostHog's token shape checks). */
export type TokenProblem = 'empty' | 'not_string' | 'too_long' | 'not_ascii' | 'personal_api_key' | 'null_byte';

/** How long a capture SDK is told to wait before sending a refused request again. */
export const RETRY_AFTER_SECONDS = 1;

export const captureErrors = {
  // The payload could not be read: no data, bad encoding, or too large once decoded.
  noData: () =>
    new ApiError(
      400,
      'validation_error',
      'no_data',
      'No data found. Make sure to use a POST request when sending the payload in the body of the request.',
    ),
  malformed: (detail: string) =>
    new ApiError(400, 'validation_error', 'invalid_payload', `Malformed request data: ${detail}`),
  decodedTooLarge: (limitBytes: number) =>
    new ApiError(
      413,
      'invalid_request',
      'request_too_large',
      `The decoded payload is larger than the ${limitBytes} bytes capture accepts.`,
    ),

  // The project API key is missing, malformed, ambiguous or unknown.
  missingToken: () =>
    new ApiError(
      401,
      'authentication_error',
      'missing_api_key',
      'API key not provided. You can find your project API key in your project settings.',
    ),
  invalidToken: (problem: TokenProblem) =>
    new ApiError(401, 'authentication_error', problem, `Provided API key is not valid: ${problem}`),
  inconsistentTokens: () =>
    new ApiError(
      401,
      'authentication_error',
      'inconsistent_api_key',
      'The events of the request carry different project API keys.',
    ),
  unknownToken: () =>
    new ApiError(
      401,
      'authentication_error',
      'invalid_api_key',
      'Project API key invalid. You can find your project API key in your project settings.',
    ),

  // The payload decoded, but does not hold events capture can take.
  notAnEnvelope: () =>
    new ApiError(400, 'validation_error', 'invalid_payload', 'Invalid payload: expected an event, an array of events or a batch.'),
  noEvent: () => new ApiError(400, 'validation_error', 'no_events', 'Invalid payload: the request holds no event.'),
  eventTooBig: (limitBytes: number) =>
    new ApiError(
      413,
      'invalid_request',
      'event_too_big',
      `An event of the request is larger than the ${limitBytes} bytes capture stores for one event.`,
    ),

  // Capture's memory budget is full for longer than a request may wait.
  busy: () =>
    new ApiError(503, 'server_error', 'capture_busy', 'Capture is busy with other large requests; send this one again shortly.', {
      headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
    }),
};
