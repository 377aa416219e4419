import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { parseElementsChain } from '../../db/queries/events/elements-chain.js';
import { parseDateTimeInput } from '../../db/hogql/datetime.js';
import { selectorRegex } from '../../db/hogql/elements.js';
import { csvOfObjects, csvTable } from '../../handlers/csv.js';
import { ExactInteger } from '../../db/core/exact-json.js';
import { SPEC_PATH } from '../../handlers/openapi/spec.js';
import { specOperations } from '../helpers/spec-sync.js';

describe('unit: event listing helpers', () => {
  describe('parseElementsChain', () => {
    const element = (fields: Record<string, unknown>) => ({
      event: null,
      text: null,
      tag_name: null,
      attr_class: null,
      href: null,
      attr_id: null,
      nth_child: null,
      nth_of_type: null,
      attributes: {},
      order: 0,
      ...fields,
    });
    const cases: [string, unknown[]][] = [
      ['', []],
      ['button', [element({ tag_name: 'button' })]],
      [
        'a.btn.primary:attr__class="btn primary"attr__href="/x"href="/x"nth-child="2"nth-of-type="1"text="Sign up"',
        [
          element({
            tag_name: 'a',
            attr_class: ['btn', 'primary'],
            href: '/x',
            nth_child: 2,
            nth_of_type: 1,
            text: 'Sign up',
            attributes: { attr__class: 'btn primary', attr__href: '/x' },
          }),
        ],
      ],
      [
        'span:text="a;b \\"c\\""attr_id="s1";div.wrap:nth-child="1"',
        [
          element({ tag_name: 'span', text: 'a;b "c"', attr_id: 's1' }),
          element({ tag_name: 'div', attr_class: ['wrap'], nth_child: 1, order: 1 }),
        ],
      ],
    ];
    for (const [given, want] of cases) it(JSON.stringify(given), () => expect(parseElementsChain(given)).to.deep.equal(want));
  });

  describe('parseDateTimeInput', () => {
    const now = new Date('2026-03-31T12:00:00.000Z');
    const cases: [string, unknown][] = [
      ['2026-01-02', { kind: 'date', text: '2026-01-02' }],
      ['2026-01-02T03:04:05Z', { kind: 'instant', text: '2026-01-02T03:04:05Z' }],
      ['2026-01-02 03:04:05.123456+0530', { kind: 'instant', text: '2026-01-02T03:04:05.123456+05:30' }],
      ['2026-01-02T03:04', { kind: 'naive', text: '2026-01-02T03:04:00' }],
      ['2026-01-02T03:04:05.123456789Z', { kind: 'instant', text: '2026-01-02T03:04:05.123456Z' }],
      ['-7d', { kind: 'instant', text: '2026-03-24T12:00:00.000Z' }],
      ['-1m', { kind: 'instant', text: '2026-02-28T12:00:00.000Z' }],
      ['-2m', { kind: 'instant', text: '2026-01-31T12:00:00.000Z' }],
      ['-1q', { kind: 'instant', text: '2025-12-31T12:00:00.000Z' }],
      ['-13m', { kind: 'instant', text: '2025-02-28T12:00:00.000Z' }],
      ['-1y', { kind: 'instant', text: '2025-03-31T12:00:00.000Z' }],
      ['0050-01-01', { kind: 'date', text: '0050-01-01' }],
      ['0000-06-01', null],
      ['-2027y', null],
      ['-999999d', null],
      ['0099-12-31T23:59:59Z', { kind: 'instant', text: '0099-12-31T23:59:59Z' }],
      ['-30M', { kind: 'instant', text: '2026-03-31T11:30:00.000Z' }],
      ['-2h', { kind: 'instant', text: '2026-03-31T10:00:00.000Z' }],
      ['2026-02-30', null],
      ['2026-01-02T25:00:00Z', null],
      ['yesterday', null],
      ['-7x', null],
      ['2026-01-02Z', null],
    ];
    for (const [given, want] of cases) it(given, () => expect(parseDateTimeInput(given, now)).to.deep.equal(want));

    describe('Start and End of an hour, day, month or year, on the project’s wall clock (PostHog’s -1dStart)', () => {
      // 2026-03-31T12:00Z is 14:00 in Paris (summer time) and 08:00 in New York.
      const positioned: [string, string, unknown][] = [
        ['-1dStart', 'UTC', { kind: 'naive', text: '2026-03-30T00:00:00' }],
        ['-1dEnd', 'UTC', { kind: 'naive', text: '2026-03-30T23:59:59.999999' }],
        ['dStart', 'Europe/Paris', { kind: 'naive', text: '2026-03-31T00:00:00' }],
        ['-0hStart', 'Europe/Paris', { kind: 'naive', text: '2026-03-31T14:00:00' }],
        ['-1hEnd', 'America/New_York', { kind: 'naive', text: '2026-03-31T07:59:59.999999' }],
        ['-1mStart', 'UTC', { kind: 'naive', text: '2026-02-01T00:00:00' }],
        ['-1mEnd', 'UTC', { kind: 'naive', text: '2026-02-28T23:59:59.999999' }],
        ['mEnd', 'UTC', { kind: 'naive', text: '2026-03-31T23:59:59.999999' }],
        ['-1yStart', 'UTC', { kind: 'naive', text: '2025-01-01T00:00:00' }],
        ['yEnd', 'UTC', { kind: 'naive', text: '2026-12-31T23:59:59.999999' }],
        ['-1wStart', 'UTC', { kind: 'instant', text: '2026-03-24T12:00:00.000Z' }],
        ['d', 'UTC', { kind: 'instant', text: '2026-03-31T12:00:00.000Z' }],
        ['-1dMiddle', 'UTC', null],
      ];
      for (const [given, timezone, want] of positioned) {
        it(`${given} in ${timezone}`, () => expect(parseDateTimeInput(given, now, timezone)).to.deep.equal(want));
      }
    });

    it('-1y on 29 February: 28 February of the year before', () => {
      expect(parseDateTimeInput('-1y', new Date('2028-02-29T08:00:00.000Z'))).to.deep.equal({ kind: 'instant', text: '2027-02-28T08:00:00.000Z' });
    });
  });

  describe('selectorRegex', () => {
    const cases: [string, string, boolean][] = [
      ['button', 'button:text="Go";div', true],
      ['button', 'buttons:text="Go"', false],
      ['.primary', 'a.btn.primary:href="/"', true],
      ['.primary', 'a.btn.primaryx:href="/"', false],
      ['a#signup', 'a:attr_id="signup"', true],
      ['[data-attr="cta"]', 'button:attr__data-attr="cta"', true],
      ['div button', 'button:text="x";span;div.wrap', true],
      ['div > button', 'button:text="x";span;div.wrap', false],
      ['span > button', 'button:text="x";span;div.wrap', true],
      ['form button', 'button;div', false],
    ];
    for (const [selector, chain, want] of cases) {
      it(`${selector} ${want ? 'matches' : 'does not match'} ${chain}`, () => {
        expect(new RegExp(selectorRegex(selector)).test(chain)).to.equal(want);
      });
    }
  });

  describe('CSV', () => {
    it('quotes what needs quoting and ends lines with CRLF', () => {
      expect(csvTable(['a', 'b'], [['x,y', 'say "hi"'], [null, 3], [true, ' pad']])).to.equal(
        'a,b\r\n"x,y","say ""hi"""\r\n,3\r\ntrue," pad"\r\n',
      );
    });
    const formulaCases: [value: unknown, cell: string][] = [
      ['=1+1', `"'=1+1"`],
      ['+1', `"'+1"`],
      ['-1', `"'-1"`],
      ['@A1', `"'@A1"`],
      ['\t=1', `"'\t=1"`],
      ['\r=1', `"'\r=1"`],
      ['\n=1', `"'\n=1"`],
      ['=HYPERLINK("x")', `"'=HYPERLINK(""x"")"`],
      [-1, '-1'],
      [-0.5, '-0.5'],
      [new ExactInteger('-9007199254740993'), '-9007199254740993'],
      ['1-1', '1-1'],
      ["it's", "it's"],
    ];
    it('neutralises text that a spreadsheet would read as a formula, and keeps numbers as they are', () => {
      for (const [value, cell] of formulaCases) expect(csvTable(['v'], [[value]]), String(value)).to.equal(`v\r\n${cell}\r\n`);
    });
    it('flattens nested objects to dotted columns, top-level fields in order, nested keys sorted', () => {
      const csv = csvOfObjects(
        [
          { id: 1, properties: { b: 2, a: 1 }, person: null, list: [] },
          { id: 2, properties: { c: 'x' }, person: { distinct_ids: ['d1'] }, list: [{ t: 'a' }, { t: 'b' }] },
        ],
        ['id', 'properties', 'person', 'list'],
      );
      expect(csv).to.equal(
        'id,properties.a,properties.b,properties.c,person,person.distinct_ids.0,list.0.t,list.1.t\r\n' +
          '1,1,2,,,,,\r\n' +
          '2,,,x,,d1,a,b\r\n',
      );
    });
  });

  describe('spec/openapi.yaml', () => {
    /*
     * V8 keeps a string one byte a character only when all of it is Latin-1, and a string cut from a wider one
     * stays wide. The server parses the spec at start and interns the names it holds (`attr_class`, `nth_child`,
     * …): nineteen "…" in its text made them two bytes a character, and with them every JSON text using them as
     * keys, such as each page of the listing (two 150 kB strings built per page instead of 75 kB ones, in memory
     * the heap had to map anew: about 80 page faults a page).
     */
    it('holds nothing beyond Latin-1, so that the names the server interns from it stay one byte a character', () => {
      const wide = [...readFileSync(SPEC_PATH, 'utf8')].filter((char) => char.charCodeAt(0) > 0xff);
      expect(wide).to.deep.equal([]);
    });

    it('marks the legacy event operations, projects’ and environments’ alike, deprecated', () => {
      const events = specOperations().filter((operation) => /^(environments_)?events_/.test(operation.operationId));
      expect(events.map((operation) => [operation.operationId, operation.deprecated])).to.have.deep.members(
        ['events_list', 'events_retrieve', 'events_values_retrieve'].flatMap((id) => [
          [id, true],
          [`environments_${id}`, true],
        ]),
      );
    });
  });
});
