/**
 * The S3 destination against s3rver: events captured through the real capture endpoint, exported by a hand-built
 * run, and read back from the bucket: the keys, every field of every file, rolled files with their manifest,
 * nothing for an empty window, the same objects again on a re-run, and the failures retrying cannot mend.
 */
import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { S3Client } from '@aws-sdk/client-s3';
import { parquetReadObjects } from 'hyparquet';
import { compressors as parquetDecompressors } from 'hyparquet-compressors';
import { createS3Destination, s3Destination } from '../../handlers/jobs/destinations/s3.js';
import { MultipartUpload, MIN_PART_BYTES } from '../../handlers/jobs/destinations/s3-upload.js';
import { NonRetryableExportError, type ExportOutcome, type ExportRun } from '../../handlers/jobs/destinations/types.js';
import { exportRow, runRow } from '../helpers/batch-exports.js';
import { testDb } from '../helpers/database.js';
import { newAccount, type Account } from '../helpers/fixtures.js';
import { startTestS3, S3RVER_CREDENTIALS, type TestS3 } from '../helpers/s3.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { loopbackAddresses } from '../helpers/destination-addresses.js';

const WINDOW = { start: new Date('2026-01-01T10:00:00Z'), end: new Date('2026-01-01T11:00:00Z') };
const INTERVAL = '2026-01-01T10:00:00+00:00-2026-01-01T11:00:00+00:00';

interface Harness {
  exportRun: ExportRun;
  progress: Array<{ recordsCompleted?: number; bytesExported?: number }>;
}

function harness(account: Account, config: Record<string, unknown>, window: { start: Date | null; end: Date } = WINDOW): Harness {
  const batchExport = exportRow(account.environment.id, { name: 'to s3', destination_type: 'S3Compatible', destination_config: config });
  const run = runRow(batchExport, window);
  const progress: Harness['progress'] = [];
  return {
    progress,
    exportRun: {
      batchExport,
      run,
      selectBy: 'timestamp',
      db: testDb(),
      addresses: loopbackAddresses,
      signal: new AbortController().signal,
      progress: async (update) => void progress.push(update),
    },
  };
}

/** A stored timestamptz in UTC to the microsecond, as PostgreSQL prints it: `YYYY-MM-DDTHH:MM:SS.ffffff`. */
const MICROS_TEXT = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US')`;

/** A datetime as PostHog's files write it: `+00:00`, and six digits of fraction unless they are all zero. */
function postHogDatetime(microsText: string): string {
  const [seconds, fraction] = microsText.split('.');
  return fraction === '000000' ? `${seconds}+00:00` : `${seconds}.${fraction}+00:00`;
}

/** Microseconds since the epoch (a Parquet TIMESTAMP(MICROS) value) as MICROS_TEXT prints them. */
function microsText(micros: bigint): string {
  const seconds = new Date(Number(micros / 1_000_000n) * 1000).toISOString().slice(0, 19);
  return `${seconds}.${String(micros % 1_000_000n).padStart(6, '0')}`;
}

/** What the window's events are in the database, as PostHog's S3 JSONLines shows them. */
async function storedEvents(account: Account, window = WINDOW): Promise<Array<Record<string, unknown>>> {
  const rows: Array<Record<string, any>> = await testDb()('events as e')
    .leftJoin('person_distinct_ids as d', function () {
      this.on('d.team_id', 'e.team_id').andOn('d.distinct_id', 'e.distinct_id');
    })
    .leftJoin('persons as p', (on) => on.on('p.team_id', 'd.team_id').andOn('p.id', 'd.person_id'))
    .where('e.team_id', account.environment.id)
    .andWhere('e.timestamp', '>=', window.start)
    .andWhere('e.timestamp', '<', window.end)
    .orderBy([{ column: 'e.timestamp' }, { column: 'e.uuid' }])
    .select('e.uuid', 'e.event', 'e.properties', 'e.distinct_id', 'e.elements_chain', 'e.person_id', 'p.properties as person_properties')
    .select(testDb().raw(`${MICROS_TEXT('e.timestamp')} as timestamp, ${MICROS_TEXT('e.inserted_at')} as inserted_at`));
  return rows.map((row) => ({
    uuid: row.uuid,
    timestamp: postHogDatetime(row.timestamp),
    _inserted_at: postHogDatetime(row.inserted_at),
    created_at: postHogDatetime(row.inserted_at),
    event: row.event,
    properties: row.properties,
    distinct_id: row.distinct_id,
    elements_chain: row.elements_chain,
    person_properties: row.person_properties ?? null,
    person_id: row.person_id,
  }));
}

