/**
 * Operators written as functions (PostHog's insight form) compile to exactly the SQL of their operators, and
 * HogQL's own operators (`??`, `c ? a : b`, the regular expression matches) parse with PostHog's precedence into
 * the functions they stand for.
 */
import { expect } from 'chai';
import type { Expr } from '../../db/hogql/ast.js';
import { HogQLError } from '../../db/hogql/errors.js';
import { operatorForm } from '../../db/hogql/library/operators.js';
import { parseExpression, tokenize } from '../../db/hogql/parser.js';
import { compileSelect, parseSelect, requestPlaceholders, type CompiledSelect } from '../../db/hogql/select/index.js';

const OPTIONS = { teamId: 77, timezone: 'Europe/Paris', defaultLimit: 100, maxLimit: 50_000 };

function compile(query: string): CompiledSelect {
  return compileSelect(parseSelect(query), OPTIONS);
}

describe('unit: HogQL operators', () => {
  describe('a function form compiles to the SQL of its operator form ([function form, operator form])', () => {
    const cases: [string, string][] = [
      ["equals(event, '$pageview')", "event = '$pageview'"],
      ["EQUALS(event, '$pageview')", "event = '$pageview'"],
      ["notEquals(properties.$browser, 'Chrome')", "properties.$browser != 'Chrome'"],
      ['less(properties.price, 10)', 'properties.price < 10'],
      ['greater(properties.price, 10)', 'properties.price > 10'],
      ["lessOrEquals(timestamp, '2024-01-02')", "timestamp <= '2024-01-02'"],
      ["greaterOrEquals(timestamp, toDateTime('2024-01-01 00:00:00'))", "timestamp >= toDateTime('2024-01-01 00:00:00')"],
      ["like(properties.$current_url, '%/blog/%')", "properties.$current_url like '%/blog/%'"],
      ["ilike(properties.$current_url, '%/BLOG/%')", "properties.$current_url ilike '%/BLOG/%'"],
      ["notLike(event, '$%')", "event not like '$%'"],
      ["notILike(event, 'X%')", "event not ilike 'X%'"],
      ["in(event, tuple('$pageview', '$pageleave'))", "event in ('$pageview', '$pageleave')"],
      ["notIn(event, tuple('$pageview', '$pageleave'))", "event not in ('$pageview', '$pageleave')"],
      ["in(event, '$pageview')", "event in ('$pageview')"],
      ["and(equals(event, 'a'), equals(distinct_id, 'b'), greater(properties.n, 1))", "event = 'a' and distinct_id = 'b' and properties.n > 1"],
      ["or(equals(event, 'a'), equals(event, 'b'))", "event = 'a' or event = 'b'"],
      ["not(equals(event, 'a'))", "not (event = 'a')"],
      ["and(not(isNull(properties.x)), or(equals(event, 'a'), less(properties.n, 2)))", "not isNull(properties.x) and (event = 'a' or properties.n < 2)"],
      ['plus(properties.n, 1) > 2', 'properties.n + 1 > 2'],
      ["minus(timestamp, toIntervalDay(1)) > '2024-01-01'", "timestamp - toIntervalDay(1) > '2024-01-01'"],
      ['multiply(properties.n, 3) = 6', 'properties.n * 3 = 6'],
      ['divide(properties.n, 4) = 0.5', 'properties.n / 4 = 0.5'],
      ['modulo(properties.n, 4) = 1', 'properties.n % 4 = 1'],
      ['negate(properties.n) = 1', '-properties.n = 1'],
      ['negate(1) = properties.n', '-1 = properties.n'],
      ['properties.n = plus(1, multiply(2, 3))', 'properties.n = 1 + 2 * 3'],
    ];
    for (const [functionForm, operatorForm] of cases) {
      it(`${functionForm} ≡ ${operatorForm}`, () => {
        let operatorSql: CompiledSelect;
        try {
          operatorSql = compile(`select count() from events where ${operatorForm}`);
        } catch (error) {
          // A function of another part (toIntervalDay) not there yet: the function form must fail the same way.
          expect(() => compile(`select count() from events where ${functionForm}`)).to.throw(HogQLError, (error as Error).message);
          return;
        }
        const functionSql = compile(`select count() from events where ${functionForm}`);
        expect(functionSql.text).to.equal(operatorSql.text);
        expect(functionSql.params).to.deep.equal(operatorSql.params);
      });
    }

    it('in a select list and in a JOIN ON (where equalities become hash-joinable)', () => {
      const pairs: [string, string][] = [
        ["select equals(event, 'a'), plus(1, properties.n) from events", "select event = 'a', 1 + properties.n from events"],
        [
          'select e.event from events e join persons p on equals(e.person_id, p.id)',
          'select e.event from events e join persons p on e.person_id = p.id',
        ],
        [
          "select e.event from events e join persons p on and(equals(e.person_id, p.id), equals(e.event, 'x'))",
          "select e.event from events e join persons p on e.person_id = p.id and e.event = 'x'",
        ],
      ];
      for (const [functionForm, operatorForm] of pairs) {
        expect(compile(functionForm).text, functionForm).to.equal(compile(operatorForm).text);
      }
    });

    it('reads in() of an array literal or array() as its list', () => {
      const value: Expr = { kind: 'field', chain: ['event'] };
      const items: Expr[] = [{ kind: 'constant', value: 'a' }, { kind: 'constant', value: 'b' }];
      const want: Expr = { kind: 'in', negated: false, expr: value, list: items };
      expect(operatorForm('in', [value, { kind: 'array', items }])).to.deep.equal(want);
      expect(operatorForm('in', [value, { kind: 'tuple', items }])).to.deep.equal(want);
      expect(operatorForm('in', [value, { kind: 'call', name: 'array', args: items }])).to.deep.equal(want);
    });

    it('xor(): true when an odd number of its arguments are', () => {
      const compiled = compile("select xor(event = 'a', 1, 0) from events");
      expect(compiled.text).to.include('(((e.event = $1::text) <> (($2::bigint) <> 0)) <> (($3::bigint) <> 0)) as c0');
    });
  });

  describe('keywords as function names', () => {
    const same: [string, string][] = [
      ['and(a, b)', 'a and b'],
      ['AND(a, b)', 'a and b'],
      ['or(a, b)', 'a or b'],
      ['in(a, 1)', 'a in (1)'],
      ["like(a, 'x%')", "a like 'x%'"],
      ["ilike(a, 'x%')", "a ilike 'x%'"],
      // `not(` directly is the function (binding like a call); `not (` is the operator (binding loosely).
      ['not(a) = b', '(not a) = b'],
      ['not (a) = b', 'not (a = b)'],
      ['not(a)', 'not a'],
      // As infix operators they stay operators, spaces or not.
      ['x = 1 and(y = 2)', 'x = 1 and y = 2'],
      ['x in(1, 2)', 'x in (1, 2)'],
      ['x not in(1, 2)', 'x not in (1, 2)'],
    ];
    for (const [given, want] of same) {
      it(`${given} parses as ${want}`, () => expect(parseExpression(given)).to.deep.equal(parseExpression(want)));
    }
  });

  describe("HogQL's own operators (given ≡ the functions they stand for)", () => {
    const same: [string, string][] = [
      ['a ?? b', 'ifNull(a, b)'],
      ['a ?? b ?? c', 'ifNull(ifNull(a, b), c)'],
      // Precedence as PostHog's grammar: `??` below comparison, above NOT.
      ['a ?? b = c', 'ifNull(a, b = c)'],
      ['a = b ?? c', 'ifNull(a = b, c)'],
      ['not a ?? b', 'not ifNull(a, b)'],
      ['a ?? b and c', 'ifNull(a, b) and c'],
      ['a + 1 ?? 2', 'ifNull(a + 1, 2)'],
      ['c ? a : b', 'if(c, a, b)'],
      ['c ? a : d ? e : f', 'if(c, a, if(d, e, f))'],
      ['c ? d ? 1 : 2 : 3', 'if(c, if(d, 1, 2), 3)'],
      ['x or y ? 1 : 2', 'if(x or y, 1, 2)'],
      ['x = 1 and y ? a + 1 : b ?? 0', 'if(x = 1 and y, a + 1, ifNull(b, 0))'],
      ['(c ? 1 : 2) + 1', 'if(c, 1, 2) + 1'],
      ["a =~ 'x'", "match(a, 'x')"],
      ["a ~ 'x'", "match(a, 'x')"],
      ["a !~ 'x'", "not match(a, 'x')"],
      ["a =~* 'x'", "match(a, '(?i)x')"],
      ["a ~* 'x'", "match(a, '(?i)x')"],
      ["a !~* 'x'", "not match(a, '(?i)x')"],
      ['a =~* b', "match(a, concat('(?i)', b))"],
      ["a!~*'x'", "not match(a, '(?i)x')"],
      ["a =~ 'x' and b", "match(a, 'x') and b"],
      ["a || 'y' =~ 'x'", "match(concat(a, 'y'), 'x')"],
      ["not a =~ 'x'", "not match(a, 'x')"],
      // Two NULL constants match, as PostHog's printer answers them.
      ['null =~ null', 'true'],
      ['null =~* null', 'true'],
      ['null !~ null', 'false'],
      ['null !~* null', 'false'],
      ["null =~ 'x'", "match(null, 'x')"],
      // The operators beside them keep their meaning.
      ['a!=b', 'a != b'],
      ['a - -1', 'a - (-1)'],
      ['a<=b', 'a <= b'],
    ];
    for (const [given, want] of same) {
      it(`${given} ≡ ${want}`, () => expect(parseExpression(given)).to.deep.equal(parseExpression(want)));
    }

    it('tokenizes the longest operator first', () => {
      const ops = (text: string) => tokenize(text).filter((token) => token.type === 'op').map((token) => (token as { value: string }).value);
      expect(ops('a=~*b!~*c=~d!~e~*f~g??h?i:j!=k==l')).to.deep.equal(['=~*', '!~*', '=~', '!~', '~*', '~', '??', '?', ':', '!=', '==']);
    });

    it('compiles to the functions: ?? as coalesce, the ternary as case, =~* with (?i)', () => {
      expect(compile("select properties.a ?? 'none' from events").text).to.equal(compile("select ifNull(properties.a, 'none') from events").text);
      expect(compile("select event = 'a' ? 1 : 2 from events").text).to.equal(compile("select if(event = 'a', 1, 2) from events").text);
      const insensitive = compile("select count() from events where event =~* '^\\$PAGE'");
      expect(insensitive.text).to.include('(e.event ~ $2::text)');
      expect(insensitive.params[1]).to.equal('(?i)^\\$PAGE');
    });

    it('LIKE with a NULL is = with a NULL, NOT LIKE != (PostHog prints them as isNull and isNotNull)', () => {
      expect(compile("select properties.a like null, null not ilike properties.a from events").text).to.equal(
        compile('select properties.a = null, null != properties.a from events').text,
      );
    });

    it('a Bool beside numbers is the number 0 or 1, as a ClickHouse Bool is a UInt8', () => {
      const text = compile("select if(event = 'a', 2, true), [1, false] from events").text;
      expect(text).to.include('else ($3::boolean)::int::bigint end');
      expect(text).to.include('to_jsonb(($5::boolean)::int::bigint)');
      expect(compile('select 10 ?? true ? 20 : 30').text).to.include('::int::bigint');
    });
  });

  describe('HogQLX tags: the tuples PostHog compiles them to', () => {
    const c = (value: string | boolean): Expr => ({ kind: 'constant', value });
    const tuple = (...items: Expr[]): Expr => ({ kind: 'tuple', items });
    const field = (...chain: string[]): Expr => ({ kind: 'field', chain });
    const cases: [string, Expr][] = [
      ['<strong>{event}</strong>', tuple(c('__hx_tag'), c('strong'), c('children'), tuple(field('event')))],
      [
        '<a href={properties.$current_url}>Open {event}</a>',
        tuple(c('__hx_tag'), c('a'), c('href'), field('properties', '$current_url'), c('children'), tuple(c('Open '), field('event'))),
      ],
      [
        "<RecordingButton sessionId={properties.$session_id} recordingStatus='active' inline />",
        tuple(c('__hx_tag'), c('RecordingButton'), c('sessionId'), field('properties', '$session_id'), c('recordingStatus'), c('active'), c('inline'), c(true)),
      ],
      // Text is not HogQL: quotes, commas and keywords in it are text.
      ["<p>it's a, b or c</p>", tuple(c('__hx_tag'), c('p'), c('children'), tuple(c("it's a, b or c")))],
      // White space holding a line break between children is indentation (dropped); other text is kept as written.
      ['<div>\n  <b>x</b>\n  <i>{1}</i>\n</div>', tuple(c('__hx_tag'), c('div'), c('children'), tuple(
        tuple(c('__hx_tag'), c('b'), c('children'), tuple(c('x'))),
        tuple(c('__hx_tag'), c('i'), c('children'), tuple({ kind: 'constant', value: 1 })),
      ))],
      ['<em> a </em>', tuple(c('__hx_tag'), c('em'), c('children'), tuple(c(' a ')))],
      ['<hr/>', tuple(c('__hx_tag'), c('hr'))],
      ['<span title={event = \'a\' ? \'x\' : \'y\'}></span>', tuple(c('__hx_tag'), c('span'), c('title'), parseExpression("if(event = 'a', 'x', 'y')"))],
    ];
    for (const [given, want] of cases) {
      it(given, () => expect(parseExpression(given)).to.deep.equal(want));
    }

    it('in a select list, printed as its tuple', () => {
      const query = parseSelect("select <strong>{event}</strong> as s, <a href='x'>y</a> from events");
      expect((query as { columns: { expr: Expr }[] }).columns[0]!.expr).to.deep.equal(tuple(c('__hx_tag'), c('strong'), c('children'), tuple(field('event'))));
    });

    it('`<` where an operand ends stays less-than', () => {
      expect(parseExpression('a <b and c <d')).to.deep.equal(parseExpression('(a < b) and (c < d)'));
      expect(parseExpression("x <y or 1 <2")).to.deep.equal(parseExpression('x < y or 1 < 2'));
      expect(parseExpression('f(x) <g(y)')).to.deep.equal(parseExpression('f(x) < g(y)'));
    });

    const refused: [string, RegExp][] = [
      ['<script>alert(1)</script>', /Unknown tag <script>: the HogQLX tags are <Sparkline>/],
      ['<b>x</i>', /Opening and closing HogQLX tags must match. Got b and i./],
      ['<b>x', /The tag <b> starting at position 1 has no closing <\/b>./],
      ['<b x=1 />', /The attribute x of <b> needs a quoted value or \{an expression\}/],
      ['<b x={event>', /not closed/],
      ["<p children='a'>b</p>", /both children and a 'children' attribute/],
      ['<b>{}</b>', /Expected an expression inside \{ \}/],
      [`${'<b>'.repeat(40)}x${'</b>'.repeat(40)}`, /Tags are nested more than 32 levels deep/],
    ];
    for (const [given, message] of refused) {
      it(`refuses ${given.slice(0, 40)}`, () => expect(() => parseExpression(given)).to.throw(HogQLError, message));
    }
  });

  describe('refusals (400)', () => {
    const refused: [string, RegExp][] = [
      ['select a ? b from events', /Expected ":"/],
      ['select 1 ??, 2 from events', /Expected an expression but found ","/],
      ['select event =~, 2 from events', /Expected an expression but found ","/],
      ['select : 1 from events', /Expected an expression/],
      ['select equals(event) from events', /equals\(\) takes 2 arguments, got 1/],
      ["select and(event = 'a') from events", /and\(\) takes at least 2 arguments, got 1/],
      ['select not() from events', /not\(\) takes 1 argument, got 0/],
      ["select in(event, 'a', 'b') from events", /in\(\) takes 2 arguments, got 3/],
      ["select count() from events where event =~ '\\p{L}'", /cannot be run/],
      ['select equals(1)(event) from events', /equals\(\) takes no parameters/],
    ];
    for (const [query, message] of refused) {
      it(query, () => expect(() => compile(query)).to.throw(HogQLError, message));
    }
  });

  describe('{filters} and {variables.name}', () => {
    const hostile = "x' or 1=1; drop table persons; --";
    const placeholders = requestPlaceholders(
      {
        properties: [{ key: hostile, value: hostile }, { key: 'tier', value: hostile, type: 'person' }],
        dateRange: { date_from: '2024-01-01', date_to: '2024-02-01T00:00:00Z' },
      },
      { v: { variableId: 'v', code_name: 'name', value: hostile } },
      'Europe/Paris',
    );

    it('binds every value of the filters and variables; the environment filter stays on every table', () => {
      const compiled = compileSelect(
        parseSelect('select count() from events where {filters} and event = {variables.name} and distinct_id in (select distinct_id from events where {filters})', {}, placeholders),
        OPTIONS,
      );
      expect(compiled.text).to.not.include('drop table');
      expect(compiled.params).to.include(hostile);
      expect(compiled.params).to.include('2024-01-01');
      expect(compiled.text.match(/e\.team_id = \$\d+::int/g)?.length).to.equal(2);
    });

    it('{filters} is the condition PostHog builds: properties, then timestamp < date_to, then timestamp >= date_from', () => {
      const query = parseSelect('select 1 from events where {filters}', {}, placeholders) as { where: Expr };
      const field = (...chain: string[]): Expr => ({ kind: 'field', chain });
      expect(query.where).to.deep.equal({
        kind: 'and',
        exprs: [
          {
            kind: 'and',
            exprs: [
              { kind: 'in', negated: false, expr: field('properties', hostile), list: [{ kind: 'constant', value: hostile }] },
              { kind: 'in', negated: false, expr: field('person', 'properties', 'tier'), list: [{ kind: 'constant', value: hostile }] },
            ],
          },
          { kind: 'compare', op: '<', left: field('timestamp'), right: { kind: 'constant', value: '2024-02-01T00:00:00Z' } },
          { kind: 'compare', op: '>=', left: field('timestamp'), right: { kind: 'constant', value: '2024-01-01' } },
        ],
      });
    });

    it('without filters, {filters} is true; without a variable, a 400 naming it', () => {
      expect((parseSelect('select 1 from events where {filters}') as { where: Expr }).where).to.deep.equal({ kind: 'constant', value: true });
      expect(() => parseSelect('select {variables.nope} from events')).to.throw(HogQLError, 'Variable nope is missing from query.');
      expect(() => parseExpression('{filters}')).to.throw(HogQLError, /Unexpected character "\{"/);
    });
  });

  it('binds every value of a regular expression operator or an operator function as a parameter', () => {
    const hostile = "x' or 1=1; drop table events; --";
    const compiled = compile(`select count() from events where event =~* '${hostile.replace(/'/g, "\\'")}' or equals(event, '${hostile.replace(/'/g, "\\'")}')`);
    expect(compiled.text).to.not.include('drop table');
    expect(compiled.params).to.include(hostile);
  });
});
