/**
 * JSONLines written by PostgreSQL and streamed with COPY are the very bytes the record path writes: the same
 * events exported both ways to s3rver (plain, gzip, brotli, rolled at a size) give the same keys, the same
 * objects byte for byte, the same outcome and the same progress, over the values where the two could part:
 * unicode, quotes, backslashes, newlines and control characters in properties, numbers JavaScript prints
 * otherwise, integer-like keys, a null person, timestamps with microseconds and without, a line longer than
 * any chunk COPY delivers.
 */
import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { EXPORT_READER_NAME } from '../../db/queries/batch-exports/records.js';
import { createS3Destination } from '../../handlers/jobs/destinations/s3.js';
import type { ExportOutcome, ExportRun } from '../../handlers/jobs/destinations/types.js';
import { exportRow, runRow } from '../helpers/batch-exports.js';
import { testDb } from '../helpers/database.js';
import { newAccount, type Account } from '../helpers/fixtures.js';
import { startTestS3, type TestS3 } from '../helpers/s3.js';
import { loopbackAddresses } from '../helpers/destination-addresses.js';

const WINDOW = { start: new Date('2026-01-01T10:00:00Z'), end: new Date('2026-01-01T11:00:00Z') };
const INTERVAL = '2026-01-01T10:00:00+00:00-2026-01-01T11:00:00+00:00';

function exportRun(account: Account, config: Record<string, unknown>, progress: ExportOutcome[]): ExportRun {
  const batchExport = exportRow(account.environment.id, { name: 'to s3', destination_type: 'S3Compatible', destination_config: config });
  const run = runRow(batchExport, WINDOW);
  return {
    batchExport,
    run,
    selectBy: 'timestamp',
    db: testDb(),
    addresses: loopbackAddresses,
    signal: new AbortController().signal,
    progress: async (update) => void progress.push(update as ExportOutcome),
  };
}

interface StoredEvent {
  uuid?: string;
  event: string;
  distinct_id: string;
  timestamp: string;
  inserted_at?: string;
  /** jsonb text, so that numbers are stored as written. */
  properties: string;
  elements_chain?: string;
  person_id?: string | null;
}

async function insertEvents(account: Account, events: StoredEvent[]): Promise<void> {
  const db = testDb();
  for (const event of events) {
    // Read before the insert: Citus refuses a subquery inside an INSERT's VALUES.
    const person: { properties: unknown } | undefined = event.person_id
      ? await db('persons').where({ team_id: account.environment.id, uuid: event.person_id }).first('properties')
      : undefined;
    await db('events').insert({
      team_id: account.environment.id,
      uuid: event.uuid ?? randomUUID(),
      event: event.event,
      distinct_id: event.distinct_id,
      timestamp: event.timestamp,
      inserted_at: event.inserted_at ?? '2026-01-01T12:00:00Z',
      properties: db.raw('?::jsonb', [event.properties]),
      elements_chain: event.elements_chain ?? '',
      person_id: event.person_id ?? null,
      // As capture stores them: the person's properties when the event arrived.
      person_properties: person ? JSON.stringify(person.properties) : null,
    });
  }
}

/** Both ways under two prefixes: the keys relative to each prefix, every object, the outcomes and the progress. */
async function exportBothWays(
  s3: TestS3,
  account: Account,
  config: Record<string, unknown>,
  batchSize: number,
): Promise<Record<'records' | 'postgres', { keys: string[]; objects: Buffer[]; outcome: ExportOutcome; progress: ExportOutcome[] }>> {
  const result = {} as Record<'records' | 'postgres', { keys: string[]; objects: Buffer[]; outcome: ExportOutcome; progress: ExportOutcome[] }>;
  for (const way of ['records', 'postgres'] as const) {
    const prefix = `${way}-${randomUUID()}`;
    const destination =
      way === 'records'
        ? createS3Destination({ batchSize, jsonLines: 'records' })
        : createS3Destination({
            batchSize,
            // The lines must not come from records at all.
            records: () => {
              throw new Error('the record path was taken');
            },
          });
    const progress: ExportOutcome[] = [];
    const outcome = await destination.run(exportRun(account, s3.config({ ...config, prefix }), progress));
    const keys = await s3.keys(prefix);
    const objects = await Promise.all(keys.map((key) => s3.object(key)));
    result[way] = {
      keys: keys.map((key) => key.slice(prefix.length + 1)),
      // A manifest names its keys under its own prefix.
      objects: objects.map((object) => Buffer.from(object.toString('latin1').replaceAll(prefix, '<prefix>'), 'latin1')),
      outcome,
      progress,
    };
  }
  return result;
}

