import { expect } from 'chai';
import { HogQLError } from '../../db/hogql/errors.js';
import { postgresRegex } from '../../db/hogql/regex.js';

describe('unit: regular expressions from re2 to PostgreSQL (db/hogql/regex.ts)', () => {
  /** re2's ASCII word boundaries, as lookarounds. */
  const B = '(?:(?<![0-9A-Za-z_])(?=[0-9A-Za-z_])|(?<=[0-9A-Za-z_])(?![0-9A-Za-z_]))';
  const NOT_B = '(?:(?<=[0-9A-Za-z_])(?=[0-9A-Za-z_])|(?<![0-9A-Za-z_])(?![0-9A-Za-z_]))';
  const rewritten: Array<[given: string, want: string]> = [
    ['^Chrome$', '^Chrome$'],
    ['\\bSaf', `${B}Saf`],
    ['\\Bari\\b', `${NOT_B}ari${B}`],
    ['end\\z', 'end\\Z'],
    ['\\Aa', '\\Aa'],
    ['[\\b]', '[\\b]'],
    ['[]\\b]x\\b', `[]\\b]x${B}`],
    ['[^]b]\\b', `[^]b]${B}`],
    ['[[:alpha:]\\b]\\b', `[[:alpha:]\\b]${B}`],
    ['\\\\b', '\\\\b'],
    ['(?:a|b)c', '(?:a|b)c'],
    ['(?=a)a', '(?=a)a'],
    ['(?P<word>\\w+)-(?<n>\\d)', '([0-9A-Za-z_]+)-([0-9])'],
    ['\\W\\D\\s\\S', '[^0-9A-Za-z_][^0-9][\\t\\n\\f\\r ][^\\t\\n\\f\\r ]'],
    ['[\\w.-]+@[\\d\\s]', '[0-9A-Za-z_.-]+@[0-9\\t\\n\\f\\r ]'],
    ['[\\W]', '[\\W]'],
    ['\\Qa.b*\\E+', 'a\\.b\\*+'],
    ['\\Qa.b', 'a\\.b'],
    ['x{1000', 'x\\{1000'],
    ['a}', 'a\\}'],
    ['a{2}b{1,}c{0,3}', 'a{2}b{1,}c{0,3}'],
    ['(?i)^chrome$', '(?i)^chrome$'],
    ['(?s)a.b', 'a.b'],
    ['(?ms)^b', '(?w)^b'],
    ['(?sm)^b', '(?w)^b'],
    ['(?m)^x$', '(?w)^x$'],
    ['(?-s)a.b', '(?p)a.b'],
    ['(?im-s)^a.b', '(?in)^a.b'],
    ['\\d{2,255}', '[0-9]{2,255}'],
    ['\\.\\$', '\\.\\$'],
  ];
  for (const [given, want] of rewritten) {
    it(`runs ${given} as ${want}`, () => expect(postgresRegex(given)).to.equal(want));
  }

  const refused: Array<[given: string, message: RegExp]> = [
    ['(', /^"\(" is not a valid regular expression\.$/],
    ['[a-', /is not a valid regular expression/],
    ['\\p{L}+', /no Unicode classes/],
    ['a\\Cb', /no \\C/],
    ['\\x{41}', /no \\x\{…\}/],
    ['x{1000}', /at most 255 times/],
    ['x{2,256}', /at most 255 times/],
    ['a(?i)b', /flags apply to the whole pattern and come first/],
    ['(?i:a)b', /flags apply to the whole pattern and come first/],
    ['(?U)a+', /no flag "U"/],
  ];
  for (const [given, message] of refused) {
    it(`refuses ${given}`, () => {
      expect(() => postgresRegex(given)).to.throw(HogQLError, message);
    });
  }
});
