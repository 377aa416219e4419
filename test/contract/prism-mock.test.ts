/**
 * Contract test of the spec itself, against `prism mock spec/openapi.yaml`: for every operation, a request built
 * from the spec's own examples gets a documented success answer whose body fits its schema, every named response
 * example can be asked for and fits, and every documented error status answers in the Error format. This proves
 * the examples and statuses hold together, which is what clients generated from the spec and QA mocks rely on.
 */
import { expect } from 'chai';
import { SECURITY_SCHEME } from '../../handlers/server/security.js';
import { contractViolations } from '../helpers/contract.js';
import { startPrism, type PrismProcess } from '../helpers/prism.js';
import { specOperations, type SpecOperation as Operation } from '../helpers/spec-sync.js';

type MediaObject = { schema?: object; example?: unknown; examples?: Record<string, { value?: unknown }> };
type ResponseObject = { content?: Record<string, MediaObject> };

const operations = specOperations();

/** The operation's path with its path parameters and required query parameters filled from their examples. */
function pathFor(operation: Operation): string {
  const parameters = operation.parameters ?? [];
  const exampleOf = (parameter: (typeof parameters)[number] | undefined) => parameter?.example ?? parameter?.schema?.example;
  const path = operation.path.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    const example = exampleOf(parameters.find((p) => p.in === 'path' && p.name === name));
    return encodeURIComponent(String(example ?? '0190f1c4-aaaa-7bbb-8ccc-dddddddddddd'));
  });
  const query = new URLSearchParams();
  for (const parameter of parameters) {
    if (parameter.in === 'query' && parameter.required) query.set(parameter.name, String(exampleOf(parameter) ?? 'x'));
  }
  return query.size > 0 ? `${path}?${query}` : path;
}

function requestBodyFor(operation: Operation): unknown {
  const content = (operation.requestBody as { content?: Record<string, MediaObject> } | undefined)?.content;
  const json = content?.['application/json'];
  if (!json) return undefined;
  const first = Object.values(json.examples ?? {})[0];
  return first?.value ?? json.example ?? {};
}

const needsKey = (operation: Operation) => operation.security?.some((requirement) => SECURITY_SCHEME in requirement);

describe('contract: the spec’s examples and statuses hold together (prism mock)', function () {
  this.timeout(60_000);
  let prism: PrismProcess;

  before(async () => {
    prism = await startPrism('mock');
  });
  after(() => prism?.stop());

  async function call(operation: Operation, headers: Record<string, string> = {}) {
    const method = operation.method.toUpperCase();
    const path = pathFor(operation);
    const body = requestBodyFor(operation);
    const response = await fetch(new URL(path, prism.url), {
      method,
      headers: {
        ...(needsKey(operation) ? { authorization: 'Bearer phx_mock' } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const contentType = response.headers.get('content-type');
    const parsed = contentType?.includes('json') && text ? JSON.parse(text) : text;
    return { method, path, status: response.status, contentType, body: parsed, text };
  }

  it('has operations to check', () => {
    expect(operations.length).to.be.greaterThan(25);
  });

  for (const operation of operations) {
    const responses = (operation.responses ?? {}) as Record<string, ResponseObject>;
    describe(`${operation.operationId} — ${operation.method.toUpperCase()} ${operation.path}`, () => {
      const succeeds = Object.keys(responses).some((status) => status.startsWith('2'));
      if (succeeds) {
        it('answers a request built from the spec’s examples with a documented success and a conforming body', async () => {
          const observed = await call(operation);
          expect(observed.status, observed.text).to.be.within(200, 299);
          expect(Object.keys(responses)).to.include(String(observed.status));
          expect(await contractViolations(observed)).to.deep.equal([]);
        });
      }

      for (const [status, response] of Object.entries(responses)) {
        if (status === 'default') continue;
        if (!response.content) {
          it(`answers ${status} with no body when asked for it`, async () => {
            const observed = await call(operation, { prefer: `code=${status}` });
            expect(observed.status).to.equal(Number(status));
            expect(observed.text).to.equal('');
          });
        }
        for (const [mediaType, media] of Object.entries(response.content ?? {})) {
          for (const name of Object.keys(media.examples ?? {})) {
            it(`serves the ${status} example "${name}" (${mediaType}), and it fits the schema`, async () => {
              const observed = await call(operation, { prefer: `code=${status}, example=${name}`, accept: mediaType });
              expect(observed.status, observed.text).to.equal(Number(status));
              expect(await contractViolations(observed)).to.deep.equal([]);
              const expected = media.examples![name]!.value;
              if (mediaType.includes('json')) expect(observed.body).to.deep.equal(expected);
            });
          }
        }
      }
    });
  }
});
