import { expect } from 'chai';
import { ExactInteger, JsonTooDeep, stringifyExact, parseJson, parseJsonExactly } from '../../db/core/exact-json.js';

/** JSON.parse's result, with own `__proto__` keys made visible to deep equality. */
const shape = (value: unknown): unknown => {
  if (value instanceof ExactInteger) return { exact: value.text };
  if (Array.isArray(value)) return value.map(shape);
  if (typeof value === 'object' && value !== null) {
    return Object.getOwnPropertyNames(value).map((key) => [key, shape((value as Record<string, unknown>)[key])]);
  }
  return Object.is(value, -0) ? '-0' : value;
};

/** A deterministic stream of JSON values with every kind of token in them. */
function* randomValues(count: number): Generator<unknown> {
  let seed = 42;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const strings = ['', 'a', 'é', '😀', '\n\t"\\/', '\u0000\u001f', '\ud800', '1234567890123456', '__proto__', '\uE000x'];
  const value = (depth: number): unknown => {
    const pick = Math.floor(next() * (depth > 3 ? 6 : 8));
    switch (pick) {
      case 0:
        return null;
      case 1:
        return next() < 0.5;
      case 2:
        // Integers within ±2^53, and beyond it in a third of the cases.
        return Math.floor((next() - 0.5) * 2 ** 53) * (next() < 0.3 ? 1000 : 1);
      case 3:
        return (next() - 0.5) * 10 ** Math.floor(next() * 40 - 20);
      case 4:
      case 5:
        return strings[Math.floor(next() * strings.length)];
      case 6:
        return Array.from({ length: Math.floor(next() * 4) }, () => value(depth + 1));
      default:
        return Object.fromEntries(Array.from({ length: Math.floor(next() * 4) }, (_, i) => [strings[i % strings.length], value(depth + 1)]));
    }
  };
  for (let n = 0; n < count; n += 1) yield value(0);
}

