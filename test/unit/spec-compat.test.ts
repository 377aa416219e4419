import { expect } from 'chai';
import { breakingChanges, lastRelease, unintendedChanges } from '../../scripts/spec-compat.js';

type Spec = {
  paths: Record<string, Record<string, any>>;
  components: { schemas: Record<string, any> };
  [key: string]: unknown;
};

/** A small document: a list with a filter, a create, and a second path; `change` edits a fresh copy. */
function spec(change: (document: Spec) => void = () => {}): Spec {
  const document: Spec = {
    openapi: '3.0.3',
    info: { title: 'example', version: '1' },
    paths: {
      '/things/': {
        get: {
          operationId: 'things_list',
          parameters: [{ name: 'kind', in: 'query', schema: { type: 'string', enum: ['big', 'small'] } }],
          responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } } },
        },
        post: {
          operationId: 'things_create',
          requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/ThingCreate' } } } },
          responses: { '201': { description: 'created' } },
        },
      },
      '/others/': { get: { operationId: 'others_list', responses: { '200': { description: 'ok' } } } },
    },
    components: {
      schemas: {
        Thing: {
          type: 'object',
          required: ['id'],
          properties: { id: { type: 'integer' }, name: { type: 'string' }, state: { type: 'string', enum: ['on', 'off'] } },
        },
        ThingCreate: { type: 'object', properties: { name: { type: 'string' }, state: { type: 'string', enum: ['on', 'off'] } } },
      },
    },
  };
  change(document);
  return document;
}

describe('unit: the breaking-change check of the spec', () => {
  const breaking: Array<{ what: string; change: (document: Spec) => void; reported: string }> = [
    { what: 'a removed operation', change: (d) => delete d.paths['/others/'], reported: 'GET /others/: [Removed] operation GET /others/' },
    { what: 'a removed method of a path', change: (d) => delete d.paths['/things/']!.post, reported: 'POST /things/: [Removed] operation' },
    {
      what: 'a removed response field',
      change: (d) => delete d.components.schemas.Thing.properties.name,
      reported: 'GET /things/ responses/200/content/application/json/schema/properties/name:',
    },
    {
      what: 'a removed request field',
      change: (d) => delete d.components.schemas.ThingCreate.properties.name,
      reported: 'POST /things/ requestBody/content/application/json/schema/properties/name:',
    },
    {
      what: 'a removed enum value of a response',
      change: (d) => (d.components.schemas.Thing.properties.state.enum = ['on']),
      reported: 'GET /things/ responses/200/content/application/json/schema/properties/state/enum/1:',
    },
    {
      what: 'a removed enum value of a request field',
      change: (d) => (d.components.schemas.ThingCreate.properties.state.enum = ['on']),
      reported: 'POST /things/ requestBody/content/application/json/schema/properties/state/enum/1:',
    },
    {
      what: 'a removed enum value of a query parameter',
      change: (d) => (d.paths['/things/']!.get.parameters[0].schema.enum = ['big']),
      reported: 'GET /things/ parameters/0/schema/enum/1:',
    },
    {
      what: 'a newly required request field',
      change: (d) => (d.components.schemas.ThingCreate.required = ['name']),
      reported: 'POST /things/ requestBody/content/application/json/schema/required/0:',
    },
    {
      what: 'a new required query parameter',
      change: (d) => d.paths['/things/']!.get.parameters.push({ name: 'page', in: 'query', required: true, schema: { type: 'string' } }),
      reported: 'GET /things/ parameters/1:',
    },
  ];
  for (const { what, change, reported } of breaking) {
    it(`reports ${what}`, () => {
      const changes = breakingChanges(spec(), spec(change));
      expect(changes.some((line) => line.startsWith(reported)), changes.join('\n')).to.equal(true);
    });
  }

  const allowed: Array<{ what: string; change: (document: Spec) => void }> = [
    { what: 'no change', change: () => {} },
    { what: 'an added operation', change: (d) => (d.paths['/new/'] = { get: { operationId: 'new_list', responses: { '200': { description: 'ok' } } } }) },
    { what: 'an added optional request field', change: (d) => (d.components.schemas.ThingCreate.properties.colour = { type: 'string' }) },
    {
      what: 'an added response field, required',
      change: (d) => {
        d.components.schemas.Thing.properties.is_new = { type: 'boolean' };
        d.components.schemas.Thing.required.push('is_new');
      },
    },
    { what: 'an added enum value of a request field', change: (d) => d.components.schemas.ThingCreate.properties.state.enum.push('idle') },
    { what: 'a changed description', change: (d) => (d.paths['/others/']!.get.description = 'Others, now described.') },
  ];
  for (const { what, change } of allowed) {
    it(`allows ${what}`, () => {
      expect(breakingChanges(spec(), spec(change))).to.deep.equal([]);
    });
  }

  it('lets only the changes listed as intended through', () => {
    const changes = breakingChanges(spec(), spec((d) => delete d.paths['/others/']));
    expect(changes).to.have.length(1);
    expect(unintendedChanges(changes, [{ change: changes[0]!, reason: 'others are things now' }])).to.deep.equal([]);
    expect(unintendedChanges(changes, [{ change: 'GET /elsewhere/: [Removed] operation GET /elsewhere/', reason: 'x' }])).to.deep.equal(changes);
  });

  it('compares with the release of the highest version', () => {
    expect(lastRelease({ '0.9.0': 'aaa', '0.10.0': 'bbb', '0.2.1': 'ccc' })).to.deep.equal({ version: '0.10.0', commit: 'bbb' });
    expect(() => lastRelease({})).to.throw('names no release');
  });
});
