/**
 * Arrays, tuples, element access, lambdas and `(expr AS name)` in the grammar and the compiler: the trees they
 * parse to and the text they print back as, the refusals, the bounds (literal sizes, ranges, a lambda compiled
 * once however deeply nested) and that no text of the query reaches the SQL except as a bound parameter.
 */
import { expect } from 'chai';
import type { Expr } from '../../db/hogql/ast.js';
import { HogQLError } from '../../db/hogql/errors.js';
import { parseExpression } from '../../db/hogql/parser.js';
import { compileSelect, parseSelect, type CompiledSelect } from '../../db/hogql/select/index.js';
import { printExpr } from '../../db/hogql/select/print.js';

const OPTIONS = { teamId: 7, timezone: 'UTC', defaultLimit: 100, maxLimit: 50_000 };

const c = (value: string | number | boolean | null): Expr => ({ kind: 'constant', value });
const f = (...chain: (string | number)[]): Expr => ({ kind: 'field', chain });

function compile(query: string): CompiledSelect {
  return compileSelect(parseSelect(query), OPTIONS);
}

describe('unit: HogQL arrays, tuples and lambdas', () => {
  describe('parses (given → tree)', () => {
    const cases: [string, Expr][] = [
      ['[1, 2]', { kind: 'array', items: [c(1), c(2)] }],
      ['array(1, 2)', { kind: 'array', items: [c(1), c(2)] }],
      ['[]', { kind: 'array', items: [] }],
      ['(1, 2)', { kind: 'tuple', items: [c(1), c(2)] }],
      ['tuple(1)', { kind: 'tuple', items: [c(1)] }],
      ['(1)', c(1)],
      ['[1, 2][1]', { kind: 'element', expr: { kind: 'array', items: [c(1), c(2)] }, index: c(1), tuple: false }],
      ["splitByChar(',', x)[-1]", { kind: 'element', expr: { kind: 'call', name: 'splitByChar', args: [c(','), f('x')] }, index: c(-1), tuple: false }],
      ['tuple(1, 2).2', { kind: 'element', expr: { kind: 'tuple', items: [c(1), c(2)] }, index: c(2), tuple: true }],
      ['(a, b).1', { kind: 'element', expr: { kind: 'tuple', items: [f('a'), f('b')] }, index: c(1), tuple: true }],
      // Fields keep their chains; a computed index on one is an element.
      ["properties.list[1]", f('properties', 'list', 1)],
      ["properties['a b']", f('properties', 'a b')],
      ['properties.list[i]', { kind: 'element', expr: f('properties', 'list'), index: f('i'), tuple: false }],
      ['x -> x + 1', { kind: 'lambda', params: ['x'], body: { kind: 'arithmetic', op: '+', left: f('x'), right: c(1) } }],
      ['(x, y) -> x', { kind: 'lambda', params: ['x', 'y'], body: f('x') }],
      [
        'arrayMap(x -> x, [1])',
        { kind: 'call', name: 'arrayMap', args: [{ kind: 'lambda', params: ['x'], body: f('x') }, { kind: 'array', items: [c(1)] }] },
      ],
      ['(a AS b)', { kind: 'alias', expr: f('a'), name: 'b' }],
      ['indexOf(a AS b, b)', { kind: 'call', name: 'indexOf', args: [{ kind: 'alias', expr: f('a'), name: 'b' }, f('b')] }],
      ['[a AS b, 1]', { kind: 'array', items: [{ kind: 'alias', expr: f('a'), name: 'b' }, c(1)] }],
      ['(1 + 2 AS three) * 2', { kind: 'arithmetic', op: '*', left: { kind: 'alias', expr: { kind: 'arithmetic', op: '+', left: c(1), right: c(2) }, name: 'three' }, right: c(2) }],
      // Member access binds tighter than unary minus.
      ['-[1][1]', { kind: 'negate', expr: { kind: 'element', expr: { kind: 'array', items: [c(1)] }, index: c(1), tuple: false } }],
      ['(a, b) IN ((1, 2))', { kind: 'in', negated: false, expr: { kind: 'tuple', items: [f('a'), f('b')] }, list: [{ kind: 'tuple', items: [c(1), c(2)] }] }],
    ];
    for (const [given, want] of cases) {
      it(given, () => expect(parseExpression(given)).to.deep.equal(want));
    }
  });

  describe('prints back as it parses (text → printed → same tree)', () => {
    const texts = [
      '[1, [2, 3], []]',
      "(1, 'a').2",
      'tuple(1)',
      'arrayMap((x, y) -> x * y, [1], [2])',
      'arrayFilter(x -> x.1 > 1, [(1, 2)])',
      '[1, 2][-1]',
      "splitByChar(',', event)[2]",
      '(event AS e)',
      'arrayMap(x -> arrayMap(y -> x + y, [1]), [2])',
    ];
    for (const text of texts) {
      it(text, () => {
        const tree = parseExpression(text);
        expect(parseExpression(printExpr(tree))).to.deep.equal(tree);
      });
    }
  });

  describe('refuses (given → message)', () => {
    const cases: [string, RegExp][] = [
      ['[1, 2', /Expected "\]"/],
      ['(x, x) -> x', /same parameter twice/],
      ['tuple(1, 2).a', /position of a tuple element/],
      [`[${Array.from({ length: 10_001 }, () => '1').join(',')}]`, /at most 10000 characters|at most 10000 items/],
    ];
    for (const [given, want] of cases) {
      it(given.length > 60 ? `${given.slice(0, 60)}…` : given, () => expect(() => parseExpression(given)).to.throw(HogQLError, want));
    }

    const compiled: [string, RegExp][] = [
      ['select x -> 1 from events', /can only be an argument of a function that calls it/],
      ['select arrayMap(x -> y, [1]) from events', /Unknown field "y"/],
      ['select arrayMap(x -> x, [1]) from events where x = 1', /Unknown field "x"/],
      ['select arrayFilter(x -> sum(x) > 1, [1]) from events', /lambda cannot hold an aggregate function that reads its parameter "x"/],
      ['select arrayMap(x -> sum(arrayMap(y -> y + x, [1])), [1]) from events', /lambda cannot hold an aggregate function that reads its parameter "x"/],
      ['select arrayMap(x -> count(), [1]) from events', /count\(\) here reads none/],
      ["select [1, 'a'] from events", /no common type/],
      ['select [[1], 2] from events', /no common type/],
      ['select (1, 2).0 from events', /no item 0/],
      ["select splitByChar(',', event)[0] from events", /SQL indexes start from one, not from zero/],
      ["select arrayElement(splitByChar(',', event), 0) from events", /SQL indexes start from one, not from zero/],
      ['select properties.tags[0] from events', /^SQL indexes start from one, not from zero\. E\.g: array\[1\]$/],
      ['select properties.tags.0 from events', /^SQL indexes start from one, not from zero\. E\.g: array\.1$/],
      ['select [1, 2] > [1] from events', /only be compared with = and !=/],
      ["select [1]['a'] from events", /index must be an integer/],
      ['select range(1000001) from events', /at most 1000000 elements/],
      ['select arrayWithConstant(2000000, 1) from events', /at most 1000000 elements/],
      ['select arrayMap(x -> range(10001), [1]) from events', /at most 10000 elements inside a lambda/],
      ['select arrayResize([1], -1) from events', /size of 0 or more/],
      ['select arrayMap(x -> x, [1], [2]) from events', /takes 1 parameter but is given 2 arrays/],
      ['select arraySum(x -> x, x -> x) from events', /lambda only as its first argument/],
      ["select arrayReduce('quantile', [1]) from events", /arrayReduce\(\) takes one of the aggregates/],
      ['select arrayReduce(event, [1]) from events', /arrayReduce\(\) takes one of the aggregates/],
    ];
    for (const [given, want] of compiled) {
      it(given, () => expect(() => compile(given)).to.throw(HogQLError, want));
    }
  });

  describe('bounds', () => {
    it('an array literal of 2 000 constants is one bound parameter', () => {
      const query = `select [${Array.from({ length: 2000 }, (_, index) => index).join(',')}] from events`;
      const result = compile(query);
      expect(result.params.filter((param) => typeof param === 'string' && param.startsWith('[0,1,2'))).to.have.length(1);
    });

    it('a long literal of computed items is built in pieces of at most 100 arguments', () => {
      const query = `select [${Array.from({ length: 250 }, () => 'event').join(',')}] from events`;
      const text = compile(query).text;
      expect(text.match(/jsonb_build_array\(/g)).to.have.length(3);
    });

    it('a lambda nested ten deep is compiled once at each level (its SQL grows linearly)', () => {
      const nest = (depth: number): string => (depth === 0 ? '[1]' : `arrayMap(x${depth} -> arraySum(${nest(depth - 1)}) + x${depth}, [1, 2])`);
      const five = compile(`select ${nest(5)} from events`).text.length;
      const ten = compile(`select ${nest(10)} from events`).text.length;
      expect(ten).to.be.below(five * 3);
    });
  });

  describe('no text of the query reaches SQL but as a parameter', () => {
    const hostile = "x'); drop table events; --";
    const queries = [
      `select ['${hostile.replace(/'/g, "''")}'] from events`,
      `select has(['a'], '${hostile.replace(/'/g, "''")}') from events`,
      `select arrayMap(x -> concat(x, '${hostile.replace(/'/g, "''")}'), ['a']) from events`,
      `select ('${hostile.replace(/'/g, "''")}', 1).1 from events`,
      `select arrayStringConcat(['a'], '${hostile.replace(/'/g, "''")}') from events`,
    ];
    for (const query of queries) {
      it(query, () => {
        const result = compile(query);
        expect(result.text).to.not.include('drop table');
        expect(JSON.stringify(result.params)).to.include('drop table');
      });
    }

    it('a lambda parameter named like SQL stays a name of our own', () => {
      const result = compile('select arrayMap(pg_catalog -> pg_catalog + 1, [1]) from events');
      expect(result.text).to.not.include('pg_catalog');
    });

    it('every array function reads only the statement rows of its environment', () => {
      const result = compile("select arrayMap(x -> x, groupArray(event)) from events");
      expect(result.text).to.include('e.team_id = $');
    });
  });
});