describe('batch export to S3: JSON lines written by PostgreSQL', function () {
  this.timeout(60_000);
  let s3: TestS3;
  let account: Account;

  before(async () => {
    s3 = await startTestS3();
    account = await newAccount(testDb());
    const db = testDb();
    const [person] = await db('persons')
      .insert({ team_id: account.environment.id, properties: db.raw('?::jsonb', ['{"email": "ada@example.com", "name": "Ada \\"A\\" Lovelace \\\\ ü", "score": 0.50}']) })
      .returning('*');
    await db('person_distinct_ids').insert({ team_id: account.environment.id, distinct_id: 'ada', person_id: person.id });
    const adaPerson = person.uuid as string;
    await insertEvents(account, [
      {
        event: '$pageview',
        distinct_id: 'ada',
        timestamp: '2026-01-01T10:00:00Z',
        inserted_at: '2026-01-01T12:00:00.123456Z',
        properties: JSON.stringify({
          $current_url: 'https://example.com/ü/漢字?q="x"&b=\\',
          emoji: '🦔 hedgehog',
          text: 'line one\nline two\r\n\ttabbed \u0001\u001f\u007f \u2028 end',
          'key with "quotes" and \\': 'value : with, separators',
        }),
        person_id: adaPerson,
      },
      {
        event: 'numbers',
        distinct_id: 'ada',
        timestamp: '2026-01-01T10:00:00.000123Z',
        inserted_at: '2026-01-01T12:00:00.999999Z',
        properties: '{"price": 1.50, "tiny": 0.0000001, "huge": 100000000000000000000000, "long": 12345678901234567890, "neg": -0.0, "exp": 2.5e-3, "int": 42, "list": [1.0, -7, 3.25]}',
        person_id: adaPerson,
      },
      {
        event: 'integer keys',
        distinct_id: 'nobody',
        timestamp: '2026-01-01T10:00:01.5Z',
        properties: '{"b": 1, "9": 2, "10": 3, "x": {"2": "two", "1": "one"}, "$set": {"plan": "pro"}}',
      },
      {
        event: 'quote " and \\ in the name ü',
        distinct_id: 'distinct "with" \\ quotes',
        timestamp: '2026-01-01T10:00:01.999999Z',
        properties: '{}',
        elements_chain: 'a:href="/x\\"y"nth-child="1";button.big',
      },
      {
        event: 'long line',
        distinct_id: 'ada',
        timestamp: '2026-01-01T10:00:02.000001Z',
        // Escapes every few bytes, over far more than one chunk of the COPY stream.
        properties: JSON.stringify({ long: 'ab"c\\d\ne ü '.repeat(30_000) }),
      },
      ...Array.from({ length: 12 }, (_, n) => ({
        event: `same time ${n}`,
        distinct_id: n % 2 === 0 ? 'ada' : 'nobody',
        timestamp: '2026-01-01T10:30:00.250Z',
        properties: JSON.stringify({ n, half: n / 2 }),
      })),
      // Outside the window on either side.
      { event: 'too early', distinct_id: 'ada', timestamp: '2026-01-01T09:59:59.999999Z', properties: '{}' },
      { event: 'too late', distinct_id: 'ada', timestamp: '2026-01-01T11:00:00Z', properties: '{}' },
    ]);
  });
  after(async () => {
    await s3?.close();
  });

  for (const compression of [null, 'gzip', 'brotli'] as const) {
    it(`writes ${compression ?? 'uncompressed'} JSONLines byte for byte as the record path does`, async () => {
      const both = await exportBothWays(s3, account, compression === null ? {} : { compression }, 4);
      const extension = compression === null ? 'jsonl' : compression === 'gzip' ? 'jsonl.gz' : 'jsonl.br';
      expect(both.postgres.keys).to.deep.equal([`${INTERVAL}.${extension}`]);
      expect(both.postgres.keys).to.deep.equal(both.records.keys);
      expect(both.postgres.objects[0]!.equals(both.records.objects[0]!)).to.equal(true);
      expect(both.postgres.outcome).to.deep.equal(both.records.outcome);
      expect(both.postgres.outcome.recordsCompleted).to.equal(17);
      // Batches of four: progress after each, then the outcome.
      expect(both.postgres.progress.map((update) => update.recordsCompleted)).to.deep.equal([4, 8, 12, 16, 17, 17]);
      expect(both.postgres.progress).to.deep.equal(both.records.progress);
    });
  }

  it('writes the values where the two could part as the record path always has', async () => {
    const both = await exportBothWays(s3, account, { compression: 'gzip' }, 10_000);
    expect(both.postgres.objects[0]!.equals(both.records.objects[0]!)).to.equal(true);
    const text = gunzipSync(both.postgres.objects[0]!).toString('utf8');
    const lines = text.split('\n');
    expect(lines.pop()).to.equal('');
    expect(lines).to.have.length(17);
    // Whole seconds without a fraction, and the stored microseconds as six digits, as PostHog writes them.
    expect(lines[0]).to.match(
      /^\{"uuid":"[0-9a-f-]{36}","timestamp":"2026-01-01T10:00:00\+00:00","_inserted_at":"2026-01-01T12:00:00\.123456\+00:00","created_at":"2026-01-01T12:00:00\.123456\+00:00","event":"\$pageview",/,
    );
    expect(lines[1]).to.contain('"timestamp":"2026-01-01T10:00:00.000123+00:00","_inserted_at":"2026-01-01T12:00:00.999999+00:00"');
    expect(lines[1]).to.contain('"properties":{"exp":0.0025,"int":42,"neg":0,"huge":1e+23,"list":[1,-7,3.25],"long":12345678901234567000,"tiny":1e-7,"price":1.5}');
    expect(lines[1]).to.contain('"person_properties":{"name":"Ada \\"A\\" Lovelace \\\\ ü","email":"ada@example.com","score":0.5}');
    expect(lines[2]).to.contain('"timestamp":"2026-01-01T10:00:01.500000+00:00"');
    expect(lines[2]).to.contain('"properties":{"9":2,"10":3,"b":1,"x":{"1":"one","2":"two"},"$set":{"plan":"pro"}}');
    expect(lines[2]).to.match(/"person_properties":null,"person_id":null\}$/);
    expect(JSON.parse(lines[3]!)).to.include({
      timestamp: '2026-01-01T10:00:01.999999+00:00',
      event: 'quote " and \\ in the name ü',
      distinct_id: 'distinct "with" \\ quotes',
      elements_chain: 'a:href="/x\\"y"nth-child="1";button.big',
    });
    expect(JSON.parse(lines[0]!).properties).to.deep.equal({
      $current_url: 'https://example.com/ü/漢字?q="x"&b=\\',
      emoji: '🦔 hedgehog',
      text: 'line one\nline two\r\n\ttabbed \u0001\u001f\u007f \u2028 end',
      'key with "quotes" and \\': 'value : with, separators',
    });
    expect(JSON.parse(lines[4]!).properties.long).to.equal('ab"c\\d\ne ü '.repeat(30_000));
    expect(lines.slice(5).map((line) => JSON.parse(line).event)).to.have.members(Array.from({ length: 12 }, (_, n) => `same time ${n}`));
  });

  it('stops when the run is cancelled mid-stream: with the signal’s reason and no object', async () => {
    const prefix = `cancelled-${randomUUID()}`;
    const controller = new AbortController();
    const reason = new Error('cancelled by the test');
    const progress: ExportOutcome[] = [];
    const run = exportRun(account, s3.config({ prefix, compression: 'gzip' }), progress);
    run.signal = controller.signal;
    run.progress = async (update) => {
      progress.push(update as ExportOutcome);
      controller.abort(reason);
    };
    let failure: unknown = null;
    await createS3Destination({ batchSize: 2 })
      .run(run)
      .catch((error: unknown) => (failure = error));
    expect(failure).to.equal(reason);
    expect(progress.map((update) => update.recordsCompleted)).to.deep.equal([2]);
    expect(await s3.keys(prefix)).to.deep.equal([]);
  });

  it('reads in a session named as every records reader, which runs waiting for open writers leave out', async () => {
    const progress: ExportOutcome[] = [];
    const run = exportRun(account, s3.config({ prefix: `named-${randomUUID()}` }), progress);
    const seen: string[][] = [];
    run.progress = async (update) => {
      progress.push(update as ExportOutcome);
      // The COPY's session stays open until the last line is written: seen from another session, by its query.
      const sessions = await testDb().raw(
        "select application_name from pg_stat_activity where datname = current_database() and query like 'copy (select json_build_object(%'",
      );
      seen.push(sessions.rows.map((row: { application_name: string }) => row.application_name));
    };
    await createS3Destination({ batchSize: 8 }).run(run);
    // At least this run's session (an earlier test's may not have left the list yet), every one of them named.
    expect(seen.slice(0, 2).map((names) => names.length > 0 && names.every((name) => name === EXPORT_READER_NAME))).to.deep.equal([true, true]);
  });

  it('rolls at max_file_size_mb after the same lines, with the same manifest', async () => {
    const big = await newAccount(testDb());
    // Random base64 compresses to about three quarters: events of 800 kB make gzip'd files of two events at 1 MB.
    await insertEvents(
      big,
      [0, 1, 2, 3, 4].map((n) => ({
        event: `big ${n}`,
        distinct_id: 'bulk',
        timestamp: `2026-01-01T10:0${n}:00.00${n}Z`,
        properties: JSON.stringify({ blob: randomBytes(600_000).toString('base64'), n: n + 0.5 }),
      })),
    );
    const both = await exportBothWays(s3, big, { compression: 'gzip', max_file_size_mb: 1 }, 1);
    expect(both.postgres.keys).to.deep.equal([
      `${INTERVAL}-0.jsonl.gz`,
      `${INTERVAL}-1.jsonl.gz`,
      `${INTERVAL}-2.jsonl.gz`,
      `${INTERVAL}_manifest.json`,
    ]);
    expect(both.postgres.keys).to.deep.equal(both.records.keys);
    expect(both.postgres.objects.map((object, index) => object.equals(both.records.objects[index]!))).to.deep.equal([true, true, true, true]);
    expect(both.postgres.objects.slice(0, 3).map((object) => gunzipSync(object).toString('utf8').split('\n').length - 1)).to.deep.equal([2, 2, 1]);
    expect(both.postgres.outcome).to.deep.equal(both.records.outcome);
    expect(both.postgres.progress).to.deep.equal(both.records.progress);
  });
});
