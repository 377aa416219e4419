/** Error bodies the API answers ({type, code, detail, attr}), built for tests to compare whole. */
import type { ErrorBody } from '../../db/core/errors.js';

/** A 429's body: a share or limit was reached; `detail` says which, and when to retry. */
export function throttledBody(detail: string): ErrorBody {
  return { type: 'throttled_error', code: 'throttled', detail, attr: null };
}

/** A 400's body for input the server will not take as it is; `detail` says why. */
export function invalidInputBody(detail: string): ErrorBody {
  return { type: 'validation_error', code: 'invalid_input', detail, attr: null };
}
