/**
 * The scalar function families (strings, numbers, conversions, JSON, URLs) through POST …/query/: each row is a
 * call with fixed inputs and the exact value ClickHouse's documentation gives for it, nulls and edge cases
 * included. Calls are batched, a group a query, over one seeded event (`… FROM events WHERE event = 'seed'`),
 * whose properties give the inputs read from stored data. NaN and infinities are null in JSON, as in PostHog's.
 * Then the refusals: 400s that name what is wrong, never a 500.
 */
import { expect } from 'chai';
import { insertEvents, type NewEvent } from '../helpers/seed-events.js';
import { testDb } from '../helpers/database.js';
import { newAccount } from '../helpers/fixtures.js';
import type { HttpClient } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const EVENTS: NewEvent[] = [
  {
    event: 'seed',
    distinct_id: 'alice',
    timestamp: '2024-01-01T10:00:00Z',
    properties: {
      text: 'Hello, world!',
      empty: '',
      number_text: '42',
      decimal_text: '1.5',
      count: 7,
      url: 'https://news.clickhouse.com.tr/browse/CONV-6788?utm=abc&page=2#top',
      doc: '{"a": "hello", "b": [-100, 200.0, 300]}',
      object: { x: 1, list: [1, 2] },
      nothing: null,
    },
  },
];

/** Another environment: an event of the same name whose values would change every answer above. */
const OTHER_EVENTS: NewEvent[] = [
  { event: 'seed', distinct_id: 'mallory', timestamp: '2024-01-01T09:00:00Z', properties: { text: 'Evil', url: 'https://evil.test/?page=666', doc: '{"a": "evil"}' } },
];

type Call = readonly [string, unknown];

