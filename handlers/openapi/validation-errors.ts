/**
 * Ajv's validation errors as the answers clients expect, in the two wordings the API has: the first failure of a
 * request openapi-backend validated, worded as PostHog's DRF words it (`requestValidationError`); and capture's
 * payloads and parameters, checked by the lane with SpecValidators, worded as PostHog's capture words them
 * (`payloadError`, `parameterError`).
 */
import type { ErrorObject } from 'ajv';
import type { Context as OperationContext } from 'openapi-backend';
import { ApiError, errors } from '../../db/core/errors.js';

/** An Ajv `instancePath` (a JSON pointer) as its decoded segments: `/a~1b/0` → `['a/b', '0']`. */
function pointerSegments(instancePath: string): string[] {
  return instancePath
    .split('/')
    .filter(Boolean)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
}

const TYPE_MESSAGES: Readonly<Record<string, string>> = {
  integer: 'A valid integer is required.',
  number: 'A valid number is required.',
  boolean: 'Must be a valid boolean.',
  string: 'Not a valid string.',
  object: 'Expected a dictionary of items.',
  array: 'Expected a list of items.',
};

const FORMAT_MESSAGES: Readonly<Record<string, string>> = {
  uuid: 'Must be a valid UUID.',
  'date-time': 'Datetime has wrong format. Use ISO 8601.',
  email: 'Enter a valid email address.',
  uri: 'Enter a valid URL.',
};

/** The first validation failure as DRF would word it, with `attr` naming the field (nested with `__`). */
export function requestValidationError(error: ErrorObject | undefined, c: OperationContext): ApiError {
  if (!error) return errors.validation('Invalid request.');
  const [location, ...segments] = pointerSegments(error.instancePath);
  const params = error.params as Record<string, unknown>;
  const field = error.keyword === 'required' ? [...segments, String(params.missingProperty)] : segments;
  const attr = field.length > 0 ? field.join('__') : null;
  const value = valueAt(c, location, segments);
  switch (error.keyword) {
    case 'required':
      return errors.required(attr ?? 'body');
    case 'type': {
      const expected = String(params.type).split(',')[0]!;
      return errors.validation(TYPE_MESSAGES[expected] ?? `Expected ${String(params.type)}.`, attr);
    }
    case 'enum':
      return errors.validation(`"${String(value)}" is not a valid choice.`, attr, 'invalid_choice');
    case 'maxLength':
      return errors.validation(`Ensure this field has no more than ${String(params.limit)} characters.`, attr, 'max_length');
    case 'minLength':
      return params.limit === 1
        ? errors.validation('This field may not be blank.', attr, 'blank')
        : errors.validation(`Ensure this field has at least ${String(params.limit)} characters.`, attr, 'min_length');
    case 'minimum':
      return errors.validation(`Ensure this value is greater than or equal to ${String(params.limit)}.`, attr, 'min_value');
    case 'maximum':
      return errors.validation(`Ensure this value is less than or equal to ${String(params.limit)}.`, attr, 'max_value');
    case 'format':
      return errors.validation(FORMAT_MESSAGES[String(params.format)] ?? `Must be a valid ${String(params.format)}.`, attr);
    case 'additionalProperties': {
      const name = String(params.additionalProperty);
      const known = location === 'query' ? 'query parameter' : 'field';
      return errors.validation(`Unknown ${known} "${name}".`, [...segments, name].join('__'), 'unknown_field');
    }
    case 'discriminator': {
      const tag = String(params.tag);
      const tagAttr = [...segments, tag].join('__');
      const tagValue = (value as Record<string, unknown> | undefined)?.[tag];
      if (tagValue === undefined) return errors.required(tagAttr);
      const choices = discriminatorChoices(c, segments, tag);
      return errors.validation(`"${String(tagValue)}" is not a supported ${tag}. Supported: ${choices.join(', ')}.`, tagAttr, 'invalid_choice');
    }
    case 'propertyNames':
      return errors.validation(`"${String(params.propertyName)}" is not a valid key.`, attr);
    default:
      return errors.validation(`${attr ?? 'The request'} ${error.message ?? 'is not valid'}.`, attr);
  }
}

