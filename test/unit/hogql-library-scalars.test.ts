/**
 * The scalar families of the function library (strings, numbers, conversions, JSON, URLs) at compile time:
 * every function compiles, for every count of arguments it takes, to SQL whose text holds nothing of the query
 * (each value a bound parameter) or refuses with a HogQLError (a 400), never another error (a 500); calls with
 * the wrong count of arguments, non-constant patterns and unbounded sizes are refused with their messages.
 */
import { expect } from 'chai';
import type { FunctionDef } from '../../db/hogql/functions.js';
import { HogQLError } from '../../db/hogql/errors.js';
import { CONVERSIONS } from '../../db/hogql/library/conversions.js';
import { IP } from '../../db/hogql/library/ip.js';
import { JSON_FAMILY } from '../../db/hogql/library/json.js';
import { MATH } from '../../db/hogql/library/math.js';
import { STRINGS } from '../../db/hogql/library/strings.js';
import { URLS } from '../../db/hogql/library/urls.js';
import { compileSelect, parseSelect } from '../../db/hogql/select/index.js';
import { sql } from '../../db/hogql/sql.js';

const OPTIONS = { teamId: 4242, timezone: 'Europe/Paris', defaultLimit: 100, maxLimit: 50_000 };
const compile = (query: string) => compileSelect(parseSelect(query), OPTIONS);

/** A text no SQL of ours contains: where it shows in a statement's text, the query's text reached SQL. */
const MARKER = 'zq_marker_qz';

/** Arguments of each kind a function may be given: a marked text, a number, a property, an array. */
const ARGUMENTS = [`'${MARKER}'`, '3', 'properties.$marker_zq', `splitByChar(',', '${MARKER}')`];

const FAMILIES = [STRINGS, MATH, CONVERSIONS, JSON_FAMILY, URLS, IP];

function counts(fn: FunctionDef): number[] {
  const most = Math.min(fn.maxArgs, fn.minArgs + 2);
  return Array.from({ length: most - fn.minArgs + 1 }, (_unused, index) => fn.minArgs + index);
}

