/**
 * The one error type of Hedgerow and the one place that turns it into a response body.
 *
 * Every failure a client can see is an ApiError: thrown by handlers, by db/ (translated Postgres errors), by the
 * openapi-backend lifecycle hooks and by the capture pipeline. The error middleware of handlers/server/app.ts is the
 * only writer of error responses; the body is the spec's `Error` schema, `{type, code, detail, attr}`, as
 * PostHog's API answers.
 */
import type { components } from '../../generated/api.js';

export type ErrorBody = components['schemas']['Error'];
export type ErrorType = ErrorBody['type'];

export class ApiError extends Error {
  readonly status: number;
  readonly type: ErrorType;
  readonly code: string;
  readonly attr: string | null;
  /** Extra response headers, such as `Retry-After` or `WWW-Authenticate`. */
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    status: number,
    type: ErrorType,
    code: string,
    detail: string,
    options: { attr?: string | null; headers?: Record<string, string> } = {},
  ) {
    super(detail);
    this.name = 'ApiError';
    this.status = status;
    this.type = type;
    this.code = code;
    this.attr = options.attr ?? null;
    this.headers = options.headers ?? {};
  }

  get detail(): string {
    return this.message;
  }

  toBody(): ErrorBody {
    return { type: this.type, code: this.code, detail: this.detail, attr: this.attr };
  }
}

const WWW_AUTHENTICATE = { 'WWW-Authenticate': 'Bearer' };

const ALLOW_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * The `Allow` header of a path that has these methods (upper case, any order): in one order everywhere, with
 * HEAD wherever GET is, since HEAD is served as GET.
 */
export function allowHeader(methods: Iterable<string>): string {
  const allowed = new Set(methods);
  if (allowed.has('GET')) allowed.add('HEAD');
  return ALLOW_ORDER.filter((method) => allowed.has(method)).join(', ');
}

/** The errors Hedgerow answers with, by situation. Texts follow PostHog's (and so DRF's) where it has one. */
export const errors = {
  validation: (detail: string, attr: string | null = null, code = 'invalid_input') =>
    new ApiError(400, 'validation_error', code, detail, { attr }),
  required: (attr: string) => new ApiError(400, 'validation_error', 'required', 'This field is required.', { attr }),
  parse: (detail: string) => new ApiError(400, 'invalid_request', 'parse_error', detail),
  notAuthenticated: () =>
    new ApiError(401, 'authentication_error', 'not_authenticated', 'Authentication credentials were not provided.', {
      headers: WWW_AUTHENTICATE,
    }),
  invalidPersonalApiKey: () =>
    new ApiError(
      401,
      'authentication_error',
      'authentication_failed',
      'Personal API key found in request Authorization header is invalid.',
      { headers: WWW_AUTHENTICATE },
    ),
  missingScope: (scope: string) =>
    new ApiError(403, 'authentication_error', 'permission_denied', `API key missing required scope '${scope}'`),
  insufficientLevel: () =>
    new ApiError(403, 'authentication_error', 'permission_denied', 'Your organization access level is insufficient.'),
  projectScopedKey: () =>
    new ApiError(
      403,
      'authentication_error',
      'permission_denied',
      'API keys with scoped projects are only supported on project-based endpoints.',
    ),
  /** Environments a rollback names that the organization does not have (as PostHog words it). */
  environmentsNotFound: (ids: readonly number[]) => new ApiError(400, 'validation_error', 'invalid_input', `Environments not found: {${ids.join(', ')}}`),
  notFound: (detail = 'Not found.') => new ApiError(404, 'invalid_request', 'not_found', detail),
  methodNotAllowed: (method: string, allowed: Iterable<string>) =>
    new ApiError(405, 'invalid_request', 'method_not_allowed', `Method "${method}" not allowed.`, {
      headers: { Allow: allowHeader(allowed) },
    }),
  conflict: (detail: string, attr: string | null = null) =>
    new ApiError(409, 'invalid_request', 'conflict', detail, { attr }),
  /** node:http could not parse the request: it never reaches an operation. */
  malformedRequest: () => new ApiError(400, 'invalid_request', 'malformed_request', 'The request is not valid HTTP/1.1.'),
  headersTooLarge: (limitBytes: number) =>
    new ApiError(
      431,
      'invalid_request',
      'request_header_fields_too_large',
      `The request line and headers are larger than the ${limitBytes} bytes the server reads.`,
    ),
  requestTimeout: () => new ApiError(408, 'invalid_request', 'request_timeout', 'The request was not received in time.'),
  tooLarge: (limitBytes: number) =>
    new ApiError(
      413,
      'invalid_request',
      'request_too_large',
      `The request body is larger than the ${limitBytes} bytes this endpoint accepts.`,
    ),
  unsupportedMediaType: (contentType: string) =>
    new ApiError(
      415,
      'invalid_request',
      'unsupported_media_type',
      `Unsupported media type "${contentType}" in request.`,
    ),
  throttled: (retryAfterSeconds: number) =>
    new ApiError(
      429,
      'throttled_error',
      'throttled',
      `Request was throttled. Expected available in ${retryAfterSeconds} seconds.`,
      { headers: { 'Retry-After': String(retryAfterSeconds) } },
    ),
  /**
   * The environment already runs, or has waiting, as many queries as it may (PostHog answers its concurrency
   * limits with a 429 too).
   */
  tooManyQueries: (detail: string, retryAfterSeconds: number) =>
    new ApiError(429, 'throttled_error', 'throttled', detail, { headers: { 'Retry-After': String(retryAfterSeconds) } }),
  server: () => new ApiError(500, 'server_error', 'server_error', 'A server error occurred.'),
  notImplemented: (operationId: string) =>
    new ApiError(501, 'server_error', 'not_implemented', `This operation is not implemented yet: ${operationId}.`),
  unavailable: (detail: string, retryAfterSeconds: number) =>
    new ApiError(503, 'server_error', 'service_unavailable', detail, { headers: { 'Retry-After': String(retryAfterSeconds) } }),
};