/** The tag values of the `oneOf` branches of the request body's schema at `segments` (the dereferenced spec's). */
function discriminatorChoices(c: OperationContext, segments: readonly string[], tag: string): string[] {
  type SchemaNode = { properties?: Record<string, SchemaNode>; items?: SchemaNode; oneOf?: SchemaNode[]; enum?: unknown[] };
  const body = c.operation.requestBody as { content?: Record<string, { schema?: SchemaNode }> } | undefined;
  let schema = body?.content?.['application/json']?.schema;
  for (const segment of segments) schema = /^\d+$/.test(segment) ? schema?.items : schema?.properties?.[segment];
  return (schema?.oneOf ?? []).flatMap((branch) => (branch.properties?.[tag]?.enum ?? []).map(String));
}

function valueAt(c: OperationContext, location: string | undefined, segments: string[]): unknown {
  const roots: Record<string, unknown> = {
    requestBody: c.request.requestBody,
    query: c.request.query,
    path: c.request.params,
    headers: c.request.headers,
  };
  let value = location ? roots[location] : undefined;
  for (const segment of segments) value = (value as Record<string, unknown> | undefined)?.[segment];
  return value;
}

/** `/batch/1/uuid` → `batch[1].uuid` (for people) and `batch__1__uuid` (for `attr`). */
function locate(instancePath: string, extra?: string): { text: string; attr: string | null } {
  const segments = pointerSegments(instancePath);
  if (extra !== undefined) segments.push(extra);
  if (segments.length === 0) return { text: 'the payload', attr: null };
  const text = segments.map((segment, index) => (/^\d+$/.test(segment) ? `[${segment}]` : index === 0 ? segment : `.${segment}`)).join('');
  return { text, attr: segments.join('__') };
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/**
 * The most useful of a failed validation's errors, as a 400 in the capture format: the error deepest in the
 * document wins, which picks the branch of an `anyOf` the payload was meant to match.
 */
export function payloadError(validationErrors: readonly ErrorObject[] | null | undefined): ApiError {
  const candidates = (validationErrors ?? []).filter((error) => error.keyword !== 'anyOf');
  const best = candidates.reduce<ErrorObject | undefined>(
    (deepest, error) => (!deepest || error.instancePath.length > deepest.instancePath.length ? error : deepest),
    undefined,
  );
  if (!best) return new ApiError(400, 'validation_error', 'invalid_payload', 'Invalid payload.');
  const params = best.params as Record<string, unknown>;
  let where = locate(best.instancePath);
  let message: string;
  switch (best.keyword) {
    case 'type':
      message = `${where.text} must be ${article(String(params.type).split(',')[0]!)}`;
      break;
    case 'required':
      where = locate(best.instancePath, String(params.missingProperty));
      message = `${where.text} is required`;
      break;
    case 'pattern':
      message = /uuid$/i.test(best.instancePath) ? `${where.text} is not a valid UUID` : `${where.text} has the wrong format`;
      break;
    case 'not':
      message = `${where.text} is not allowed here`;
      break;
    default:
      message = `${where.text} ${best.message ?? 'is not valid'}`;
  }
  return new ApiError(400, 'validation_error', 'invalid_payload', `Invalid payload: ${message}.`, { attr: where.attr });
}

/** The first error of a parameter validation, as a 400 naming the parameter. */
export function parameterError(validationErrors: readonly ErrorObject[] | null | undefined, location: string): ApiError {
  const error = validationErrors?.[0];
  const params = (error?.params ?? {}) as Record<string, unknown>;
  const name =
    error?.keyword === 'required'
      ? String(params.missingProperty)
      : (error?.instancePath.split('/').filter(Boolean)[0] ?? location);
  const detail =
    error?.keyword === 'type'
      ? `The ${location} parameter "${name}" must be ${article(String(params.type))}.`
      : `The ${location} parameter "${name}" ${error?.message ?? 'is not valid'}.`;
  return new ApiError(400, 'validation_error', 'invalid_input', detail, { attr: name });
}
