/**
 * Ajv validators compiled once, at start-up, from spec/openapi.yaml itself (the document openapi-backend has
 * loaded and dereferenced): the capture lane checks its operations' parameters and payloads with them, so the
 * spec stays the one definition of what a request may contain, without openapi-backend's per-request cost.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { Document, Operation } from 'openapi-backend';
import { ApiError } from '../../db/core/errors.js';

type Schema = Record<string, unknown>;

/** A parameter of the dereferenced document. */
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Schema;
}

export class SpecValidators {
  private readonly payloads = new Ajv({ strict: false, allErrors: false });
  /** Parameters arrive as strings: this instance coerces them to the spec's types while it checks them. */
  private readonly parametersAjv = new Ajv({ strict: false, allErrors: false, coerceTypes: true });
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly definition: Document) {
    addFormats.default(this.payloads);
    addFormats.default(this.parametersAjv);
  }

  /** `#/components/schemas/<name>`, dereferenced. */
  schemaObject(name: string): Record<string, unknown> {
    const schema = this.definition.components?.schemas?.[name];
    if (!schema) throw new Error(`spec/openapi.yaml has no schema named ${name}`);
    return schema as Record<string, unknown>;
  }

  /** The validator of `#/components/schemas/<name>`. */
  schema(name: string): ValidateFunction {
    let validate = this.compiled.get(name);
    if (!validate) {
      const schema = this.definition.components?.schemas?.[name];
      if (!schema) throw new Error(`spec/openapi.yaml has no schema named ${name}`);
      validate = this.payloads.compile(schema as Schema);
      this.compiled.set(name, validate);
    }
    return validate;
  }

  /** A validator for an operation's parameters in one location (`query` or `path`), as one object. */
  parameters(operation: Operation, location: 'query' | 'path'): ValidateFunction {
    const properties: Record<string, Schema> = {};
    const required: string[] = [];
    for (const parameter of (operation.parameters ?? []) as Parameter[]) {
      if (parameter.in !== location) continue;
      properties[parameter.name] = parameter.schema ?? {};
      if (parameter.required) required.push(parameter.name);
    }
    // SDKs add query parameters of their own; unknown ones are allowed, as in the rest of the API.
    return this.parametersAjv.compile({ type: 'object', properties, required });
  }
}

/** The segments of a JSON pointer as Ajv writes an error's place (RFC 6901: `~1` is `/`, `~0` is `~`). */
export function pointerSegments(instancePath: string): string[] {
  return instancePath
    .split('/')
    .filter(Boolean)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
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
