/**
 * Every operation of spec/openapi.yaml has its tests under a `describe('<operationId>', …)` somewhere in test/,
 * so that the tests of an operation are found by its operationId (grep, or `mocha --grep <operationId>`).
 */
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { specOperations } from '../helpers/spec-sync.js';

const TEST_ROOT = join(import.meta.dirname, '..');
const ALL_METHODS = ['get', 'post', 'put', 'patch', 'delete', 'options'];

function testSources(): string[] {
  return readdirSync(TEST_ROOT, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => readFileSync(join(TEST_ROOT, name), 'utf8'));
}

describe('unit: every operationId of the spec names a describe in test/', () => {
  const operationIds = specOperations(ALL_METHODS).map((operation) => operation.operationId);
  const sources = testSources().join('\n');
  const described = (operationId: string) => sources.includes(`describe('${operationId}'`);

  it('reads all 83 operations of the spec', () => {
    expect(operationIds).to.have.length(83);
    expect(new Set(operationIds).size).to.equal(83);
  });

  it('finds a describe for each operation', () => {
    expect(operationIds.filter((operationId) => !described(operationId))).to.deep.equal([]);
  });
});
