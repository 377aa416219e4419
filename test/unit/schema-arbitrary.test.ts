/**
 * The fuzz test's JSON schema → fast-check converter (test/helpers/schema-arbitrary.ts): for each keyword of the
 * spec's subset, what it calls valid Ajv accepts, and what it calls invalid Ajv rejects.
 */
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { expect } from 'chai';
import fc from 'fast-check';
import { deeplyNested, invalidValue, validValue, type Schema } from '../helpers/schema-arbitrary.js';
import { specOperations } from '../helpers/spec-sync.js';

const ajv = new Ajv({ strict: false });
addFormats.default(ajv);

const root = {
  components: {
    schemas: {
      Id: { type: 'string', format: 'uuid' },
      Named: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1, maxLength: 5 } } },
      Aliased: { $ref: '#/components/schemas/Id' },
    },
  },
};

const cases: Array<{ keyword: string; schema: Schema; invalid: boolean }> = [
  { keyword: 'type string', schema: { type: 'string' }, invalid: true },
  { keyword: 'minLength and maxLength', schema: { type: 'string', minLength: 2, maxLength: 4 }, invalid: true },
  { keyword: 'pattern', schema: { type: 'string', pattern: '^([0-9]+|@current)$' }, invalid: true },
  { keyword: 'an optional pattern', schema: { type: 'string', pattern: '^([0-9a-f]{8}-[0-9a-f]{4})?$' }, invalid: true },
  { keyword: 'format uuid', schema: { type: 'string', format: 'uuid' }, invalid: true },
  { keyword: 'format date-time', schema: { type: 'string', format: 'date-time' }, invalid: true },
  { keyword: 'format email', schema: { type: 'string', format: 'email' }, invalid: true },
  { keyword: 'format uri', schema: { type: 'string', format: 'uri' }, invalid: true },
  { keyword: 'enum', schema: { type: 'string', enum: ['csv', 'json'] }, invalid: true },
  { keyword: 'an integer enum', schema: { type: 'integer', enum: [0, 1, 8, 15] }, invalid: true },
  { keyword: 'integer with minimum and maximum', schema: { type: 'integer', minimum: 1, maximum: 1000 }, invalid: true },
  { keyword: 'integer beyond 32 bits', schema: { type: 'integer', minimum: 0, maximum: 9007199254740991 }, invalid: true },
  { keyword: 'number', schema: { type: 'number', minimum: -5, maximum: -1 }, invalid: true },
  { keyword: 'boolean', schema: { type: 'boolean' }, invalid: true },
  { keyword: 'nullable', schema: { type: 'string', nullable: true, maxLength: 3 }, invalid: true },
  { keyword: 'items', schema: { type: 'array', items: { type: 'integer', minimum: 0 } }, invalid: true },
  {
    keyword: 'properties and required',
    schema: { type: 'object', required: ['a'], properties: { a: { type: 'integer' }, b: { type: 'boolean' } } },
    invalid: true,
  },
  {
    keyword: 'additionalProperties false',
    schema: { type: 'object', additionalProperties: false, properties: { a: { type: 'string' } } },
    invalid: true,
  },
  { keyword: 'additionalProperties true', schema: { type: 'object', additionalProperties: true }, invalid: true },
  {
    keyword: 'readOnly and not',
    schema: { type: 'object', properties: { id: { type: 'string', readOnly: true }, batch: { not: {} }, a: { type: 'string' } } },
    invalid: true,
  },
  { keyword: '$ref', schema: { $ref: '#/components/schemas/Aliased' }, invalid: true },
  {
    keyword: 'allOf',
    schema: { allOf: [{ $ref: '#/components/schemas/Named' }, { type: 'object', properties: { n: { type: 'integer' } } }] },
    invalid: true,
  },
  { keyword: 'oneOf of one type', schema: { oneOf: [{ type: 'string', enum: ['a'] }, { type: 'string', format: 'uuid' }] }, invalid: true },
  {
    keyword: 'anyOf of several types',
    schema: { anyOf: [{ $ref: '#/components/schemas/Named' }, { type: 'array', items: { $ref: '#/components/schemas/Named' } }] },
    invalid: false,
  },
  { keyword: 'no keyword at all', schema: {}, invalid: false },
];

// Every distinct request body and parameter schema of the spec too.
const seen = new Set<string>();
for (const operation of specOperations()) {
  const schemas: [string, Schema | undefined][] = (operation.parameters ?? []).map((parameter) => [
    `${operation.operationId}'s parameter ${parameter.name}`,
    (parameter as { schema?: Schema }).schema,
  ]);
  const json = operation.requestBody?.content?.['application/json'] as { schema?: Schema } | undefined;
  schemas.push([`${operation.operationId}'s body`, json?.schema]);
  for (const [keyword, schema] of schemas) {
    if (!schema || seen.has(JSON.stringify(schema))) continue;
    seen.add(JSON.stringify(schema));
    cases.push({ keyword, schema, invalid: false });
  }
}

describe('JSON schema → fast-check arbitraries (test/helpers/schema-arbitrary.ts)', () => {
  for (const { keyword, schema, invalid } of cases) {
    const validate = ajv.compile({ ...schema, components: root.components });
    it(`${keyword}: valid values pass the schema`, () => {
      fc.assert(
        fc.property(validValue(schema, { root }), (value) => {
          expect(validate(value), `${JSON.stringify(value)}: ${ajv.errorsText(validate.errors)}`).to.equal(true);
        }),
        { seed: 42, numRuns: 200 },
      );
    });
    if (invalid) {
      it(`${keyword}: invalid values fail it`, () => {
        const arbitrary = invalidValue(schema, { root });
        expect(arbitrary).to.not.equal(undefined);
        fc.assert(
          fc.property(arbitrary!, (value) => {
            expect(validate(value), JSON.stringify(value)).to.equal(false);
          }),
          { seed: 42, numRuns: 200 },
        );
      });
    }
  }

  it('builds values nested as deep as asked', () => {
    expect(deeplyNested(3)).to.deep.equal([{ a: [1] }]);
    expect(JSON.stringify(deeplyNested(200)).match(/\[/g)).to.have.length(100);
  });
});
