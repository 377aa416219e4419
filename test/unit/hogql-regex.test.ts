import { expect } from 'chai';
import { HogQLError } from '../../db/hogql/errors.js';
import { postgresRegex } from '../../db/hogql/regex.js';

describe('unit: regular expressions from re2 to PostgreSQL (db/hogql/regex.ts)', () => {
  const rewritten: Array<[given: string, want: string]> = [
    ['^Chrome$', '^Chrome$'],
    ['\\bSaf', '\\ySaf'],
    ['\\Bari\\b', '\\Yari\\y'],
    ['[\\b]', '[\\b]'],
    ['[]\\b]x\\b', '[]\\b]x\\y'],
    ['[^]b]\\b', '[^]b]\\y'],
    ['\\\\b', '\\\\b'],
    ['(?i)^chrome$', '(?i)^chrome$'],
    ['(?is)a.b', '(?is)a.b'],
    ['(?m)^x$', '(?w)^x$'],
    ['\\d{2,255}', '\\d{2,255}'],
    ['a{3}', 'a{3}'],
    ['\\.\\$', '\\.\\$'],
  ];
  for (const [given, want] of rewritten) {
    it(`runs ${given} as ${want}`, () => expect(postgresRegex(given)).to.equal(want));
  }

  const refused: Array<[given: string, message: RegExp]> = [
    ['(', /^"\(" is not a valid regular expression\.$/],
    ['[a-', /is not a valid regular expression/],
    ['\\p{L}+', /no Unicode classes/],
    ['x{1000}', /at most 255 times/],
    ['x{2,256}', /at most 255 times/],
    ['a(?i)b', /flags such as \(\?i\) must come first/],
  ];
  for (const [given, message] of refused) {
    it(`refuses ${given}`, () => {
      expect(() => postgresRegex(given)).to.throw(HogQLError, message);
    });
  }
});