/** Each group runs as one query; its calls' values are compared in order. */
const GROUPS: { name: string; calls: Call[] }[] = [
  {
    name: 'case, length and padding',
    calls: [
      ["lower('ÀBC')", 'Àbc'],
      ["upper('abcé')", 'ABCé'],
      ["lowerUTF8('ÀBC')", 'àbc'],
      ["upperUTF8('abcé')", 'ABCÉ'],
      ["length('ñ')", 2],
      ["lengthUTF8('ñ')", 1],
      ['length(properties.empty)', 0],
      ["left('Hello', 3)", 'Hel'],
      ["left('Hello', -3)", 'He'],
      ["right('Hello', 3)", 'llo'],
      ["right('Hello', -3)", 'lo'],
      ["leftPad('abc', 7, '*')", '****abc'],
      ["leftPad('def', 7)", '    def'],
      ["leftPad('abc', 2)", 'ab'],
      ["rightPad('abc', 7, '*')", 'abc****'],
      ["lpad('abc', 5, '*')", '**abc'],
      ["rpad('abc', 5, '*')", 'abc**'],
      ['lower(properties.nothing)', null],
      ["repeat('abc', 3)", 'abcabcabc'],
      ["repeat('abc', 0)", ''],
      ["initcap('hello world')", 'Hello World'],
      ["reverseUTF8('añb')", 'bña'],
    ],
  },
  {
    name: 'substrings, formats and encodings',
    calls: [
      ["substring('database', 5)", 'base'],
      ["substring('database', 5, 1)", 'b'],
      ["substring('Hello, world!', -6)", 'world!'],
      ["substring('Hello', 0, 3)", ''],
      ["substring('Hello', -3, 2)", 'll'],
      ["substring('Hello', 2, -1)", 'ell'],
      ["substringUTF8('añbc', 2, 2)", 'ñb'],
      ["format('{1} {0} {1}', 'World', 'Hello')", 'Hello World Hello'],
      ["format('{} {}', 'Hello', 'World')", 'Hello World'],
      ["concatWithSeparator('a', '1', '2', '3')", '1a2a3'],
      ["appendTrailingCharIfAbsent('abc', '/')", 'abc/'],
      ["appendTrailingCharIfAbsent('abc/', '/')", 'abc/'],
      ["base64Encode('clickhouse')", 'Y2xpY2tob3VzZQ=='],
      ["base64Decode('Y2xpY2tob3VzZQ==')", 'clickhouse'],
      ["tryBase64Decode('not base64!')", ''],
      ["encodeXMLComponent('<tag>\"&''')", '&lt;tag&gt;&quot;&amp;&apos;'],
      ["decodeXMLComponent('&lt;a&gt; &amp;amp;')", '<a> &amp;'],
      ["ascii('234')", 50],
      ["ascii('')", 0],
      ["hex(255)", 'FF'],
      ["hex(256)", '0100'],
      ["hex('abc')", '616263'],
      ["unhex('616263')", 'abc'],
      ["split_part('a,b,c', ',', 2)", 'b'],
      ["split_part('a,b,c', ',', 4)", ''],
      ["trim('  a  ')", 'a'],
      ["ltrim('  a  ')", 'a  '],
      ["rtrim('  a  ')", '  a'],
      ["trimLeft('xxaxx', 'x')", 'axx'],
      ["btrim('xxaxx', 'x')", 'a'],
    ],
  },
  {
    name: 'searching',
    calls: [
      ["position('Hello, world!', '!')", 13],
      ["position('Hello, world!', 'o', 1)", 5],
      ["position('Hello, world!', 'o', 7)", 9],
      ["position('abc', 'x')", 0],
      ["position('abc', '')", 1],
      ["position('Motörhead', 'r')", 6],
      ["positionUTF8('Motörhead', 'r')", 5],
      ["positionCaseInsensitive('Hello, world!', 'hello')", 1],
      ['position(properties.text, properties.nothing)', null],
      ["multiSearchAllPositions('Hello, World!', splitByChar(',', 'hello,!,world'))", [0, 13, 0]],
      ["multiSearchFirstPosition('Hello World', splitByChar(',', 'llo,Wor,ld'))", 3],
      ["multiSearchFirstIndex('Hello World', splitByChar(',', 'World,Hello'))", 1],
      ["multiSearchAny('ClickHouse', splitByChar(',', 'C,H'))", true],
      ["multiSearchAnyCaseInsensitive('ClickHouse', splitByChar(',', 'x,house'))", true],
      ["extractAll('iphone 123 android 456', '[0-9]+')", ['123', '456']],
      ["extractGroups('hello world', '(\\\\w+) (\\\\w+)')", ['hello', 'world']],
      ["extractAllGroups('abc=111, def=222', '(\\\\w+)=(\\\\w+)')", [['abc', '111'], ['def', '222']]],
      ["extractAllGroupsHorizontal('abc=111, def=222, ghi=333', '(\\\\w+)=(\\\\w+)')", [['abc', 'def', 'ghi'], ['111', '222', '333']]],
      ["extractAllGroupsHorizontal('none', '(\\\\d+)-(\\\\d+)')", [[], []]],
      ["countSubstrings('aaaa', 'aa')", 2],
      ["countSubstrings('abc___abc', 'abc', 4)", 1],
      ["countSubstringsCaseInsensitive('AAAA', 'aa')", 2],
      ["countMatches('foobar.com', 'o+')", 2],
      ["countMatches('aaaa', 'aa')", 2],
      ["hasSubsequence('garbage', 'arg')", true],
      ["hasSubsequence('garbage', 'gbr')", false],
      ["hasSubsequence('a%b', '%')", true],
      ["hasToken('Hello World', 'Hello')", true],
      ["hasToken('Hello World', 'Hell')", false],
      ["hasTokenOrNull('Hello World', 'Hello,World')", null],
      ["regexpExtract('100-200', '(\\\\d+)-(\\\\d+)', 1)", '100'],
      ["regexpExtract('100-200', '(\\\\d+)-(\\\\d+)', 2)", '200'],
      ["regexpExtract('100-200', '(\\\\d+)-(\\\\d+)', 0)", '100-200'],
      ["regexpExtract('100-200', '(\\\\d+)-(\\\\d+)')", '100'],
    ],
  },
  {
    name: 'replacing and splitting',
    calls: [
      ["replaceOne('Hello, Hello world', 'Hello', 'Hi')", 'Hi, Hello world'],
      ["replace('Hello, Hello world', 'Hello', 'Hi')", 'Hi, Hi world'],
      ["replaceRegexpOne('2024-01-15', '(\\\\d{4})-(\\\\d{2})-(\\\\d{2})', '\\\\3.\\\\2.\\\\1')", '15.01.2024'],
      ["replaceRegexpAll('Hello, World!', '.', '\\\\0\\\\0')", 'HHeelllloo,,  WWoorrlldd!!'],
      ["regexpQuoteMeta('a.b*c')", 'a\\.b\\*c'],
      ["translate('Hello, World!', 'delor', 'DELOR')", 'HELLO, WORLD!'],
      ["splitByChar(',', '1,2,3,abcde')", ['1', '2', '3', 'abcde']],
      ["splitByChar(',', '')", ['']],
      ["splitByChar(',', 'a,b,c', 2)", ['a', 'b']],
      ["splitByString(', ', '1, 2 3, 4,5, abcde')", ['1', '2 3', '4,5', 'abcde']],
      ["splitByString('', 'abcde')", ['a', 'b', 'c', 'd', 'e']],
      ["splitByRegexp('\\\\d+', 'a12bc23de345f')", ['a', 'bc', 'de', 'f']],
      ["splitByRegexp('', 'abcde')", ['a', 'b', 'c', 'd', 'e']],
      ["splitByWhitespace('  1!  a,  b.  ')", ['1!', 'a,', 'b.']],
      ["splitByNonAlpha('  1!  a,  b.  ')", ['1', 'a', 'b']],
      ["alphaTokens('abca1abc')", ['abca', 'abc']],
      ["ngrams('ClickHouse', 3)", ['Cli', 'lic', 'ick', 'ckH', 'kHo', 'Hou', 'ous', 'use']],
    ],
  },
  {
    name: 'mathematical functions',
    calls: [
      ['e()', 2.718281828459045],
      ['pi()', 3.141592653589793],
      ['exp(0)', 1],
      ['log(1)', 0],
      ['log(0)', null],
      ['sqrt(16)', 4],
      ['sqrt(-1)', null],
      ['exp2(3)', 8],
      ['log2(8)', 3],
      ['exp10(2)', 100],
      ['log10(1000)', 3],
      ['pow(2, 10)', 1024],
      ['power(0, -1)', null],
      ['intExp2(10)', 1024],
      ['intExp10(3)', 1000],
      ['sign(-5)', -1],
      ['sign(0)', 0],
      ['degrees(pi())', 180],
      ['radians(180)', 3.141592653589793],
      ['factorial(5)', 120],
      ['factorial(0)', 1],
      ['width_bucket(10.15, -8.6, 23, 18)', 11],
      ['atan2(1, 1)', 0.7853981633974483],
      ['hypot(3, 4)', 5],
      ['sin(0)', 0],
      ['cos(0)', 1],
      ['asin(2)', null],
      ['sqrt(properties.count)', 2.6457513110645907],
      ['sqrt(properties.nothing)', null],
    ],
  },
  {
    name: 'rounding and integer arithmetic',
    calls: [
      ['round(2.5)', 2],
      ['round(3.5)', 4],
      ['round(-2.5)', -2],
      ['round(1.125, 2)', 1.12],
      ['round(123.456, -1)', 120],
      ['round(5)', 5],
      ['floor(-1.5)', -2],
      ['floor(1.234, 2)', 1.23],
      ['ceil(1.231, 2)', 1.24],
      ['trunc(-1.9)', -1],
      ['roundBankers(2.5)', 2],
      ['roundBankers(-2.5)', -2],
      ['roundToExp2(10)', 8],
      ['roundToExp2(0.5)', 0],
      ['roundDuration(230)', 180],
      ['roundAge(20)', 18],
      ['roundAge(0)', 0],
      ['intDiv(10, 3)', 3],
      ['intDivOrZero(1, 0)', 0],
      ['moduloOrZero(5, 0)', 0],
      ['positiveModulo(-1, 10)', 9],
      ['gcd(12, 18)', 6],
      ['lcm(4, 6)', 12],
      ['max2(-1, 2)', 2],
      ['min2(-1, 2)', -1],
      ['bitAnd(12, 10)', 8],
      ['bitOr(12, 10)', 14],
      ['bitXor(12, 10)', 6],
      ['bitShiftLeft(1, 4)', 16],
      ['bitShiftRight(16, 2)', 4],
      ['bitTest(43, 1)', 1],
      ['bitTestAll(43, 0, 1, 3, 5)', true],
      ['bitTestAny(43, 2, 4)', false],
      ['bitCount(333)', 5],
      ['bitHammingDistance(111, 121)', 3],
    ],
  },
  {
    name: 'other number functions',
    calls: [
      ['isFinite(1)', true],
      ['isNaN(sqrt(-1))', true],
      ['isInfinite(log(0))', true],
      ['ifNotFinite(log(0), 42)', 42],
      ['formatReadableSize(1024)', '1.00 KiB'],
      ['formatReadableSize(1)', '1.00 B'],
      ['formatReadableDecimalSize(1500)', '1.50 KB'],
      ['formatReadableQuantity(1234567)', '1.23 million'],
      ['formatReadableTimeDelta(100)', '1 minute and 40 seconds'],
      ['formatReadableTimeDelta(432546534)', '13 years, 8 months, 17 days, 7 hours, 48 minutes and 54 seconds'],
      ['formatReadableTimeDelta(0)', '0 seconds'],
      ['formatReadableTimeDelta(3600)', '1 hour'],
      ['least(1, 2)', 1],
      ["greatest('a', 'b')", 'b'],
      ['least(1, properties.nothing)', null],
      ['greatest(1, 3, 2)', 3],
      ['least(1, 3, 2)', 1],
      ["least('b', 'a', 'c')", 'a'],
      ['greatest(1, 3, properties.nothing)', null],
      ["transform('b', splitByChar(',', 'a,b'), splitByChar(',', 'x,y'), 'z')", 'y'],
      ["transform('c', splitByChar(',', 'a,b'), splitByChar(',', 'x,y'), 'z')", 'z'],
    ],
  },
  {
    name: 'conversions and nulls',
    calls: [
      ["toInt('12')", 12],
      ["toInt('1.5')", null],
      ["toInt('x')", null],
      ['toInt(1.9)', 1],
      ['toInt(-1.9)', -1],
      ['toInt(properties.number_text)', 42],
      ['toInt(properties.decimal_text)', null],
      ['toInt(properties.count)', 7],
      ["toIntOrZero('x')", 0],
      ["toFloat('1.5')", 1.5],
      ["toFloat('x')", null],
      ["toFloatOrZero('x')", 0],
      ['toFloat(properties.decimal_text)', 1.5],
      ["toFloatOrDefault('x', 2.5)", 2.5],
      ["toDecimal('1.239', 2)", 1.23],
      ["toUUID('not a uuid')", null],
      ["toUUIDOrDefault('x', '00000000-0000-0000-0000-000000000001')", '00000000-0000-0000-0000-000000000001'],
      ['toString(10 / 4)', '2.5'],
      ['toString(1.0)', '1'],
      ["concat('x', round(2.5), '-', 7 / 2)", 'x2-3.5'],
      ["toJSONString('a/b')", '"a\\/b"'],
      ['toJSONString(1)', '1'],
      ['toJSONString(null)', 'null'],
      ["toBool('true')", true],
      ['nullIf(1, 1)', null],
      ['nullIf(1, 2)', 1],
      ['assumeNotNull(properties.missing)', ''],
      ['toNullable(1)', 1],
      ["UUIDv7ToDateTime('018f05c9-4ab8-7b86-b64e-c9f9f56a9a8b')", '2024-04-22T12:30:29.048Z'],
    ],
  },
  {
    name: 'JSON',
    calls: [
      ['isValidJSON(\'{"a": 1}\')', true],
      ["isValidJSON('{')", false],
      ["JSONHas(properties.doc, 'b')", true],
      ["JSONHas(properties.doc, 'b', 4)", false],
      ['JSONLength(properties.doc)', 2],
      ["JSONLength(properties.doc, 'b')", 3],
      ['JSONType(properties.doc)', 'Object'],
      ["JSONType(properties.doc, 'a')", 'String'],
      ["JSONType(properties.doc, 'b')", 'Array'],
      ["JSONType(properties.doc, 'b', 1)", 'Int64'],
      ["JSONType(properties.doc, 'b', 2)", 'Double'],
      ["JSONArrayLength(properties.doc, 'b')", 3],
      ["JSONArrayLength(properties.doc, 'a')", null],
      ["JSONExtractUInt(properties.doc, 'b', 3)", 300],
      ["JSONExtract(properties.doc, 'b', 'Array(Float64)')", [-100, 200, 300]],
      ["JSONExtract(properties.doc, 'a', 'String')", 'hello'],
      ["JSONExtract(properties.doc, 'a', 'Nullable(Int64)')", null],
      ['JSONExtractKeys(properties.doc)', ['a', 'b']],
      ['JSONExtractKeys(\'{"bb": 1, "a": 2}\')', ['bb', 'a']],
      ['JSONExtractKey(properties.doc, 2)', 'b'],
      ['JSONExtractArrayRaw(\'{"a": "hello", "b": [-100, 200.0, "hello"]}\', \'b\')', ['-100', '200.0', '"hello"']],
      ['JSONExtractKeysAndValues(\'{"x": {"a": 5, "b": 7, "c": 11}}\', \'x\', \'Int8\')', [['a', 5], ['b', 7], ['c', 11]]],
      ['JSONExtractKeysAndValuesRaw(\'{"a": [-100, 200.0], "b": "hello"}\')', [['a', '[-100,200.0]'], ['b', '"hello"']]],
      ['JSONExtractKeysAndValuesRaw(\'{"a": {"c": {"d": "hello world", "f": "x"}}}\')', [['a', '{"c":{"d":"hello world","f":"x"}}']]],
      ['JSONExtractRaw(\'{"a": "hello", "b": [-100, 200.0, 300]}\', \'b\')', '[-100,200.0,300]'],
      ["JSONExtractRaw(properties.doc, 'missing')", ''],
      ['JSON_VALUE(\'{"hello":{"world":"!"}}\', \'$.hello.world\')', '!'],
      ['JSON_VALUE(\'{"array":[[0, 1, 2, 3, 4, 5], [0, -1, -2, -3, -4, -5]]}\', \'$.array[0][1]\')', '1'],
      ['JSON_VALUE(\'{"hello":2}\', \'$.hello\')', '2'],
      ['JSON_VALUE(\'{"hello":{"world":"!"}}\', \'$.hello\')', ''],
      ["JSONLength('not json')", 0],
      ["JSONExtractString(properties.missing, 'a')", null],
      ["JSONExtractInt(properties.nothing, 'a')", null],
      ['JSONExtractKeys(properties.missing)', null],
      ["JSONExtractRaw(properties.missing, 'a')", null],
      ["JSON_VALUE(properties.missing, '$.a')", null],
      ["JSONExtractString(properties.doc, 'missing')", ''],
    ],
  },
  {
    name: 'sizes past PostgreSQL\'s int and values past a double: clamped or NULL, never an error',
    calls: [
      ["substring('abc', 3000000000)", ''],
      ["substring('abc', -3000000000, 3000000001)", 'abc'],
      ["left('abc', 3000000000)", 'abc'],
      ["positionUTF8('abc', 'c', 3000000000)", 0],
      ["splitByChar(',', 'a,b', 3000000000)", ['a', 'b']],
      ["split_part('a,b', ',', -3000000000)", ''],
      ['round(1.5, 1000)', 1.5],
      ['round(1e300, 5)', 1e300],
      ['floor(12345, -1000)', 0],
      ['isFinite(hypot(1e200, 1e200))', true],
      ['width_bucket(sqrt(-1), 0, 1, 2)', null],
      ['width_bucket(1, 0, 1, 0)', null],
      ['bitTestAny(1, 100, 0)', true],
      ['gcd(0, 0)', 0],
      ['exp(1000)', null],
      ['pow(10, 400)', null],
      ['degrees(1e308)', null],
      ['factorial(21)', null],
      ["JSONExtractKeys('{')", []],
      ["hasToken('a é b', 'é')", true],
      ["extractURLParameter('http://x.test/?a.b=1&a=2', 'a.b')", '1'],
    ],
  },
  {
    name: 'NULL in, NULL out (ClickHouse calls a function of a NULL argument NULL)',
    calls: [
      ['substring(properties.nothing, 1, 2)', null],
      ["replaceOne(properties.nothing, 'a', 'b')", null],
      ["replaceRegexpAll(properties.nothing, 'a', 'b')", null],
      ["splitByChar(',', properties.nothing)", null],
      ['toInt(properties.nothing)', null],
      ['toFloat(properties.nothing)', null],
      ['hex(properties.nothing)', null],
      ['base64Encode(properties.nothing)', null],
      ['round(properties.nothing)', null],
      ['intDiv(properties.nothing, 2)', null],
      ["positionUTF8(properties.nothing, 'a')", null],
      ["leftPad(properties.nothing, 3, '*')", null],
      ["extractAll(properties.nothing, 'a')", null],
      ["countSubstrings(properties.nothing, 'a')", null],
      ['lengthUTF8(properties.nothing)', null],
      ["format('{}-{}', 'a', properties.nothing)", null],
      ['encodeURLComponent(properties.nothing)', null],
      ['extractURLParameters(properties.nothing)', null],
      ['bitAnd(properties.nothing, 1)', null],
      ['exp(properties.nothing)', null],
    ],
  },
  {
    name: 'URLs',
    calls: [
      ["protocol('https://clickhouse.com/')", 'https'],
      ["domain('svn+ssh://some.svn-hosting.com:80/repo/trunk')", 'some.svn-hosting.com'],
      ["domain('some.svn-hosting.com:80/repo/trunk')", 'some.svn-hosting.com'],
      ["domain('https://clickhouse.com/time/')", 'clickhouse.com'],
      ["domainWithoutWWW('http://paul@www.example.com:80/')", 'example.com'],
      ["topLevelDomain('svn+ssh://www.some.svn-hosting.com:80/repo/trunk')", 'com'],
      ["firstSignificantSubdomain('https://news.clickhouse.com/')", 'clickhouse'],
      ['firstSignificantSubdomain(properties.url)', 'clickhouse'],
      ["cutToFirstSignificantSubdomain('https://news.clickhouse.com.tr/')", 'clickhouse.com.tr'],
      ["cutToFirstSignificantSubdomain('www.tr')", 'tr'],
      ["cutToFirstSignificantSubdomain('tr')", ''],
      ["cutToFirstSignificantSubdomainWithWWW('https://news.clickhouse.com.tr/')", 'clickhouse.com.tr'],
      ["cutToFirstSignificantSubdomainWithWWW('www.tr')", 'www.tr'],
      ["port('http://paul@www.example.com:80/')", 80],
      ["port('http://example.com/')", 0],
      ['path(properties.url)', '/browse/CONV-6788'],
      ['pathFull(properties.url)', '/browse/CONV-6788?utm=abc&page=2#top'],
      ['queryString(properties.url)', 'utm=abc&page=2'],
      ['fragment(properties.url)', 'top'],
      ['queryStringAndFragment(properties.url)', 'utm=abc&page=2#top'],
      ["extractURLParameter(properties.url, 'page')", '2'],
      ["extractURLParameter(properties.url, 'missing')", ''],
      ['extractURLParameters(properties.url)', ['utm=abc', 'page=2']],
      ['extractURLParameterNames(properties.url)', ['utm', 'page']],
      ["URLHierarchy('https://example.com/browse/CONV-6788')", ['https://example.com/', 'https://example.com/browse/', 'https://example.com/browse/CONV-6788']],
      ["URLPathHierarchy('https://example.com/browse/CONV-6788')", ['/browse/', '/browse/CONV-6788']],
      ["encodeURLComponent('http://127.0.0.1:8123/?query=SELECT 1;')", 'http%3A%2F%2F127.0.0.1%3A8123%2F%3Fquery%3DSELECT%201%3B'],
      ["encodeURLFormComponent('http://127.0.0.1:8123/?query=SELECT 1;')", 'http%3A%2F%2F127.0.0.1%3A8123%2F%3Fquery%3DSELECT+1%3B'],
      ["decodeURLComponent('http://127.0.0.1:8123/?query=SELECT%201%3B')", 'http://127.0.0.1:8123/?query=SELECT 1;'],
      ["decodeURLFormComponent('http://127.0.0.1:8123/?query=SELECT%201+2%2B3')", 'http://127.0.0.1:8123/?query=SELECT 1 2+3'],
      ["decodeURLComponent('100%')", '100%'],
      ["netloc('http://paul@www.example.com:80/')", 'paul@www.example.com:80'],
      ["cutWWW('http://www.example.com/a')", 'http://example.com/a'],
      ["cutQueryString('http://example.com/?page=1&lr=213#f')", 'http://example.com/#f'],
      ["cutFragment('http://example.com/?page=1&lr=213#f')", 'http://example.com/?page=1&lr=213'],
      ["cutQueryStringAndFragment('http://example.com/?page=1&lr=213#f')", 'http://example.com/'],
      ["cutURLParameter('http://bigmir.net/?a=b&c=d&e=f#g', 'a')", 'http://bigmir.net/?c=d&e=f#g'],
      ['domain(properties.nothing)', null],
    ],
  },
  {
    // posthog/hogql/functions/test/test_ip_functions.py, and ClickHouse's documentation and tests of the functions.
    name: 'IP addresses',
    calls: [
      ["IPv4NumToString(IPv4StringToNum('66.249.84.5'))", '66.249.84.5'],
      ["IPv4StringToNum('127.0.0.1')", 2130706433],
      ["IPv4StringToNum(concat('66.249', '.84.5'))", 1123636229],
      ["IPv4StringToNumOrDefault('nope')", 0],
      ["IPv4StringToNumOrNull('nope')", null],
      ['IPv4StringToNumOrNull(properties.text)', null],
      ['IPv4StringToNumOrDefault(properties.nothing)', null],
      ['IPv4NumToString(0)', '0.0.0.0'],
      ['IPv4NumToString(2130706433)', '127.0.0.1'],
      ["toString(toIPv4('1.2.3.4'))", '1.2.3.4'],
      ["toString(toIPv4OrDefault('nope'))", '0.0.0.0'],
      ["toIPv4OrNull('nope')", null],
      ["toString(toIPv4OrZero('nope'))", '0.0.0.0'],
      ["toString(toIPv6('::1'))", '::1'],
      ["toString(toIPv6('::ffff:127.0.0.1'))", '::ffff:127.0.0.1'],
      ["toString(toIPv6('2001:0DB8:0000:0003:0000:01FF:0000:002E'))", '2001:db8:0:3:0:1ff:0:2e'],
      ["toString(toIPv6('1.2.3.4'))", '::ffff:1.2.3.4'],
      ["toString(toIPv6OrDefault('nope'))", '::'],
      ["toIPv6OrNull('nope')", null],
      ["toString(toIPv6OrZero('nope'))", '::'],
      ["isIPv4String('1.2.3.4')", true],
      ["isIPv4String('1.2.3.256')", false],
      ["isIPv4String('::1')", false],
      ["isIPv6String('::1')", true],
      ["isIPv6String('1.2.3.4')", false],
      ['isIPv6String(properties.text)', false],
      ['isIPv4String(properties.nothing)', null],
      ["isIPAddressInRange('66.249.84.5', '66.249.80.0/20')", true],
      ["isIPAddressInRange('0', '10.0.0.0/8')", false],
      ["isIPAddressInRange(toIPv4('192.168.5.2'), '192.168.0.0/16')", true],
      ["isIPAddressInRange('127.0.0.1', '::/0')", false],
      ["isIPAddressInRange('2001:db8::1', '2001:db8::/32')", true],
      ["isIPAddressInRange(properties.nothing, '0.0.0.0/0')", false],
      ["toString(tupleElement(IPv4CIDRToRange(toIPv4('192.168.5.2'), 16), 1))", '192.168.0.0'],
      ["toString(tupleElement(IPv4CIDRToRange(toIPv4('192.168.5.2'), 16), 2))", '192.168.255.255'],
      ["toString(tupleElement(IPv6CIDRToRange(toIPv6('2001:db8::8a2e:370:7334'), 32), 1))", '2001:db8::'],
      ["toString(tupleElement(IPv6CIDRToRange(toIPv6('2001:0db8:0000:85a3:0000:0000:ac1f:8001'), 32), 2))", '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff'],
      ["toString(cutIPv6(toIPv6('2001:db8::8a2e:370:7334'), 2, 0))", '2001:db8::8a2e:370:0'],
      ["cutIPv6(toIPv6('2001:0DB8:AC10:FE01:FEED:BABE:CAFE:F00D'), 2, 0)", '2001:db8:ac10:fe01:feed:babe:cafe:0'],
      ["cutIPv6(toIPv6('192.168.0.1'), 0, 2)", '::ffff:192.168.0.0'],
    ],
  },
  {
    // ClickHouse's documentation of parseDateTimeBestEffort and parseDateTime64BestEffort; PostHog runs
    // parseDateTimeBestEffort as parseDateTime64BestEffortOrNull.
    name: 'best-effort datetimes',
    calls: [
      ["parseDateTimeBestEffort('2024-03-15T10:00:00Z')", '2024-03-15T10:00:00.000Z'],
      ["parseDateTimeBestEffort('2024-03-15 10:00:00.789')", '2024-03-15T10:00:00.789Z'],
      ["parseDateTimeBestEffort('1710496800')", '2024-03-15T10:00:00.000Z'],
      ["parseDateTimeBestEffort('2024-03-15')", '2024-03-15T00:00:00.000Z'],
      ["parseDateTimeBestEffortOrNull('not a date')", null],
      ["parseDateTimeBestEffortOrNull('2024-03-15 10:00:00.789')", '2024-03-15T10:00:00.000Z'],
      ["parseDateTimeBestEffortOrZero('not a date')", '1970-01-01T00:00:00.000Z'],
      ["toUnixTimestamp(parseDateTimeBestEffort('2024-03-15 10:00:00', 'America/New_York'))", 1710511200],
      ["parseDateTime64BestEffort('2021-01-01 01:01:00.12346', 2)", '2021-01-01T01:01:00.120Z'],
      ["parseDateTime64BestEffortOrNull('2021-01-01 01:01:00.12346')", '2021-01-01T01:01:00.123Z'],
      ['parseDateTimeBestEffortOrNull(properties.text)', null],
      ['parseDateTimeBestEffortOrNull(properties.nothing)', null],
      ['parseDateTime64BestEffortOrZero(properties.text)', '1970-01-01T00:00:00.000Z'],
    ],
  },
];

