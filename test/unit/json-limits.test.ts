import { expect } from 'chai';
import { jsonValueProblem, MAX_JSON_DEPTH } from '../../handlers/json-limits.js';

/** `depth` arrays, one inside the other, parsed as a client's JSON would be. */
const nested = (depth: number, inner = '') => JSON.parse(`${'['.repeat(depth)}${inner}${']'.repeat(depth)}`) as unknown;

describe('JSON a request may not hold (handlers/json-limits.ts)', () => {
  const cases: Array<{ name: string; given: unknown; want: string | null }> = [
    { name: 'a primitive', given: 'text', want: null },
    { name: 'null', given: null, want: null },
    { name: 'an ordinary event', given: { event: 'e', properties: { a: [1, { b: 'c' }], d: null, n: -1.5e300 } }, want: null },
    { name: `${MAX_JSON_DEPTH} levels`, given: nested(MAX_JSON_DEPTH), want: null },
    { name: `${MAX_JSON_DEPTH + 1} levels`, given: nested(MAX_JSON_DEPTH + 1), want: 'the JSON is nested more than 127 levels deep' },
    { name: 'objects nested too deep', given: JSON.parse(`${'{"a":'.repeat(200)}1${'}'.repeat(200)}`), want: 'the JSON is nested more than 127 levels deep' },
    { name: '100,000 levels, without running out of stack', given: nested(100_000), want: 'the JSON is nested more than 127 levels deep' },
    { name: 'a number beyond the double range', given: JSON.parse('1e400'), want: 'a number is out of range' },
    { name: 'one deep inside', given: JSON.parse('{"batch":[{"properties":{"x":[-1e999]}}]}'), want: 'a number is out of range' },
    { name: 'one under a key named __proto__', given: JSON.parse('{"__proto__":{"n":1e400}}'), want: 'a number is out of range' },
    { name: 'one beside deep arrays', given: nested(10, '1e400'), want: 'a number is out of range' },
  ];
  for (const { name, given, want } of cases) {
    it(`${want === null ? 'accepts' : 'refuses'} ${name}`, () => {
      expect(jsonValueProblem(given)).to.equal(want);
    });
  }
});
