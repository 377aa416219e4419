/**
 * db/pg/copy-binary.ts's binary arrays, read back by PostgreSQL itself: each is sent as a statement parameter (pg
 * sends a Buffer in binary) and must come back as the values it was built from.
 */
import { expect } from 'chai';
import { binaryArray, type CopyValue } from '../../db/pg/copy-binary.js';
import { testDb } from '../helpers/database.js';

type Type = NonNullable<CopyValue>['type'];

const at = new Date('2026-11-21T10:00:00.123Z');
const before2000 = new Date('1999-12-31T23:59:59.999Z');

const cases: Array<{ type: Type; values: Array<string | number | boolean | Date | null>; back?: unknown[] }> = [
  { type: 'int4', values: [0, 1, -1, 2147483647, -2147483648, null] },
  { type: 'uuid', values: ['0190f1c4-0000-7000-8000-0000000000ee', null, '00000000-0000-0000-0000-000000000000'] },
  { type: 'text', values: ['', 'plain', 'çé "quoted" \\ ✓ 🎉', 'line\nbreak', null] },
  {
    type: 'jsonb',
    values: ['{"b":1,"a":[1,null,"two"]}', '"just a string"', 'null', null],
    back: [{ a: [1, null, 'two'], b: 1 }, 'just a string', null, null],
  },
  { type: 'timestamptz', values: [at, before2000, new Date(0), null] },
  { type: 'bool', values: [true, false, null] },
  { type: 'text', values: [] },
];

describe('binary arrays (db/pg/copy-binary.ts binaryArray)', () => {
  for (const { type, values, back } of cases) {
    it(`reads back ${values.length} ${type} values${values.includes(null) ? ', nulls among them' : ''}`, async () => {
      const array = binaryArray(
        type,
        values.map((value) => (value === null ? null : ({ type, value } as CopyValue))),
      );
      const { rows } = await testDb().raw(
        `select v, (select array_agg(x is null) from unnest(v) as x) as nulls from (select ?::${type}[] as v) as given`,
        [array],
      );
      expect(rows[0].v).to.deep.equal(back ?? values);
      // SQL NULLs where the values had null (a JSON null is a value): the two read back alike above.
      expect(rows[0].nulls).to.deep.equal(values.length === 0 ? null : values.map((value) => value === null));
    });
  }

  it('refuses a value of another type than the array’s', () => {
    expect(() => binaryArray('int4', [{ type: 'text', value: '1' }])).to.throw('a text in an array of int4');
  });
});
