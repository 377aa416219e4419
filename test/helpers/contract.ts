/**
 * Checks a response against spec/openapi.yaml: the status must be one the operation documents (or its
 * `default`), the content type one it documents, and the body valid against the documented schema. A request
 * that matches no operation must be answered in the Error format. Used by the test HTTP client on every
 * response, so a response that breaks the contract fails the test that received it.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { OpenAPIBackend, type Operation } from 'openapi-backend';
import { pathCanonicalizer } from '../../handlers/openapi/router.js';
import { SPEC_PATH } from '../../handlers/openapi/spec.js';
import { hasEmptySegment } from '../../handlers/openapi/router.js';

interface Spec {
  api: OpenAPIBackend;
  canonicalPath: (path: string) => string;
  errorValidator: ValidateFunction;
}

let loaded: Promise<Spec> | null = null;
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats.default(ajv);
const validators = new WeakMap<object, ValidateFunction>();

function validatorFor(schema: object): ValidateFunction {
  let validate = validators.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    validators.set(schema, validate);
  }
  return validate;
}

export function loadSpec(): Promise<Spec> {
  loaded ??= (async () => {
    const api = new OpenAPIBackend({
      definition: SPEC_PATH,
      // Only its router and the dereferenced document are used here: compiling every operation's request
      // validators up front took seconds. Quick mode does not validate the document either; `npm run spec:lint`
      // does, first in `npm test`.
      quick: true,
      ignoreTrailingSlashes: false,
      customizeAjv: (instance) => {
        addFormats.default(instance);
        return instance;
      },
    });
    await api.init();
    const errorSchema = (api.definition.components?.schemas?.Error ?? {}) as object;
    return { api, canonicalPath: pathCanonicalizer(api), errorValidator: validatorFor(errorSchema) };
  })();
  return loaded;
}

export interface ObservedResponse {
  method: string;
  path: string;
  status: number;
  contentType: string | null;
  body: unknown;
  text: string;
  /** The `Allow` header, when the caller has the response's headers: every 405 must carry one. */
  allow?: string | null;
}

/** The operation a request is routed to, or undefined when none. */
export async function operationFor(method: string, path: string): Promise<Operation | undefined> {
  const { api, canonicalPath } = await loadSpec();
  const bare = path.split('?')[0]!;
  if (hasEmptySegment(bare)) return undefined; // no path of the spec has one
  return api.router.matchOperation({ method, path: canonicalPath(bare), headers: {}, query: {} });
}

/** Returns the contract violations of one response (empty when it conforms). */
export async function contractViolations(response: ObservedResponse): Promise<string[]> {
  const { errorValidator } = await loadSpec();
  // HEAD is served wherever GET is, as GET's answer without its body (the spec's info description says so).
  const head = response.method === 'HEAD';
  const where = `${response.method} ${response.path} → ${response.status}`;
  if (head && response.text.length > 0) return [`${where}: a HEAD answer has a body: ${response.text}`];
  if (response.status === 405 && response.allow === null) return [`${where}: a 405 without an Allow header`];
  const operation = await operationFor(head ? 'GET' : response.method, response.path);
  if (!operation) {
    if (![404, 405, 413].includes(response.status)) return [`${where}: no operation matches, yet the status is not 404/405`];
    return head || errorValidator(response.body) ? [] : [`${where}: error body is not the Error schema: ${response.text}`];
  }
  const responses = (operation.responses ?? {}) as Record<string, { content?: Record<string, { schema?: object }> }>;
  const documented = responses[String(response.status)] ?? responses.default;
  if (!documented) return [`${where}: status not documented for ${operation.operationId}`];
  const content = documented.content;
  if (!content) {
    return response.text.length === 0 ? [] : [`${where}: ${operation.operationId} documents no body, got ${response.text}`];
  }
  const mediaType = (response.contentType ?? '').split(';')[0]!.trim();
  const media = content[mediaType];
  if (!media) return [`${where}: content type "${mediaType}" not documented for ${operation.operationId}`];
  if (!media.schema || head) return [];
  const validate = validatorFor(media.schema);
  if (validate(response.body)) return [];
  return [`${where}: body violates ${operation.operationId}'s schema: ${ajv.errorsText(validate.errors)}`];
}