describe('JSON with exact large integers (db/core/exact-json.ts)', () => {
  describe('reads what JSON.parse reads, as JSON.parse does', () => {
    const texts = [
      '{}', '[]', '0', '-0', '1.5e3', '-12.5e-3', '1E+2', 'true', 'false', 'null', '[[[]]]',
      '"a\\u00e9\\n\\"\\\\\\/\\b\\f\\r\\t"', '"\\ud800"', '"😀"', ' \t\n\r[1 , 2 ]\r\n',
      '{"a":1,"a":2}', '{"__proto__":{"x":1}}', '{"1":1,"b":2,"0":0}', '123456789012345', '9007199254740991',
      '-9007199254740991', '9007199254740993.5', '1e20', '12345678901234567890e0', '1.2345678901234567890',
      '{"n":1e308}', '{"a":[{"b":{"c":[null,true,"x"]}}]}',
    ];
    for (const text of texts) {
      it(text, () => {
        expect(shape(parseJsonExactly(text, 127))).to.deep.equal(shape(JSON.parse(text)));
      });
    }

    it('for 2,000 random values (their integers beyond 2^53 kept as written)', () => {
      /** JSON.parse's shape, with what JSON.stringify wrote as an integer beyond 2^53 kept as its digits. */
      const expected = (value: unknown): unknown => {
        const digits = JSON.stringify(value);
        if (typeof value === 'number' && !Number.isSafeInteger(value) && /^-?\d+$/.test(digits) && BigInt(digits) < 2n ** 64n && BigInt(digits) >= -(2n ** 63n)) {
          return { exact: digits };
        }
        if (Array.isArray(value)) return value.map(expected);
        if (typeof value === 'object' && value !== null) {
          return Object.getOwnPropertyNames(value).map((key) => [key, expected((value as Record<string, unknown>)[key])]);
        }
        return shape(value);
      };
      let exact = 0;
      for (const value of randomValues(2000)) {
        const text = JSON.stringify(value);
        expect(shape(parseJsonExactly(text, 127)), text).to.deep.equal(expected(JSON.parse(text)));
        expect(stringifyExact(parseJsonExactly(text, 127)), text).to.equal(text);
        if (JSON.stringify(expected(JSON.parse(text))).includes('"exact"')) exact += 1;
      }
      expect(exact).to.be.greaterThan(100); // the sample holds such integers
    });
  });

  describe('refuses what JSON.parse refuses, with a SyntaxError', () => {
    const texts = [
      '', ' ', '{', '}', '[1,]', '{"a":1,}', '01', '-01', '1.', '.5', '+1', '-', '1e', '--1', '"\\x"', '"\\u12"',
      '"\\u12g4"', '"a\nb"', '"tab\there"', '[1 2]', '{"a" 1}', '{a:1}', 'tru', 'nul', 'NaN', 'Infinity', '"abc',
      '{"a":1}x', "'a'", '\uFEFF{}', '[-]', '{,}', '[,1]', '{"a":1 "b":2}', '12345678901234567890 1',
    ];
    for (const text of texts) {
      it(JSON.stringify(text), () => {
        expect(() => JSON.parse(text), 'JSON.parse').to.throw(SyntaxError);
        expect(() => parseJsonExactly(text, 127)).to.throw(SyntaxError);
      });
    }
  });

  describe('keeps integers beyond ±2^53 as written', () => {
    const cases: Array<{ text: string; want: unknown }> = [
      { text: '12345678901234567890', want: { exact: '12345678901234567890' } },
      { text: '-9007199254740993', want: { exact: '-9007199254740993' } },
      { text: '[9007199254740991,9007199254740992]', want: [9007199254740991, { exact: '9007199254740992' }] },
      { text: '{"id":1234567890123456789}', want: [['id', { exact: '1234567890123456789' }]] },
      // The bounds of serde_json's 64-bit integers; beyond them a double, as there.
      { text: '18446744073709551615', want: { exact: '18446744073709551615' } },
      { text: '18446744073709551616', want: 18446744073709552000 },
      { text: '-9223372036854775808', want: { exact: '-9223372036854775808' } },
      { text: '-9223372036854775809', want: -9223372036854775808 },
      { text: '123456789012345678901234567890', want: 1.2345678901234568e29 },
      // A fraction or an exponent makes a double, as in serde_json; beyond the doubles' range it is Infinity,
      // which the capture refuses (json-limits.ts).
      { text: '12345678901234567890.0', want: 12345678901234567000 },
      { text: '1234567890123456789e1', want: 12345678901234567000 },
      { text: `1${'0'.repeat(400)}`, want: Infinity },
    ];
    for (const { text, want } of cases) {
      it(text.length > 60 ? `${text.slice(0, 20)}… (${text.length} characters)` : text, () => {
        expect(shape(parseJson(text, 127))).to.deep.equal(want);
      });
    }

    it('writes them back as their digits, and the rest as JSON.stringify does', () => {
      const text = '{"a":12345678901234567890,"b":[-987654321098765432,{"c":1.5}],"d":"12345678901234567890","e":null}';
      expect(stringifyExact(parseJson(text, 127))).to.equal(text);
    });

    it('cannot be imitated by a string a client sends', () => {
      const value = parseJson('{"a":"\\ue000deadbeefdeadbeef12345678901234567890\\ue001","b":12345678901234567890}', 127);
      expect(stringifyExact(value)).to.equal('{"a":"\uE000deadbeefdeadbeef12345678901234567890\uE001","b":12345678901234567890}');
    });

    it('shows them as their digits where text is wanted', () => {
      expect(String(parseJson('12345678901234567890', 127))).to.equal('12345678901234567890');
    });
  });

  it('reads doubles with many digits, and integers within 2^53, as JSON.parse does', () => {
    const text = '{"scroll":0.7142857142857143,"sum":0.30000000000000004,"ms":1732200000123,"big":9007199254740991}';
    expect(shape(parseJson(text, 127))).to.deep.equal(shape(JSON.parse(text)));
  });

  it('refuses nesting beyond its bound without running out of stack; parseJson then gives JSON.parse’s value', () => {
    const nested = (depth: number, inner = '1234567890123456789') => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;
    expect(stringifyExact(parseJson(nested(127), 127))).to.equal(nested(127));
    expect(() => parseJsonExactly(nested(128), 127)).to.throw(JsonTooDeep, 'the JSON is nested more than 127 levels deep');
    expect(() => parseJsonExactly(nested(100_000), 127)).to.throw(JsonTooDeep);
    expect(stringifyExact(parseJson(nested(128), 127))).to.equal(nested(128, '1234567890123456800'));
  });
});