/** Calls that must answer 400 with this message. */
const REFUSED: { query: string; detail: string }[] = [
  { query: "select cityHash64('a') from events", detail: 'The function cityHash64() is not available: ClickHouse defines this hash bit for bit, and PostgreSQL has no implementation that gives the same numbers.' },
  { query: "select repeat('a', 1000000000) from events", detail: 'repeat() can build at most 1000000 characters.' },
  { query: "select leftPad('a', 1000000000) from events", detail: 'leftPad() can build at most 1000000 characters.' },
  { query: "select extractAll(event, '(?P<x') from events", detail: '' },
  { query: "select format('{5}', 'a') from events", detail: 'The pattern of format() names argument 5, which the call does not have.' },
  { query: "select JSONExtract(properties.doc, 'Map(String, String)') from events", detail: 'JSONExtract() cannot give the type Map(String, String): it gives String, Int*, UInt*, Float*, Bool, and Nullable(…) or Array(…) of them.' },
  { query: "select JSON_VALUE(properties.doc, '$..a') from events", detail: 'The path of JSON_VALUE() must be $ followed by .key or [n] steps.' },
  { query: "select toDecimal('1', 30) from events", detail: 'The scale of toDecimal() must be from 0 to 18.' },
  { query: "select replaceRegexpAll(event, event, 'x') from events", detail: 'The pattern of replaceRegexpAll() must be a string constant.' },
  { query: 'select ngrams(event, 0) from events', detail: 'The size of ngrams() must be from 1 to 1000000.' },
  { query: "select toIPv4('nope') from events", detail: 'toIPv4() cannot read "nope" as an IPv4 address; toIPv4OrNull() answers NULL for it.' },
  { query: "select isIPAddressInRange('1.2.3.4', '1.2.3.4') from events", detail: 'isIPAddressInRange() cannot read "1.2.3.4" as a range in CIDR notation (an address, "/" and a prefix length).' },
  { query: "select IPv6StringToNum('::1') from events", detail: '' },
  { query: "select parseDateTimeBestEffort('15 March 2024') from events", detail: '' },
  { query: "select parseDateTime64BestEffort('nope') from events", detail: 'parseDateTime64BestEffort() cannot read "nope" as a datetime; parseDateTime64BestEffortOrNull() answers NULL for it.' },
  { query: 'select hex(1.5) from events', detail: "hex() of a Float64 writes its IEEE bytes, which Hedgerow's exact numbers do not have; convert it with toInt() or toString() first." },
];

