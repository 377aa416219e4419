import { expect } from 'chai';
import { jsonValueProblem, MAX_JSON_DEPTH, scanJsonValue } from '../../db/core/json-limits.js';

/** `depth` arrays, one inside the other, parsed as a client's JSON would be. */
const nested = (depth: number, inner = '') => JSON.parse(`${'['.repeat(depth)}${inner}${']'.repeat(depth)}`) as unknown;

describe('JSON a request may not hold (db/core/json-limits.ts)', () => {
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

  describe('notices numbers beyond 2^53, which JSON.parse rounds if written as integers (exact-json.ts)', () => {
    const cases: Array<{ text: string; want: boolean }> = [
      { text: '{"id":12345678901234567890}', want: true },
      { text: '[[-9007199254740993]]', want: true },
      { text: '1e21', want: true },
      { text: '{"ms":1732200000123,"max":9007199254740991,"x":-9007199254740991}', want: false },
      { text: '{"big":1.5e300}', want: true },
      { text: '{"scroll":0.7142857142857143,"sum":0.30000000000000004,"small":-1.5e-300}', want: false },
      { text: '"12345678901234567890"', want: false },
    ];
    for (const { text, want } of cases) {
      it(`${want ? 'in' : 'not in'} ${text}`, () => {
        expect(scanJsonValue(JSON.parse(text))).to.deep.equal({ problem: null, largeNumbers: want });
      });
    }
  });
});
