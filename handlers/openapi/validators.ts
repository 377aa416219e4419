/**
 * Ajv validators compiled once, at start-up, from spec/openapi.yaml itself (the document openapi-backend has
 * loaded and dereferenced): the capture lane checks its operations' parameters and payloads with them, so the
 * spec stays the one definition of what a request may contain, without openapi-backend's per-request cost.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { Document, Operation } from 'openapi-backend';

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