describe('query: HogQL scalar functions', function () {
  this.timeout(60_000);
  let server: TestServer;
  let client: HttpClient;
  let path: string;

  before(async () => {
    server = await startTestServer();
    const db = testDb();
    const account = await newAccount(db, { scopes: ['query:read'] });
    client = server.http.withKey(account.key);
    path = `/api/environments/${account.environment.id}/query/`;
    await insertEvents(db, account.environment.id, EVENTS);
    const other = await newAccount(db, { scopes: ['query:read'] });
    await insertEvents(db, other.environment.id, OTHER_EVENTS);
  });

  after(async () => {
    await server.close();
  });

  const run = (query: string) => client.post(path, { query: { kind: 'HogQLQuery', query } });

  for (const group of GROUPS) {
    it(`${group.name}: ${group.calls.length} calls`, async () => {
      const query = `select ${group.calls.map(([call]) => call).join(', ')} from events where event = 'seed' limit 1`;
      const response = await run(query);
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      const row = (response.body.results as unknown[][])[0]!;
      const got = Object.fromEntries(group.calls.map(([call], index) => [call, row[index]]));
      const expected = Object.fromEntries(group.calls.map(([call, value]) => [call, value]));
      expect(got).to.deep.equal(expected);
    });
  }

  it("reads its own environment's event only, and quotes in arguments stay values", async () => {
    const query =
      "select lower(properties.text), extractURLParameter(properties.url, 'page'), JSONExtractString(properties.doc, 'a'), replaceAll(properties.text, '''; drop table events; --', 'x'), concatWithSeparator('''', 'a', 'b') from events where event = 'seed'";
    const response = await run(query);
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    expect(response.body.results).to.deep.equal([['hello, world!', '2', 'hello', 'Hello, world!', "a'b"]]);
  });

  for (const refused of REFUSED) {
    it(`400 for ${refused.query}`, async () => {
      const response = await run(refused.query);
      expect(response.status, JSON.stringify(response.body)).to.equal(400);
      if (refused.detail) expect(response.body.detail).to.equal(refused.detail);
    });
  }
});