const lines = (text: string) =>
  text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the run to fail');
}

/** A port nothing listens on: one the system gave us and that we gave back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

describe('batch export to S3', function () {
  this.timeout(60_000);
  let server: TestServer;
  let s3: TestS3;
  let account: Account;

  async function capture(target: Account, batch: Array<Record<string, unknown>>): Promise<void> {
    const res = await server.http.request('POST', '/batch/', {
      rawBody: JSON.stringify({ api_key: target.environment.api_token, historical_migration: true, batch }),
      headers: { 'content-type': 'application/json' },
    });
    expect([res.status, res.body]).to.deep.equal([200, { status: 1 }]);
  }

  before(async () => {
    [server, s3] = await Promise.all([startTestServer(), startTestS3()]);
    account = await newAccount(testDb());
    const other = await newAccount(testDb());
    await capture(account, [
      { event: '$identify', distinct_id: 'ada', timestamp: '2026-01-01T10:05:00Z', uuid: randomUUID(), properties: { $set: { email: 'ada@example.com' } } },
      {
        event: '$pageview',
        distinct_id: 'ada',
        timestamp: '2026-01-01T10:10:00.250Z',
        uuid: randomUUID(),
        properties: { $current_url: 'https://example.com/ü', plan: { tier: 'pro', seats: 3 } },
      },
      { event: 'signed up', distinct_id: 'bob', timestamp: '2026-01-01T10:59:59Z', uuid: randomUUID(), properties: { source: 'ad' } },
      { event: 'later', distinct_id: 'bob', timestamp: '2026-01-01T11:00:00Z', uuid: randomUUID() },
      { event: 'earlier', distinct_id: 'bob', timestamp: '2026-01-01T09:59:59Z', uuid: randomUUID() },
    ]);
    await capture(other, [{ event: 'elsewhere', distinct_id: 'ada', timestamp: '2026-01-01T10:30:00Z', uuid: randomUUID() }]);
  });
  after(async () => {
    await Promise.all([server?.close(), s3?.close()]);
  });

  it('writes the window’s events as gzip JSONLines under the templated prefix, every field as stored', async () => {
    const expected = await storedEvents(account);
    expect(expected.map((event) => event.event)).to.deep.equal(['$identify', '$pageview', 'signed up']);
    expect(expected[1]!.person_properties).to.deep.equal({ email: 'ada@example.com' });
    const prefix = `gzip-${randomUUID()}`;
    const { exportRun, progress } = harness(account, s3.config({ prefix: `/${prefix}/{table}/{year}/{month}/{day}/{hour}`, compression: 'gzip' }));
    const outcome = await s3Destination.run(exportRun);
    const key = `${prefix}/events/2026/01/01/11/${INTERVAL}.jsonl.gz`;
    expect(await s3.keys(prefix)).to.deep.equal([key]);
    const object = await s3.object(key);
    expect(lines(gunzipSync(object).toString('utf8'))).to.deep.equal(expected);
    expect(outcome).to.deep.equal({ recordsCompleted: 3, bytesExported: object.length });
    expect(progress.at(-1)).to.deep.equal(outcome);
  });

  it('writes brotli JSONLines and uncompressed JSONLines with the same lines', async () => {
    const expected = await storedEvents(account);
    const prefix = `plain-${randomUUID()}`;
    await s3Destination.run(harness(account, s3.config({ prefix, compression: 'brotli' })).exportRun);
    await s3Destination.run(harness(account, s3.config({ prefix })).exportRun);
    expect(await s3.keys(prefix)).to.deep.equal([`${prefix}/${INTERVAL}.jsonl`, `${prefix}/${INTERVAL}.jsonl.br`]);
    expect(lines(brotliDecompressSync(await s3.object(`${prefix}/${INTERVAL}.jsonl.br`)).toString('utf8'))).to.deep.equal(expected);
    expect(lines((await s3.object(`${prefix}/${INTERVAL}.jsonl`)).toString('utf8'))).to.deep.equal(expected);
  });

  it('writes Parquet that reads back as the stored events, timestamps included', async () => {
    // A stored time with microseconds (capture may store whole milliseconds): the file must keep what a
    // millisecond would lose.
    // Read, then written as text (a JavaScript Date would drop the microseconds), in two statements that
    // Citus runs on the environment's node.
    const { rows: [first] } = await testDb().raw(
      `select uuid, (date_trunc('second', inserted_at) + interval '0.123457 second')::text as at
         from events where team_id = ? and timestamp >= ? and timestamp < ? order by timestamp, uuid limit 1`,
      [account.environment.id, WINDOW.start, WINDOW.end],
    );
    await testDb().raw('update events set inserted_at = ?::timestamptz where team_id = ? and uuid = ?', [
      first.at,
      account.environment.id,
      first.uuid,
    ]);
    const expected = await storedEvents(account);
    expect(expected.some((event) => /\.\d{3}[0-9]*[1-9]\+/.test(String(event._inserted_at)) && !/\.\d{3}000\+/.test(String(event._inserted_at)))).to.equal(true);
    const prefix = `parquet-${randomUUID()}`;
    const outcome = await s3Destination.run(harness(account, s3.config({ prefix, file_format: 'Parquet', compression: 'gzip' })).exportRun);
    const key = `${prefix}/${INTERVAL}.parquet.gz`;
    expect(await s3.keys(prefix)).to.deep.equal([key]);
    const bytes = await s3.object(key);
    expect(outcome).to.deep.equal({ recordsCompleted: 3, bytesExported: bytes.length });
    const rows = await parquetReadObjects({
      file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
      compressors: { GZIP: (input: Uint8Array) => new Uint8Array(gunzipSync(input)) },
      // The stored microseconds as they are in the file, not a Date's milliseconds.
      parsers: { timestampFromMicroseconds: (micros: bigint) => micros },
    });
    expect(
      rows.map((row) => ({
        ...row,
        timestamp: postHogDatetime(microsText(row.timestamp)),
        _inserted_at: postHogDatetime(microsText(row._inserted_at)),
        created_at: postHogDatetime(microsText(row.created_at)),
        properties: JSON.parse(row.properties),
        person_properties: row.person_properties === null ? null : JSON.parse(row.person_properties),
      })),
    ).to.deep.equal(expected);
  });

  // Every compression PostHog takes for Parquet, under the extension PostHog's keys end in.
  const parquetCompressions: Array<[string | null, string]> = [
    ['zstd', 'parquet.zst'],
    ['lz4', 'parquet.lz4'],
    ['snappy', 'parquet.sz'],
    ['brotli', 'parquet.br'],
    [null, 'parquet'],
  ];
  for (const [compression, extension] of parquetCompressions) {
    it(`writes Parquet with compression ${compression} as ${extension}, reading back as the stored events`, async () => {
      const expected = await storedEvents(account);
      const prefix = `parquet-${compression}-${randomUUID()}`;
      const outcome = await s3Destination.run(harness(account, s3.config({ prefix, file_format: 'Parquet', compression })).exportRun);
      const key = `${prefix}/${INTERVAL}.${extension}`;
      expect(await s3.keys(prefix)).to.deep.equal([key]);
      const bytes = await s3.object(key);
      expect(outcome).to.deep.equal({ recordsCompleted: 3, bytesExported: bytes.length });
      const rows = await parquetReadObjects({
        file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
        compressors: parquetDecompressors,
        parsers: { timestampFromMicroseconds: (micros: bigint) => micros },
      });
      expect(
        rows.map((row) => ({
          ...row,
          timestamp: postHogDatetime(microsText(row.timestamp)),
          _inserted_at: postHogDatetime(microsText(row._inserted_at)),
          created_at: postHogDatetime(microsText(row.created_at)),
          properties: JSON.parse(row.properties),
          person_properties: row.person_properties === null ? null : JSON.parse(row.person_properties),
        })),
      ).to.deep.equal(expected);
    });
  }

  it('rolls to numbered files at max_file_size_mb and lists them in a manifest', async () => {
    const big = await newAccount(testDb());
    // Random hex barely compresses: four events of 600 kB make files of two events each at 1 MB.
    await capture(
      big,
      [0, 1, 2, 3].map((n) => ({
        event: `big ${n}`,
        distinct_id: 'bulk',
        timestamp: `2026-01-01T10:0${n}:00Z`,
        uuid: randomUUID(),
        properties: { blob: randomBytes(300_000).toString('hex') },
      })),
    );
    const prefix = `rolled-${randomUUID()}`;
    const destination = createS3Destination({ batchSize: 1 });
    const { exportRun, progress } = harness(big, s3.config({ prefix, max_file_size_mb: 1 }));
    const outcome = await destination.run(exportRun);
    const files = [`${prefix}/${INTERVAL}-0.jsonl`, `${prefix}/${INTERVAL}-1.jsonl`];
    const manifest = `${prefix}/${INTERVAL}_manifest.json`;
    expect(await s3.keys(prefix)).to.deep.equal([...files, manifest]);
    expect(JSON.parse((await s3.object(manifest)).toString('utf8'))).to.deep.equal({ files });
    const contents = await Promise.all(files.map((key) => s3.object(key)));
    expect(contents.map((content) => lines(content.toString('utf8')).map((line) => line.event))).to.deep.equal([
      ['big 0', 'big 1'],
      ['big 2', 'big 3'],
    ]);
    expect(lines(Buffer.concat(contents).toString('utf8'))).to.deep.equal(await storedEvents(big));
    expect(outcome).to.deep.equal({ recordsCompleted: 4, bytesExported: contents[0]!.length + contents[1]!.length });
    expect(progress.map((update) => update.recordsCompleted)).to.deep.equal([1, 2, 3, 4, 4]);
  });

  it('writes no object at all for a window without events, and completes with 0 records', async () => {
    const prefix = `empty-${randomUUID()}`;
    const window = { start: new Date('2026-01-02T10:00:00Z'), end: new Date('2026-01-02T11:00:00Z') };
    const outcome = await s3Destination.run(harness(account, s3.config({ prefix, max_file_size_mb: 1 }), window).exportRun);
    expect(outcome).to.deep.equal({ recordsCompleted: 0, bytesExported: 0 });
    expect(await s3.keys(prefix)).to.deep.equal([]);
  });

  it('names an earliest backfill’s file None-<end>', async () => {
    const prefix = `earliest-${randomUUID()}`;
    const outcome = await s3Destination.run(harness(account, s3.config({ prefix }), { start: null, end: WINDOW.end }).exportRun);
    expect(await s3.keys(prefix)).to.deep.equal([`${prefix}/None-2026-01-01T11:00:00+00:00.jsonl`]);
    expect(outcome.recordsCompleted).to.equal(4);
  });

  it('overwrites the same keys with the same content when the run is run again', async () => {
    const prefix = `twice-${randomUUID()}`;
    const config = s3.config({ prefix, max_file_size_mb: 5, compression: 'gzip' });
    const first: ExportOutcome = await s3Destination.run(harness(account, config).exportRun);
    const keys = await s3.keys(prefix);
    const contents = await Promise.all(keys.map((key) => s3.object(key)));
    const second = await s3Destination.run(harness(account, config).exportRun);
    expect(keys).to.deep.equal([`${prefix}/${INTERVAL}-0.jsonl.gz`, `${prefix}/${INTERVAL}_manifest.json`]);
    expect(await s3.keys(prefix)).to.deep.equal(keys);
    expect(await Promise.all(keys.map((key) => s3.object(key)))).to.deep.equal(contents);
    expect(second).to.deep.equal(first);
  });

  it('uploads a file larger than a part in several parts that join up to the same bytes', async () => {
    const client = new S3Client({
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: S3RVER_CREDENTIALS.aws_access_key_id, secretAccessKey: S3RVER_CREDENTIALS.aws_secret_access_key },
    });
    try {
      const key = `parts-${randomUUID()}/object`;
      const upload = await MultipartUpload.start({
        client,
        bucket: s3.bucket,
        key,
        encryption: null,
        kmsKeyId: null,
        partSizeBytes: MIN_PART_BYTES,
        signal: new AbortController().signal,
      });
      const data = randomBytes(2 * MIN_PART_BYTES + 1234);
      for (let offset = 0; offset < data.length; offset += 1_000_000) await upload.write(data.subarray(offset, offset + 1_000_000));
      await upload.complete();
      // Parts of exactly 5 MiB, whatever the writes' sizes, then the rest as the last part.
      expect(upload.partsUploaded).to.equal(3);
      expect((await s3.object(key)).equals(data)).to.equal(true);
    } finally {
      client.destroy();
    }
  });

  const refusals: Array<{ name: string; config: (s3: TestS3) => Record<string, unknown>; message: RegExp }> = [
    {
      name: 'wrong credentials',
      config: (s3) => s3.config({ aws_access_key_id: 'WRONG', aws_secret_access_key: 'WRONG' }),
      message: /^S3 refused the upload to bucket 'exports' at http:\/\/127\.0\.0\.1:\d+: InvalidAccessKeyId \(status 403\): /,
    },
    {
      name: 'a missing bucket',
      config: (s3) => s3.config({ bucket_name: 'no-such-bucket' }),
      message: /^S3 refused the upload to bucket 'no-such-bucket' at http:\/\/127\.0\.0\.1:\d+: NoSuchBucket \(status 404\): /,
    },
    // A run refuses what the API's write refuses, in the same words, for an export stored before the rule held.
    {
      name: 'an empty bucket or region',
      config: (s3) => s3.config({ bucket_name: '', region: '' }),
      message: /^The following inputs are empty: \['bucket_name', 'region'\]$/,
    },
    {
      name: 'files of no size',
      config: (s3) => s3.config({ max_file_size_mb: 0 }),
      message: /^Configuration has invalid value: 'max_file_size_mb' must be at least 1$/,
    },
    {
      name: 'a compression the format does not take',
      config: (s3) => s3.config({ file_format: 'JSONLines', compression: 'zstd' }),
      message: /^Compression zstd is not supported for file format JSONLines\. Supported compressions are \['gzip', 'brotli'\]$/,
    },
    {
      name: 'an endpoint that is not a URL',
      config: (s3) => s3.config({ endpoint_url: 'minio:9000' }),
      message: /^Invalid S3 endpoint URL 'minio:9000': it must be an http or https URL$/,
    },
  ];
  it('leaves an endpoint nothing listens on to the engine’s retries, with the one message of every connection failure', async () => {
    const prefix = `refused-${randomUUID()}`;
    const settings = { ...s3.config({ endpoint_url: `http://127.0.0.1:${await closedPort()}` }), prefix };
    const error = await failure(s3Destination.run(harness(account, settings).exportRun));
    expect(error).to.be.instanceOf(Error).and.not.to.be.instanceOf(NonRetryableExportError);
    expect((error as Error).message).to.equal('ConnectionError: the destination could not be reached');
    expect(await s3.keys(prefix)).to.deep.equal([]);
  });

  for (const { name, config, message } of refusals) {
    it(`fails for good on ${name}, with a clear message and no object`, async () => {
      const prefix = `refused-${randomUUID()}`;
      const settings = { ...config(s3), prefix };
      const error = await failure(s3Destination.run(harness(account, settings).exportRun));
      expect(error).to.be.instanceOf(NonRetryableExportError);
      expect((error as Error).message).to.match(message);
      expect(await s3.keys(prefix)).to.deep.equal([]);
    });
  }
});
