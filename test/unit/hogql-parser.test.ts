import { expect } from 'chai';
import type { Expr } from '../../db/hogql/ast.js';
import { HogQLError } from '../../db/hogql/errors.js';
import { parseExpression, parseSelectItem } from '../../db/hogql/parser.js';

const c = (value: string | number | boolean | null): Expr => ({ kind: 'constant', value });
const f = (...chain: (string | number)[]): Expr => ({ kind: 'field', chain });
const call = (name: string, ...args: Expr[]): Expr => ({ kind: 'call', name, args });

describe('unit: HogQL parser', () => {
  describe('parses (given → want)', () => {
    const cases: [string, Expr][] = [
      ['1', c(1)],
      ['1.5e3', c(1500)],
      ['-2', c(-2)],
      ["'it''s'", c("it's")],
      ["'a\\'b\\\\c\\n'", c("a'b\\c\n")],
      // As PostHog's parser: an unknown escape keeps its backslash (a regex's \d), \0 is dropped, and a
      // backslash before the other quote keeps it.
      ["'\\d+\\.\\$'", c('\\d+\\.\\$')],
      ["'a\\0b\\a\\v'", c('ab\x07\v')],
      ["'\\\"'", c('\\"')],
      ['true', c(true)],
      ['FALSE', c(false)],
      ['null', c(null)],
      ['event', f('event')],
      ['properties.$browser', f('properties', '$browser')],
      ["properties['key with spaces']", f('properties', 'key with spaces')],
      ['properties.`odd-key`', f('properties', 'odd-key')],
      ['properties."quoted key"', f('properties', 'quoted key')],
      ['properties.list[1]', f('properties', 'list', 1)],
      ['properties.a.b.c', f('properties', 'a', 'b', 'c')],
      ['person.properties.email', f('person', 'properties', 'email')],
      ["event = '$pageview'", { kind: 'compare', op: '=', left: f('event'), right: c('$pageview') }],
      ['a == 1', { kind: 'compare', op: '=', left: f('a'), right: c(1) }],
      ['a <> 1', { kind: 'compare', op: '!=', left: f('a'), right: c(1) }],
      ['a != 1', { kind: 'compare', op: '!=', left: f('a'), right: c(1) }],
      ['a >= 1', { kind: 'compare', op: '>=', left: f('a'), right: c(1) }],
      ["a like '%x'", { kind: 'compare', op: 'like', left: f('a'), right: c('%x') }],
      ["a NOT ILIKE '%x'", { kind: 'compare', op: 'not ilike', left: f('a'), right: c('%x') }],
      ["a in ('x', 'y')", { kind: 'in', negated: false, expr: f('a'), list: [c('x'), c('y')] }],
      ['a not in [1, 2]', { kind: 'in', negated: true, expr: f('a'), list: [c(1), c(2)] }],
      ['a is null', { kind: 'isNull', negated: false, expr: f('a') }],
      ['a IS NOT NULL', { kind: 'isNull', negated: true, expr: f('a') }],
      ['a between 1 and 2', { kind: 'between', negated: false, expr: f('a'), low: c(1), high: c(2) }],
      [
        '1 + 2 * 3',
        { kind: 'arithmetic', op: '+', left: c(1), right: { kind: 'arithmetic', op: '*', left: c(2), right: c(3) } },
      ],
      [
        '(1 + 2) * 3',
        { kind: 'arithmetic', op: '*', left: { kind: 'arithmetic', op: '+', left: c(1), right: c(2) }, right: c(3) },
      ],
      ['10 - 4 - 3', { kind: 'arithmetic', op: '-', left: { kind: 'arithmetic', op: '-', left: c(10), right: c(4) }, right: c(3) }],
      ['-event', { kind: 'negate', expr: f('event') }],
      [
        'a = 1 or b = 2 and c = 3',
        {
          kind: 'or',
          exprs: [
            { kind: 'compare', op: '=', left: f('a'), right: c(1) },
            {
              kind: 'and',
              exprs: [
                { kind: 'compare', op: '=', left: f('b'), right: c(2) },
                { kind: 'compare', op: '=', left: f('c'), right: c(3) },
              ],
            },
          ],
        },
      ],
      ['not a = 1', { kind: 'not', expr: { kind: 'compare', op: '=', left: f('a'), right: c(1) } }],
      ['count()', call('count')],
      ['count(*)', call('count')],
      ['COUNT(DISTINCT person_id)', call('uniq', f('person_id'))],
      ["if(a, 'x', 'y')", call('if', f('a'), c('x'), c('y'))],
      ["toStartOfDay(timestamp)", call('toStartOfDay', f('timestamp'))],
      ["'a' || 'b'", call('concat', c('a'), c('b'))],
      ['interval 7 day', { kind: 'interval', amount: c(7), unit: 'day' }],
      ["INTERVAL '2 hours'", { kind: 'interval', amount: c(2), unit: 'hour' }],
      [
        'now() - interval 1 week',
        { kind: 'arithmetic', op: '-', left: call('now'), right: { kind: 'interval', amount: c(1), unit: 'week' } },
      ],
    ];
    for (const [given, want] of cases) {
      it(given, () => expect(parseExpression(given)).to.deep.equal(want));
    }
  });

  describe('select items', () => {
    const cases: [string, { name: string; expr: Expr }][] = [
      ['event', { name: 'event', expr: f('event') }],
      ['  count()  ', { name: 'count()', expr: call('count') }],
      ['count() AS total', { name: 'total', expr: call('count') }],
      ['properties.$browser as "Browser name"', { name: 'Browser name', expr: f('properties', '$browser') }],
    ];
    for (const [given, want] of cases) {
      it(given, () => expect(parseSelectItem(given)).to.deep.equal(want));
    }
  });

  describe('refuses (given → the message)', () => {
    const cases: [string, RegExp][] = [
      ['', /empty/],
      ['1 +', /Expected an expression but found end of expression at position 4/],
      ["'abc", /Unterminated string/],
      ['"abc', /Unterminated quoted identifier/],
      ["event = 'x'; drop table events", /Unexpected character ";" at position 12/],
      ['event = 1 /* c', /Unterminated comment starting at position 11/],
      ['event = -- c', /Expected an expression but found end of expression/],
      ['a = 1 = 2', /Expected end of expression/],
      ['f(1,', /Expected an expression/],
      ['(1', /Expected "\)"/],
      ['properties[1', /Expected "\]"/],
      ['count() AS', /column name after AS/],
      ['event x', /Expected end of expression/],
      ['12abc', /Unexpected "a" after the number 12/],
      ['99999999999999999999', /too large/],
      ["'\u0000'", /NUL/],
      ['a is 1', /Expected NULL/],
      ['interval 3 fortnights', /interval unit/],
      ['@x', /Unexpected character "@"/],
      ['#', /Unexpected character "#"/],
      ['a ! b', /Unexpected character "!"/],
      [`${'('.repeat(100)}1${')'.repeat(100)}`, /nested more than 64/],
      ['x'.repeat(10_001), /at most 10000 characters/],
    ];
    for (const [given, want] of cases) {
      it(JSON.stringify(given.length > 60 ? `${given.slice(0, 60)}…` : given), () => {
        expect(() => (given.includes(' AS') ? parseSelectItem(given) : parseExpression(given))).to.throw(HogQLError, want);
      });
    }
  });
});
