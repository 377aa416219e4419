import { expect } from 'chai';
import { OpenAPIBackend, OpenAPIRouter, type Document } from 'openapi-backend';
import { SPEC_PATH } from '../../handlers/openapi/spec.js';
import { IndexedRouter } from '../../handlers/openapi/router.js';

type Answer = { operationId: string | undefined } | { error: string };

function answer(route: () => { operationId?: string } | undefined): Answer {
  try {
    return { operationId: route()?.operationId };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** A concrete path for a template: each `{parameter}` filled with a sample value. */
function concrete(template: string, value: string): string {
  return template.replace(/\{[^}]+\}/g, value);
}

describe('unit: IndexedRouter answers as openapi-backend’s own router', () => {
  let definition: Document;
  let stock: OpenAPIRouter;
  let indexed: IndexedRouter;
  const requests: { method: string; path: string; headers: Record<string, string> }[] = [];

  before(async () => {
    const api = new OpenAPIBackend({ definition: SPEC_PATH, quick: true, validate: false });
    await api.init();
    definition = api.definition;
    stock = new OpenAPIRouter({ definition, ignoreTrailingSlashes: false });
    indexed = new IndexedRouter({ definition, ignoreTrailingSlashes: false });
    const paths = new Set<string>();
    for (const template of Object.keys(definition.paths ?? {})) {
      for (const value of ['1', '@current', '0188c8a2-8b5e-7000-8000-000000000000', 'values', 'x.js']) {
        const path = concrete(template, value);
        paths.add(path);
        paths.add(path.endsWith('/') ? path.slice(0, -1) : `${path}/`);
      }
    }
    for (const extra of ['/', '', '/nope/', '/api/', '/api/projects/1/nope/', '/api//projects/', 'api/projects/']) paths.add(extra);
    for (const path of paths) {
      for (const method of ['get', 'POST', 'put', 'patch', 'delete', 'options', 'head']) requests.push({ method, path, headers: {} });
    }
  });

  it('covers every operation of the spec', () => {
    const operations = stock.getOperations();
    expect(indexed.getOperations().map((operation) => operation.operationId)).to.deep.equal(
      operations.map((operation) => operation.operationId),
    );
    expect(operations.length).to.be.greaterThan(50);
    for (const operation of operations) {
      expect(indexed.getOperation(operation.operationId!)).to.deep.equal(stock.getOperation(operation.operationId!));
    }
    expect(indexed.getOperation('no_such_operation')).to.equal(undefined);
  });

  it('matches every request (each path, both spellings, every method, strict or not) to the same operation or error', () => {
    expect(requests.length).to.be.greaterThan(1000);
    const differences: string[] = [];
    for (const request of requests) {
      for (const strict of [true, false]) {
        const want = answer(() => stock.matchOperation(request, strict));
        const got = answer(() => indexed.matchOperation(request, strict));
        if (JSON.stringify(got) !== JSON.stringify(want)) {
          differences.push(`${request.method} ${request.path} strict=${strict}: want ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
        }
      }
    }
    expect(differences).to.deep.equal([]);
  });

  it('tells 404 from 405 as the stock router does', () => {
    expect(answer(() => indexed.matchOperation({ method: 'get', path: '/api/nothing/', headers: {} }, true))).to.deep.equal({
      error: '404-notFound: no route matches request',
    });
    expect(answer(() => indexed.matchOperation({ method: 'put', path: '/api/organizations/', headers: {} }, true))).to.deep.equal({
      error: '405-methodNotAllowed: this method is not registered for the route',
    });
  });
});
