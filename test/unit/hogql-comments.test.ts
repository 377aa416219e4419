/**
 * Comments in HogQL, read as PostHog's HogQL lexer reads them: `--` and `//` to the end of the line, a block
 * comment to its first closing mark (not nested), `#` not a comment; inside a string or a quoted identifier all of
 * these are text. Each case is a text with comments and the same text without them: both must parse to the same
 * tree, print the same `hogql` and compile to the same SQL.
 */
import { expect } from 'chai';
import type { Expr } from '../../db/hogql/ast.js';
import { HogQLError } from '../../db/hogql/errors.js';
import { parseExpression, parseSelectItem, withoutComments } from '../../db/hogql/parser.js';
import { compileSelect, parseSelect, printQuery } from '../../db/hogql/select/index.js';

const OPTIONS = { teamId: 4242, timezone: 'UTC', defaultLimit: 100, maxLimit: 50_000 };

const c = (value: string | number | boolean | null): Expr => ({ kind: 'constant', value });
const f = (...chain: (string | number)[]): Expr => ({ kind: 'field', chain });

describe('unit: HogQL comments', () => {
  describe('a query with comments is the query without them (commented → plain)', () => {
    const cases: [string, string][] = [
      ['SELECT count() -- 1\nFROM events', 'SELECT count() FROM events'],
      ['SELECT count() -- 10 events\nFROM events', 'SELECT count() FROM events'],
      ['SELECT count() --10\nFROM events', 'SELECT count() FROM events'],
      ['SELECT count()--1\nFROM events', 'SELECT count() FROM events'],
      ['SELECT count() // 1\nFROM events', 'SELECT count() FROM events'],
      ['SELECT count() /* + 1 */ FROM events', 'SELECT count() FROM events'],
      ['SELECT count()/*+1*/FROM events', 'SELECT count() FROM events'],
      ['SELECT event, /* a block\nover lines */ count() FROM events GROUP BY event', 'SELECT event, count() FROM events GROUP BY event'],
      ['-- leading comment\nSELECT event FROM events', 'SELECT event FROM events'],
      ['/* leading */ SELECT event FROM events', 'SELECT event FROM events'],
      ['SELECT event FROM events -- trailing, no newline', 'SELECT event FROM events'],
      ['SELECT event FROM events /* trailing */', 'SELECT event FROM events'],
      ['SELECT event FROM events; -- after the semicolon', 'SELECT event FROM events'],
      ['SELECT event FROM events /* before */ ;', 'SELECT event FROM events'],
      [
        "SELECT event AS e -- the alias\nFROM events -- the table\nWHERE event = 'a' -- the filter\nGROUP BY event -- groups\nHAVING count() > 1 -- only repeats\nORDER BY e DESC -- biggest\nLIMIT 5 -- five",
        "SELECT event AS e FROM events WHERE event = 'a' GROUP BY event HAVING count() > 1 ORDER BY e DESC LIMIT 5",
      ],
      ['SELECT count() -- x\n\r-- y\r\n FROM events', 'SELECT count() FROM events'],
      ['SELECT 1 - -1 FROM events', 'SELECT 1 - -1 FROM events'],
      ['SELECT 1 --1\n - 1 FROM events', 'SELECT 1 - 1 FROM events'],
      ['SELECT /* -- not a line comment */ 1 FROM events', 'SELECT 1 FROM events'],
      ['SELECT -- /* not a block comment\n 1 FROM events', 'SELECT 1 FROM events'],
      ['SELECT /* /* not nested */ 1 FROM events', 'SELECT 1 FROM events'],
      ['SELECT properties /* c */ . $browser FROM events', 'SELECT properties.$browser FROM events'],
      ['SELECT count(/* none */) FROM events', 'SELECT count() FROM events'],
      ['SELECT event FROM events WHERE event IN (/* c */ SELECT event -- d\n FROM events)', 'SELECT event FROM events WHERE event IN (SELECT event FROM events)'],
      ['SELECT 1 FROM events UNION ALL -- both\nSELECT 2 FROM events', 'SELECT 1 FROM events UNION ALL SELECT 2 FROM events'],
      ['SELECT {n} /* {n} */ FROM events -- {missing}', 'SELECT {n} FROM events'],
    ];
    for (const [commented, plain] of cases) {
      it(JSON.stringify(commented), () => {
        const values = { n: 3 };
        const tree = parseSelect(commented, values);
        expect(tree).to.deep.equal(parseSelect(plain, values));
        expect(printQuery(tree)).to.equal(printQuery(parseSelect(plain, values)));
        const compiled = compileSelect(tree, OPTIONS);
        const reference = compileSelect(parseSelect(plain, values), OPTIONS);
        expect([compiled.text, compiled.params, compiled.hogql]).to.deep.equal([reference.text, reference.params, reference.hogql]);
      });
    }
  });

  describe('expressions and select items (given → want)', () => {
    const cases: [string, Expr][] = [
      ['1 -- 1', c(1)],
      ['1--1', c(1)],
      ['1 /* + 1 */', c(1)],
      ['1 /* + 1 */ + 2', { kind: 'arithmetic', op: '+', left: c(1), right: c(2) }],
      ["event = 'x' -- c", { kind: 'compare', op: '=', left: f('event'), right: c('x') }],
      ["'a -- b'", c('a -- b')],
      ["'a /* b */ c'", c('a /* b */ c')],
      ["'a // b # c'", c('a // b # c')],
      ["'it''s -- here'", c("it's -- here")],
      ["'\\' -- still text'", c("' -- still text")],
      ['properties.`a--b`', f('properties', 'a--b')],
      ['properties."a /* b */"', f('properties', 'a /* b */')],
      ["properties['x -- y'] -- and a comment", f('properties', 'x -- y')],
    ];
    for (const [given, want] of cases) {
      it(JSON.stringify(given), () => expect(parseExpression(given)).to.deep.equal(want));
    }
    it('an alias after a comment, and a comment after an alias', () => {
      expect(parseSelectItem('event /* c */ AS e -- d')).to.deep.equal({ expr: f('event'), name: 'e' });
    });
  });

  describe('refuses (given → the message)', () => {
    const cases: [string, RegExp][] = [
      ['SELECT 1 /* never closed', /^Unterminated comment starting at position 10\.$/],
      ['SELECT 1 /* never closed *', /^Unterminated comment starting at position 10\.$/],
      ["SELECT '/*' /* x", /^Unterminated comment starting at position 13\.$/],
      ['SELECT /* a /* b */ c */ 1 FROM events', /^Expected an expression but found "\/" at position 24\.$/],
      ['SELECT count() # 1\nFROM events', /^Unexpected character "#" at position 16\.$/],
      ['-- only a comment', /^The query is empty\.$/],
      ['SELECT 1; SELECT 2', /^Unexpected character ";" at position 9\.$/],
      ['SELECT 1 -- ;\n; SELECT 2', /^Unexpected character ";" at position 15\.$/],
    ];
    for (const [given, want] of cases) {
      it(JSON.stringify(given), () => expect(() => parseSelect(given)).to.throw(HogQLError, want));
    }
    it('an expression of nothing but a comment', () => {
      expect(() => parseExpression('/* nothing */')).to.throw(HogQLError, /^The expression is empty\.$/);
    });
  });

  describe('withoutComments (given → want)', () => {
    const cases: [string, string][] = [
      ['a -- b\nc', 'a  \nc'],
      ['a /* b */ c', 'a   c'],
      ['a // b', 'a  '],
      ["'--' `/*` \"//\" -- x", "'--' `/*` \"//\"  "],
      ["'a''--' # b", "'a''--' # b"],
    ];
    for (const [given, want] of cases) {
      it(JSON.stringify(given), () => expect(withoutComments(given)).to.equal(want));
    }
    it('an unterminated comment', () => expect(() => withoutComments('a /* b')).to.throw(HogQLError, /Unterminated comment/));
  });
});