describe('unit: HogQL scalar function library', () => {
  describe('compiles each function with any arguments to parameterised SQL, or refuses with a HogQLError', () => {
    for (const family of FAMILIES) {
      for (const fn of family.definitions) {
        it(`${family.title}: ${fn.name}`, () => {
          for (const count of counts(fn)) {
            for (const kind of ARGUMENTS) {
              const query = `select ${fn.name}(${Array.from({ length: count }, () => kind).join(', ')}) from events`;
              try {
                const compiled = compile(query);
                expect(compiled.text, query).not.to.include(MARKER);
                expect(compiled.text, query).not.to.include('marker');
              } catch (error) {
                expect(error, `${query}: ${String(error)}`).to.be.instanceOf(HogQLError);
              }
            }
          }
        });
      }
    }
  });

  describe('refuses (query → the message)', () => {
    const cases: [string, string | RegExp][] = [
      ["select left('a') from events", 'left() takes 2 arguments, got 1.'],
      ["select substring('a') from events", 'substring() takes 2 to 3 arguments, got 1.'],
      ["select position('a', 'b', 1, 2) from events", 'position() takes 2 to 3 arguments, got 4.'],
      ["select format('{}') from events", 'format() takes at least 2 arguments, got 1.'],
      ['select greatest(1) from events', 'greatest() takes at least 2 arguments, got 1.'],
      ["select IPv4CIDRToRange(toIPv4('1.2.3.4'), 33) from events", 'The prefix length of IPv4CIDRToRange() must be from 0 to 32.'],
      ["select cutIPv6(toIPv6('::1'), event, 0) from events", 'The bytes to cut for IPv6 of cutIPv6() must be an integer constant.'],
      ["select isIPAddressInRange('1.2.3.4', '1.2.3.0/33') from events", /cannot read "1\.2\.3\.0\/33" as a range/],
      ["select parseDateTime64BestEffort('2024-01-01', 10) from events", 'The precision of parseDateTime64BestEffort() must be from 0 to 9.'],
      ["select parseDateTimeBestEffortOrNull('Fri, 15 Mar 2024 10:00:00 GMT') from events", /reads ISO 8601 text and Unix seconds here/],
      ["select format('{} {}', 'a') from events", 'The pattern of format() names argument 1, which the call does not have.'],
      ["select format('{x}', 'a') from events", 'The pattern of format() has a { that is not {} or {n}.'],
      ["select format('}', 'a') from events", 'The pattern of format() has a } that closes nothing.'],
      ['select extractAll(event, event) from events', 'The pattern of extractAll() must be a string constant.'],
      ["select extractAll(event, '\\\\p{L}') from events", /\\p\{L\}/],
      ["select splitByChar('ab', event) from events", 'The separator of splitByChar() must be a constant of one character.'],
      ['select splitByString(event, event) from events', 'The separator of splitByString() must be a string constant.'],
      ["select replaceRegexpAll(event, 'a', event) from events", 'The replacement of replaceRegexpAll() must be a string constant.'],
      ["select extractAllGroupsHorizontal(event, '[(]a') from events", 'The pattern of extractAllGroupsHorizontal() must have a group: (…).'],
      ["select regexpExtract(event, 'a', 300) from events", 'The group of regexpExtract() must be from 0 to 255.'],
      ["select regexpExtract(event, 'a', properties.n) from events", 'The group of regexpExtract() must be an integer constant.'],
      ["select repeat('a', 1000001) from events", 'repeat() can build at most 1000000 characters.'],
      ["select rightPad('a', 2000000, 'b') from events", 'rightPad() can build at most 1000000 characters.'],
      ['select ngrams(event, -1) from events', 'The size of ngrams() must be from 1 to 1000000.'],
      ["select multiSearchAny(event, 'a') from events", 'The second argument of multiSearchAny() must be an array of strings.'],
      ["select JSONExtract(properties.doc, 'a', 'Tuple(String)') from events", /JSONExtract\(\) cannot give the type Tuple\(String\)/],
      ['select JSONExtract(properties.doc) from events', 'JSONExtract() takes at least 2 arguments, got 1.'],
      ['select JSONHas(properties.doc, event) from events', 'The keys of JSONHas() must be string or integer constants.'],
      ["select JSON_VALUE(properties.doc, '$.a[*]') from events", 'The path of JSON_VALUE() must be $ followed by .key or [n] steps.'],
      ["select toDecimal('1.5', event) from events", 'The scale of toDecimal() must be an integer constant.'],
      ["select toJSONString(splitByChar(',', 'a')) from events", /toJSONString\(\) of an array is not supported/],
      ['select roundDown(1, 2) from events', 'The second argument of roundDown() must be an array of numbers.'],
      ['select transform(1, 2, 3) from events', 'The second and third arguments of transform() must be arrays.'],
      ['select e(1) from events', 'e() takes 0 arguments, got 1.'],
      ['select bitNot(1) from events', /^The function bitNot\(\) is not available: It depends on the width/],
      ["select reinterpretAsUInt8('a') from events", /^The function reinterpretAsUInt8\(\) is not available/],
      ["select geohashEncode(1, 2) from events", /^The function geohashEncode\(\) is not available/],
    ];
    for (const [query, message] of cases) {
      it(query, () => {
        const check = expect(() => compile(query)).to.throw(HogQLError);
        if (typeof message === 'string') check.with.property('message', message);
        else check.that.satisfies((error: Error) => message.test(error.message));
      });
    }
  });

  it('bounds the text a query may build: large built texts weigh in the bound on an expression', () => {
    const padded = Array.from({ length: 4 }, () => 'leftPad(event, 1000000)').join(', ');
    expect(() => compile(`select concat(${padded}) from events`)).not.to.throw();
    const many = Array.from({ length: 6 }, (_unused, index) => `repeat(event, ${index + 999_990})`).join(', ');
    expect(() => compile(`select concat(${many}) from events`)).to.throw(HogQLError, /too complex/);
    const small = Array.from({ length: 200 }, () => "repeat('ab', 10)").join(', ');
    expect(() => compile(`select concat(${small}) from events`)).not.to.throw();
  });

  it('refuses deeply repeated arguments as too complex (a HogQLError), never overflowing the call stack', () => {
    for (const wrap of [(x: string) => `IPv4NumToString(IPv4StringToNumOrDefault(${x}))`, (x: string) => `toString(parseDateTime64BestEffortOrZero(${x}))`, (x: string) => `greatest(${x}, event, 1)`]) {
      let query = "concat(event, 'a')";
      for (let depth = 0; depth < 24; depth += 1) query = wrap(query);
      try {
        compile(`select ${query} from events`);
      } catch (error) {
        expect(error, query).to.be.instanceOf(HogQLError);
      }
    }
    // A composition of many bound values keeps them all.
    const many = { text: '?', params: Array.from({ length: 300_000 }, (_unused, index) => index), weight: 1 };
    expect(sql`(${many})`.params).to.have.length(300_000);
  });

  it('binds every value of a call, patterns and separators included', () => {
    const compiled = compile("select replaceRegexpAll(event, 'a(b)', '\\\\1'), splitByString('; drop', event), extractURLParameter(event, 'x') from events");
    expect(compiled.text).not.to.include('drop');
    expect(compiled.params).to.include('a(b)');
    expect(compiled.params).to.include('; drop');
  });
});
