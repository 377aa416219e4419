import { expect } from 'chai';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { JsonStructureError, arrayItems, objectMembers, topLevelArray, topLevelKind } from '../../handlers/capture/json-scan.js';

const text = (bytes: Buffer, range: { start: number; end: number }) => bytes.toString('utf8', range.start, range.end);

async function membersOf(bytes: Buffer): Promise<Array<[string, { start: number; end: number }]>> {
  const members: Array<[string, { start: number; end: number }]> = [];
  for await (const member of objectMembers(bytes, () => nextTurn())) members.push(member);
  return members;
}

describe('capture JSON scanning (handlers/capture/json-scan.ts)', () => {
  const memberCases: Array<{ given: string; want: Array<[string, string]> }> = [
    { given: '{}', want: [] },
    { given: ' { } ', want: [] },
    { given: '{"a":1}', want: [['a', '1']] },
    {
      given: '{"api_key":"phc_x","batch":[{"event":"a}]\\""},[]],"sent_at":null}',
      want: [
        ['api_key', '"phc_x"'],
        ['batch', '[{"event":"a}]\\""},[]]'],
        ['sent_at', 'null'],
      ],
    },
    { given: '{ "a" : -1.5e3 , "b":true,"c":"\\\\"}', want: [['a', '-1.5e3'], ['b', 'true'], ['c', '"\\\\"']] },
    { given: '{"t\\u006fken":"k"}', want: [['token', '"k"']] },
    { given: '{"a":1,"a":2}', want: [['a', '1'], ['a', '2']] },
  ];
  for (const { given, want } of memberCases) {
    it(`finds the members of ${given}`, async () => {
      const bytes = Buffer.from(given);
      expect((await membersOf(bytes)).map(([name, range]) => [name, text(bytes, range)])).to.deep.equal(want);
    });
  }

  const itemCases: Array<{ given: string; want: string[] }> = [
    { given: '[]', want: [] },
    { given: '[ ]', want: [] },
    { given: '[{}]', want: ['{}'] },
    { given: '[{},{"a":[1,{"b":"]"}]}, [] ,"x",12,null]', want: ['{}', '{"a":[1,{"b":"]"}]}', '[]', '"x"', '12', 'null'] },
    { given: '["é\\"", {"k":"\\\\\\""}]', want: ['"é\\""', '{"k":"\\\\\\""}'] },
  ];
  for (const { given, want } of itemCases) {
    it(`finds the items of ${given}`, () => {
      const bytes = Buffer.from(given);
      const items: string[] = [];
      for (const range of arrayItems(bytes, topLevelArray(bytes))) items.push(text(bytes, range));
      expect(items).to.deep.equal(want);
    });
  }

  const broken: Array<{ given: string; read: (bytes: Buffer) => unknown }> = [
    { given: '{"a":1', read: (bytes) => membersOf(bytes) },
    { given: '{"a" 1}', read: (bytes) => membersOf(bytes) },
    { given: '{"a":1 "b":2}', read: (bytes) => membersOf(bytes) },
    { given: '{"a":1,}', read: (bytes) => membersOf(bytes) },
    { given: '{"a":1} x', read: (bytes) => membersOf(bytes) },
    { given: '{"a":"unterminated}', read: (bytes) => membersOf(bytes) },
    { given: '{a:1}', read: (bytes) => membersOf(bytes) },
    { given: '[{}{}]', read: (bytes) => [...arrayItems(bytes, topLevelArray(bytes))] },
    { given: '[{},]', read: (bytes) => [...arrayItems(bytes, topLevelArray(bytes))] },
    { given: '[{},{}', read: (bytes) => [...arrayItems(bytes, topLevelArray(bytes))] },
    { given: '[{}] []', read: (bytes) => topLevelArray(bytes) },
    { given: '[,{}]', read: (bytes) => [...arrayItems(bytes, topLevelArray(bytes))] },
  ];
  for (const { given, read } of broken) {
    it(`refuses the structure of ${given}`, async () => {
      const error = await (async () => read(Buffer.from(given)))().then(
        () => null,
        (failure: unknown) => failure,
      );
      expect(error).to.be.instanceOf(JsonStructureError);
    });
  }

  it('skips a long value in slices, letting the event loop in between', async () => {
    const batch = `[${'{"a":"]"},'.repeat(600_000)}{}]`;
    const bytes = Buffer.from(`{"batch":${batch},"api_key":"k"}`);
    let pauses = 0;
    const members: string[] = [];
    for await (const [name, range] of objectMembers(bytes, async () => {
      pauses += 1;
    })) {
      members.push(`${name}=${range.end - range.start}`);
    }
    expect(members).to.deep.equal([`batch=${batch.length}`, 'api_key=3']);
    expect(pauses).to.equal(Math.floor(batch.length / (1024 * 1024)));
  });

  it('tells the kind of the top-level value by its first character', () => {
    expect(['{}', ' \n[1]', '"x"', '12', ''].map((given) => topLevelKind(Buffer.from(given)))).to.deep.equal([
      'object',
      'array',
      'other',
      'other',
      'other',
    ]);
  });
});
