import { expect } from 'chai';
import { OpenAPIBackend } from 'openapi-backend';
import { compilePath, PathIndex } from '../../handlers/openapi/paths.js';
import { pathCanonicalizer, pathIndexOf, useIndexedRouter } from '../../handlers/openapi/router.js';
import { SPEC_PATH } from '../../handlers/openapi/spec.js';

describe('unit: the spec’s one index of paths (handlers/openapi/paths.ts)', () => {
  const cases: Array<{ template: string; path: string; params: Record<string, string> | null }> = [
    { template: '/e/', path: '/e/', params: {} },
    { template: '/e/', path: '/e', params: null },
    { template: '/array/{token}/config', path: '/array/phc_1/config', params: { token: 'phc_1' } },
    { template: '/array/{token}/config', path: '/array/phc_1/config.js', params: null },
    { template: '/array/{token}/config.js', path: '/array/phc_1/configXjs', params: null },
    { template: '/api/projects/{project_id}/events/{id}/', path: '/api/projects/2/events/a%20b/', params: { project_id: '2', id: 'a%20b' } },
    { template: '/api/projects/{project_id}/events/{id}/', path: '/api/projects/2/x/events/a/', params: null },
  ];
  for (const { template, path, params } of cases) {
    it(`${template} ${params ? 'matches' : 'does not match'} ${path}`, () => {
      const compiled = compilePath(template);
      const match = compiled.pattern.exec(path);
      expect(match && Object.fromEntries(compiled.names.map((name, index) => [name, match[index + 1]]))).to.deep.equal(params);
    });
  }

  it('orders operations most specific first, ties in document order, and a subset reuses the compiled templates', () => {
    const operations = [
      { path: '/api/{a}/{b}/', id: 1 },
      { path: '/api/x/{b}/', id: 2 },
      { path: '/api/x/{b}/', id: 3 },
      { path: '/api/{a}/y/', id: 4 },
    ];
    const index = new PathIndex(operations);
    expect(index.entries.map((entry) => entry.operation.id)).to.deep.equal([2, 3, 4, 1]);
    const subset = index.subset((operation) => operation.id !== 2);
    expect(subset.entries.map((entry) => entry.operation.id)).to.deep.equal([3, 4, 1]);
    expect(subset.entries[0]!.path).to.equal(index.entries[0]!.path);
  });

  it('is the one the router, the canonicalizer and the capture lane read', async () => {
    const api = new OpenAPIBackend({ definition: SPEC_PATH, quick: true, validate: false, ignoreTrailingSlashes: false });
    await api.init();
    useIndexedRouter(api);
    expect(pathIndexOf(api)).to.equal(pathIndexOf(api));
    expect(pathIndexOf(api).entries).to.have.length(api.router.getOperations().length);
    const canonical = pathCanonicalizer(api);
    expect(canonical('/api/projects')).to.equal('/api/projects/');
    expect(canonical('/array/phc_1/config/')).to.equal('/array/phc_1/config');
    expect(canonical('/nowhere')).to.equal('/nowhere');
  });
});
