/**
 * PostgreSQL's JSON text made into JSON.stringify's: spaces outside strings dropped, numbers printed as
 * JavaScript prints them, integer-like keys reordered as JavaScript orders them, and lines split anywhere across
 * chunks put back together in batches of the asked size.
 */
import { expect } from 'chai';
import { Readable } from 'node:stream';
import { compactJsonLines, JsonLinesBatcher, type JsonLinesBatch } from '../../handlers/jobs/destinations/json-text.js';

/** Lines as jsonb prints them (keys by length then bytes, ", " and ": "), and as pg then JSON.stringify write them. */
const CASES: Array<[string, string]> = [
  ['{"a": 1, "b": [1, 2, {"c": null}], "d": true}', '{"a":1,"b":[1,2,{"c":null}],"d":true}'],
  ['{"a b": "c : d, e", ", ": ": ", "q": "say \\"hi\\" \\\\ there"}', '{"a b":"c : d, e",", ":": ","q":"say \\"hi\\" \\\\ there"}'],
  ['{"u": "ü 🦔 漢字 \\n\\t\\u0001\\u001f \u2028"}', '{"u":"ü 🦔 漢字 \\n\\t\\u0001\\u001f \u2028"}'],
  ['{"n": [1.50, 0.0000001, -0, 100000000000000000000000, 12345678901234567890, -2.5e-3, 42, -7, 0.1]}', '{"n":[1.5,1e-7,0,1e+23,12345678901234567000,-0.0025,42,-7,0.1]}'],
  ['{"b": 1, "9": 2, "10": 3, "x": {"2": "two", "1": "one"}}', '{"9":2,"10":3,"b":1,"x":{"1":"one","2":"two"}}'],
  ['{"s": "10", "t": ["1", "2"], "e": ""}', '{"s":"10","t":["1","2"],"e":""}'],
  ['{"uuid" : "0190c2a4", "timestamp" : "2026-01-01T10:00:00.123000+00:00", "properties" : {}, "person_id" : null}', '{"uuid":"0190c2a4","timestamp":"2026-01-01T10:00:00.123000+00:00","properties":{},"person_id":null}'],
];

async function batches(chunks: Buffer[], batchSize: number): Promise<JsonLinesBatch[]> {
  const out: JsonLinesBatch[] = [];
  for await (const batch of Readable.from(chunks).pipe(new JsonLinesBatcher(batchSize))) out.push(batch as JsonLinesBatch);
  return out;
}

describe('JSON lines from PostgreSQL', () => {
  it('writes each line as JSON.stringify writes what pg parses it into', () => {
    for (const [postgres, expected] of CASES) {
      expect(compactJsonLines(Buffer.from(postgres + '\n')).toString('utf8')).to.equal(expected + '\n');
      // The expectations are JavaScript's own.
      expect(JSON.stringify(JSON.parse(postgres))).to.equal(expected);
    }
  });

  it('puts lines split at every byte back together, in batches of the asked size', async () => {
    const text = Buffer.from(CASES.map(([postgres]) => postgres + '\n').join(''));
    const expected = CASES.map(([, line]) => line + '\n');
    for (const size of [1, 2, 7, text.length]) {
      const chunks: Buffer[] = [];
      for (let at = 0; at < text.length; at += size) chunks.push(text.subarray(at, at + size));
      const out = await batches(chunks, 3);
      expect(out.map((batch) => batch.count)).to.deep.equal([3, 3, 1]);
      expect(out.map((batch) => batch.lines.toString('utf8'))).to.deep.equal([
        expected.slice(0, 3).join(''),
        expected.slice(3, 6).join(''),
        expected.slice(6).join(''),
      ]);
    }
  });

  it('hands on nothing for no lines, and refuses text that ends inside a line', async () => {
    expect(await batches([], 2)).to.deep.equal([]);
    let failure: unknown = null;
    await batches([Buffer.from('{"a": 1}\n{"b"')], 2).catch((error: unknown) => (failure = error));
    expect((failure as Error).message).to.equal('The JSON lines ended inside a line');
  });
});
