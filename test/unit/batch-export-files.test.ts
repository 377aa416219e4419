/**
 * The files of the S3 destinations, written from hand-built records: JSONLines bytes exactly, the compressions
 * decoded back, Parquet read back with hyparquet, files rolled at a size, and the keys PostHog names them by.
 */
import { PreciseDate } from '../../db/pg/precise-time.js';
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { compressors as parquetDecompressors } from 'hyparquet-compressors';
import {
  createRecordFileWriter,
  formatDatetime,
  RollingFileWriter,
  type FileCompression,
  type FileFormat,
  type FileSpec,
  type FileTarget,
} from '../../handlers/jobs/destinations/files.js';
import { S3_EVENT_COLUMNS } from '../../handlers/jobs/destinations/s3.js';
import { manifestKey, s3Key, type KeyRequest } from '../../handlers/jobs/destinations/s3-keys.js';
import { NonRetryableExportError, type ExportRecord } from '../../handlers/jobs/destinations/types.js';

const eventRecord = (n: number, overrides: Partial<ExportRecord> = {}): ExportRecord => ({
  uuid: `0190c2a4-0000-7000-8000-00000000000${n}`,
  team_id: 7,
  timestamp: new Date(`2026-01-01T10:00:0${n}.000Z`),
  _inserted_at: new Date(`2026-01-01T10:00:0${n}.123Z`),
  created_at: new Date(`2026-01-01T10:00:0${n}.123Z`),
  event: '$pageview',
  properties: { $current_url: 'https://example.com/ü', n, nested: { list: [1, 'b', null] } },
  distinct_id: `user-${n}`,
  elements_chain: '',
  person_id: `0190c2a4-1111-7000-8000-00000000000${n}`,
  person_properties: n % 2 === 0 ? null : { email: `u${n}@example.com` },
  set: null,
  set_once: { first: true },
  ...overrides,
});

/** Writes `batches` as one file and answers its bytes, with the writer's own count. */
async function writeFile(spec: FileSpec, batches: ExportRecord[][]): Promise<{ bytes: Buffer; counted: number }> {
  const chunks: Uint8Array[] = [];
  const writer = createRecordFileWriter(spec, async (chunk) => {
    chunks.push(chunk);
  });
  for (const batch of batches) await writer.write(batch);
  await writer.finish();
  return { bytes: Buffer.concat(chunks), counted: writer.bytesWritten };
}

const eventsSpec = (format: FileFormat, compression: FileCompression | null): FileSpec => ({ format, compression, columns: S3_EVENT_COLUMNS });

function toArrayBuffer(bytes: Buffer): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

describe('unit: batch export files', () => {
  describe('formatDatetime', () => {
    const cases: Array<[string, string]> = [
      ['2026-01-01T10:00:00.000Z', '2026-01-01T10:00:00+00:00'],
      ['2026-01-01T10:00:00.123Z', '2026-01-01T10:00:00.123000+00:00'],
      ['2026-12-31T23:59:59.007Z', '2026-12-31T23:59:59.007000+00:00'],
    ];
    for (const [given, want] of cases) {
      it(`${given} → ${want}`, () => expect(formatDatetime(new Date(given))).to.equal(want));
    }
    // Read from PostgreSQL to the microsecond (PRECISE_TIME_TYPES): the fraction PostHog writes.
    const precise: Array<[string, number, string]> = [
      ['2026-01-01T10:00:00.123Z', 456, '2026-01-01T10:00:00.123456+00:00'],
      ['2026-01-01T10:00:00.000Z', 1, '2026-01-01T10:00:00.000001+00:00'],
      ['2026-12-31T23:59:59.999Z', 999, '2026-12-31T23:59:59.999999+00:00'],
    ];
    for (const [given, micros, want] of precise) {
      it(`${given} and ${micros} µs → ${want}`, () => expect(formatDatetime(new PreciseDate(Date.parse(given), micros))).to.equal(want));
    }
  });

  describe('JSONLines', () => {
    const expectedLines = [
      '{"uuid":"0190c2a4-0000-7000-8000-000000000001","timestamp":"2026-01-01T10:00:01+00:00",' +
        '"_inserted_at":"2026-01-01T10:00:01.123000+00:00","created_at":"2026-01-01T10:00:01.123000+00:00","event":"$pageview",' +
        '"properties":{"$current_url":"https://example.com/ü","n":1,"nested":{"list":[1,"b",null]}},"distinct_id":"user-1",' +
        '"elements_chain":"","person_properties":{"email":"u1@example.com"},"person_id":"0190c2a4-1111-7000-8000-000000000001"}\n',
      '{"uuid":"0190c2a4-0000-7000-8000-000000000002","timestamp":"2026-01-01T10:00:02+00:00",' +
        '"_inserted_at":"2026-01-01T10:00:02.123000+00:00","created_at":"2026-01-01T10:00:02.123000+00:00","event":"$pageview",' +
        '"properties":{"$current_url":"https://example.com/ü","n":2,"nested":{"list":[1,"b",null]}},"distinct_id":"user-2",' +
        '"elements_chain":"","person_properties":null,"person_id":"0190c2a4-1111-7000-8000-000000000002"}\n',
    ];

    it('writes one object per line in PostHog’s S3 event columns and order, JSON columns as objects', async () => {
      const { bytes, counted } = await writeFile(eventsSpec('JSONLines', null), [[eventRecord(1)], [eventRecord(2)]]);
      expect(bytes.toString('utf8')).to.equal(expectedLines.join(''));
      expect(counted).to.equal(bytes.length);
    });

    it('writes a record’s own keys in its own order when no columns are given, a missing column as null', async () => {
      const record = { team_id: 3, distinct_id: 'd', is_deleted: false, created_at: new Date('2026-02-03T04:05:06Z'), person_version: 12 };
      const own = await writeFile({ format: 'JSONLines', compression: null, columns: null }, [[record]]);
      expect(own.bytes.toString('utf8')).to.equal(
        '{"team_id":3,"distinct_id":"d","is_deleted":false,"created_at":"2026-02-03T04:05:06+00:00","person_version":12}\n',
      );
      const picked = await writeFile({ format: 'JSONLines', compression: null, columns: ['distinct_id', 'absent'] }, [[record]]);
      expect(picked.bytes.toString('utf8')).to.equal('{"distinct_id":"d","absent":null}\n');
    });

    const compressions: Array<{ compression: FileCompression; decode: (bytes: Buffer) => Buffer; magic: number[] }> = [
      { compression: 'gzip', decode: (bytes) => gunzipSync(bytes), magic: [0x1f, 0x8b] },
      { compression: 'brotli', decode: (bytes) => brotliDecompressSync(bytes), magic: [] },
    ];
    for (const { compression, decode, magic } of compressions) {
      it(`${compression}: decodes to the same lines, over several batches, counting the compressed bytes`, async () => {
        const batches = [[eventRecord(1)], [eventRecord(2)], [eventRecord(3), eventRecord(4)]];
        const plain = await writeFile(eventsSpec('JSONLines', null), batches);
        const compressed = await writeFile(eventsSpec('JSONLines', compression), batches);
        expect([...compressed.bytes.subarray(0, magic.length)]).to.deep.equal(magic);
        expect(decode(compressed.bytes).toString('utf8')).to.equal(plain.bytes.toString('utf8'));
        expect(compressed.counted).to.equal(compressed.bytes.length);
      });
    }

    it('refuses a compression the format does not take', () => {
      expect(() => createRecordFileWriter({ format: 'JSONLines', compression: 'zstd', columns: null }, async () => undefined))
        .to.throw(NonRetryableExportError)
        .with.property('message', "Compression zstd is not supported for file format JSONLines. Supported compressions are ['gzip', 'brotli']");
      expect(() => createRecordFileWriter({ format: 'Parquet', compression: 'lzo' as FileCompression, columns: null }, async () => undefined))
        .to.throw(NonRetryableExportError)
        .with.property('message', "Compression lzo is not supported for file format Parquet. Supported compressions are ['zstd', 'lz4', 'snappy', 'gzip', 'brotli']");
      expect(() => createRecordFileWriter({ format: 'CSV' as FileFormat, compression: null, columns: null }, async () => undefined))
        .to.throw(NonRetryableExportError)
        .with.property('message', "File format CSV is not supported. Supported file formats are ['Parquet', 'JSONLines']");
    });
  });

  describe('Parquet', () => {
    // What pyarrow writes for each of PostHog's names (none for no compression, as PostHog asks it): `lz4` is the
    // LZ4_RAW codec, the older LZ4 one deprecated.
    const codecs: Array<{ compression: FileCompression | null; codec: string }> = [
      { compression: null, codec: 'UNCOMPRESSED' },
      { compression: 'snappy', codec: 'SNAPPY' },
      { compression: 'gzip', codec: 'GZIP' },
      { compression: 'brotli', codec: 'BROTLI' },
      { compression: 'zstd', codec: 'ZSTD' },
      { compression: 'lz4', codec: 'LZ4_RAW' },
    ];
    for (const { compression, codec } of codecs) {
      it(`${compression ?? 'no compression'}: reads back equal to the records, timestamps as UTC microseconds, in ${codec}`, async () => {
        const records = [eventRecord(1), eventRecord(2), eventRecord(3)];
        const { bytes, counted } = await writeFile(eventsSpec('Parquet', compression), [records.slice(0, 2), records.slice(2)]);
        expect(counted).to.equal(bytes.length);
        const file = toArrayBuffer(bytes);
        const metadata = parquetMetadata(file);
        expect(metadata.row_groups.map((group) => Number(group.num_rows))).to.deep.equal([2, 1]);
        expect(metadata.schema.slice(1).map((element) => element.name)).to.deep.equal([...S3_EVENT_COLUMNS]);
        const timestamp = metadata.schema.find((element) => element.name === 'timestamp')!;
        expect([timestamp.type, timestamp.logical_type]).to.deep.equal(['INT64', { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' }]);
        const properties = metadata.schema.find((element) => element.name === 'properties')!;
        expect([properties.type, properties.converted_type]).to.deep.equal(['BYTE_ARRAY', 'UTF8']);
        expect(metadata.row_groups[0]!.columns.map((column) => column.meta_data?.codec)).to.deep.equal(S3_EVENT_COLUMNS.map(() => codec));

        const rows = await parquetReadObjects({ file, compressors: parquetDecompressors });
        expect(rows).to.deep.equal(
          records.map((record) => ({
            uuid: record.uuid,
            timestamp: record.timestamp,
            _inserted_at: record._inserted_at,
            created_at: record.created_at,
            event: record.event,
            properties: JSON.stringify(record.properties),
            distinct_id: record.distinct_id,
            elements_chain: record.elements_chain,
            person_properties: record.person_properties === null ? null : JSON.stringify(record.person_properties),
            person_id: record.person_id,
          })),
        );
      });
    }

    // Many rows over several pages and row groups: text that repeats and text that does not compress, long
    // values, nulls, a column of nulls only (a page with no values), empty strings and text beyond ASCII.
    const manyRecords = Array.from({ length: 2500 }, (_, n) => ({
      n: BigInt(n),
      repeated: `event ${n % 7}`,
      noise: n % 5 === 0 ? null : randomBytes(24 + (n % 40)).toString('base64'),
      long: n % 500 === 0 ? 'ü€𝄞'.repeat(20_000 + n) : '',
      nothing: null,
      ratio: n % 3 === 0 ? null : n / 8,
      at: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, n)),
    }));
    for (const { compression, codec } of codecs) {
      it(`${compression ?? 'no compression'}: reads back ${manyRecords.length} varied rows exactly`, async () => {
        const batches = [manyRecords.slice(0, 1000), manyRecords.slice(1000, 1001), manyRecords.slice(1001)];
        const { bytes, counted } = await writeFile({ format: 'Parquet', compression, columns: null }, batches);
        expect(counted).to.equal(bytes.length);
        const file = toArrayBuffer(bytes);
        const metadata = parquetMetadata(file);
        expect(metadata.row_groups.map((group) => Number(group.num_rows))).to.deep.equal([1000, 1, 1499]);
        const codecs = new Set(metadata.row_groups.flatMap((group) => group.columns.map((column) => column.meta_data?.codec)));
        expect([...codecs]).to.deep.equal([codec]);
        expect(await parquetReadObjects({ file, compressors: parquetDecompressors })).to.deep.equal(manyRecords);
      });
    }

    for (const { compression, codec } of codecs.filter(({ compression }) => compression !== null)) {
      it(`${compression}: the ${codec} pages of distinct but repetitive text are smaller than the text`, async () => {
        // Distinct values, so the writer keeps no dictionary and the page holds the text itself.
        const records = Array.from({ length: 2000 }, (_, n) => ({ properties: JSON.stringify({ $current_url: 'https://example.com/pricing', $browser: 'Firefox', n }) }));
        const { bytes } = await writeFile({ format: 'Parquet', compression, columns: null }, [records]);
        const chunk = parquetMetadata(toArrayBuffer(bytes)).row_groups[0]!.columns[0]!.meta_data!;
        expect(chunk.codec).to.equal(codec);
        expect(Number(chunk.total_compressed_size)).to.be.below(Number(chunk.total_uncompressed_size) / 3);
      });
    }

    it('no compression: the pages hold the text as it is', async () => {
      const records = Array.from({ length: 2000 }, (_, n) => ({ properties: JSON.stringify({ $current_url: 'https://example.com/pricing', n }) }));
      const { bytes } = await writeFile({ format: 'Parquet', compression: null, columns: null }, [records]);
      const chunk = parquetMetadata(toArrayBuffer(bytes)).row_groups[0]!.columns[0]!.meta_data!;
      expect(chunk.codec).to.equal('UNCOMPRESSED');
      expect(chunk.total_compressed_size).to.equal(chunk.total_uncompressed_size);
    });

    it('types other models’ columns from the first batch: booleans, integers, doubles, datetimes, JSON text', async () => {
      const records = [
        { team_id: 1, distinct_id: 'a', is_deleted: false, person_version: 3, ratio: 0.5, created_at: new Date('2026-03-01T00:00:00.250Z'), urls: ['x', 'y'] },
        { team_id: 1, distinct_id: 'b', is_deleted: true, person_version: 4, ratio: 2, created_at: null, urls: [] },
      ];
      const { bytes } = await writeFile({ format: 'Parquet', compression: null, columns: null }, [records]);
      const file = toArrayBuffer(bytes);
      const types = Object.fromEntries(parquetMetadata(file).schema.slice(1).map((element) => [element.name, element.type]));
      expect(types).to.deep.equal({
        team_id: 'INT64',
        distinct_id: 'BYTE_ARRAY',
        is_deleted: 'BOOLEAN',
        person_version: 'INT64',
        ratio: 'DOUBLE',
        created_at: 'INT64',
        urls: 'BYTE_ARRAY',
      });
      expect(await parquetReadObjects({ file })).to.deep.equal([
        { team_id: 1n, distinct_id: 'a', is_deleted: false, person_version: 3n, ratio: 0.5, created_at: new Date('2026-03-01T00:00:00.250Z'), urls: '["x","y"]' },
        { team_id: 1n, distinct_id: 'b', is_deleted: true, person_version: 4n, ratio: 2, created_at: null, urls: '[]' },
      ]);
    });

    it('refuses a later value that does not fit the column’s type, naming it', async () => {
      const writer = createRecordFileWriter({ format: 'Parquet', compression: null, columns: null }, async () => undefined);
      await writer.write([{ version: 1 }]);
      let failure: unknown;
      await writer.write([{ version: 1.5 }]).catch((error: unknown) => (failure = error));
      expect(failure).to.be.instanceOf(NonRetryableExportError).with.property('message', 'Column version holds 1.5, which is not an integer');
    });
  });

  describe('RollingFileWriter', () => {
    /** In-memory files that record what happened to them. */
    function memoryTargets(options: { failCompleteOf?: number } = {}) {
      const files: Array<{ number: number; chunks: Uint8Array[]; state: 'open' | 'completed' | 'aborted' }> = [];
      const open = async (fileNumber: number): Promise<FileTarget> => {
        const file = { number: fileNumber, chunks: [] as Uint8Array[], state: 'open' as 'open' | 'completed' | 'aborted' };
        files.push(file);
        return {
          write: async (chunk) => void file.chunks.push(chunk),
          complete: async () => {
            if (options.failCompleteOf === fileNumber) throw new Error('the store went away');
            file.state = 'completed';
          },
          abort: async () => void (file.state = 'aborted'),
        };
      };
      const text = (index: number) => Buffer.concat(files[index]!.chunks).toString('utf8');
      return { files, open, text };
    }

    const padded = (n: number) => ({ n, pad: 'x'.repeat(1000) });
    const line = (n: number) => `${JSON.stringify(padded(n))}\n`;

    it('starts the next file after the batch that reached the size, numbering files from 0', async () => {
      const targets = memoryTargets();
      const lineBytes = Buffer.byteLength(line(1));
      const rolling = new RollingFileWriter({ format: 'JSONLines', compression: null, columns: null }, 2 * lineBytes + 1, targets.open);
      for (let n = 1; n <= 7; n++) await rolling.write([padded(n)]);
      await rolling.finish();
      expect(targets.files.map((file) => [file.number, file.state])).to.deep.equal([
        [0, 'completed'],
        [1, 'completed'],
        [2, 'completed'],
      ]);
      expect([0, 1, 2].map(targets.text)).to.deep.equal([
        line(1) + line(2) + line(3),
        line(4) + line(5) + line(6),
        line(7),
      ]);
      expect([rolling.recordsWritten, rolling.filesCompleted, rolling.bytesWritten]).to.deep.equal([7, 3, 7 * lineBytes]);
    });

    it('writes one file when there is no maximum, and none for no records', async () => {
      const one = memoryTargets();
      const unbounded = new RollingFileWriter({ format: 'JSONLines', compression: 'gzip', columns: null }, null, one.open);
      for (let n = 1; n <= 5; n++) await unbounded.write([padded(n)]);
      await unbounded.finish();
      expect(one.files.map((file) => file.state)).to.deep.equal(['completed']);
      expect(gunzipSync(Buffer.concat(one.files[0]!.chunks)).toString('utf8')).to.equal([1, 2, 3, 4, 5].map(line).join(''));

      const none = memoryTargets();
      const empty = new RollingFileWriter({ format: 'Parquet', compression: null, columns: null }, 1, none.open);
      await empty.write([]);
      await empty.finish();
      expect([none.files.length, empty.bytesWritten, empty.recordsWritten]).to.deep.equal([0, 0, 0]);
    });

    it('aborts the file whose completion failed and the open one on abort, keeping completed ones', async () => {
      const failing = memoryTargets({ failCompleteOf: 1 });
      const rolling = new RollingFileWriter({ format: 'JSONLines', compression: null, columns: null }, 1, failing.open);
      await rolling.write([padded(1)]);
      let failure: unknown;
      await rolling.write([padded(2)]).catch((error: unknown) => (failure = error));
      expect(failure).to.have.property('message', 'the store went away');
      expect(failing.files.map((file) => file.state)).to.deep.equal(['completed', 'aborted']);

      const abandoned = memoryTargets();
      const open = new RollingFileWriter({ format: 'JSONLines', compression: null, columns: null }, null, abandoned.open);
      await open.write([padded(1)]);
      await open.abort();
      expect(abandoned.files.map((file) => file.state)).to.deep.equal(['aborted']);
    });
  });

  describe('S3 keys', () => {
    const base: KeyRequest = {
      prefix: '',
      start: new Date('2026-01-01T00:00:00Z'),
      end: new Date('2026-01-01T01:00:00Z'),
      model: 'events',
      format: 'JSONLines',
      compression: null,
      fileNumber: null,
    };
    const interval = '2026-01-01T00:00:00+00:00-2026-01-01T01:00:00+00:00';
    const cases: Array<{ name: string; given: Partial<KeyRequest>; want: string }> = [
      { name: 'no prefix', given: {}, want: `${interval}.jsonl` },
      { name: 'date parts of the end', given: { prefix: 'events/{year}/{month}/{day}', compression: 'gzip' }, want: `events/2026/01/01/${interval}.jsonl.gz` },
      {
        name: 'time parts of the end, zero-padded',
        given: { prefix: '{hour}-{minute}-{second}', end: new Date('2026-03-04T05:06:07Z') },
        want: '05-06-07/2026-01-01T00:00:00+00:00-2026-03-04T05:06:07+00:00.jsonl',
      },
      { name: 'the interval and the table', given: { prefix: '{table}/{data_interval_start}_{data_interval_end}', model: 'persons' }, want: `persons/2026-01-01T00:00:00+00:00_2026-01-01T01:00:00+00:00/${interval}.jsonl` },
      { name: 'doubled braces are braces', given: { prefix: 'a{{b}}' }, want: `a{b}/${interval}.jsonl` },
      { name: 'a trailing slash', given: { prefix: 'exports/' }, want: `exports/${interval}.jsonl` },
      { name: 'a lone slash', given: { prefix: '/' }, want: `${interval}.jsonl` },
      { name: 'a leading slash, normalised', given: { prefix: '/a//b/./c/' }, want: `a/b/c/${interval}.jsonl` },
      { name: 'a numbered file', given: { prefix: 'p', fileNumber: 0, compression: 'brotli' }, want: `p/${interval}-0.jsonl.br` },
      { name: 'Parquet, no compression', given: { format: 'Parquet' }, want: `${interval}.parquet` },
      { name: 'Parquet, snappy', given: { format: 'Parquet', compression: 'snappy', fileNumber: 3 }, want: `${interval}-3.parquet.sz` },
      { name: 'Parquet, zstd', given: { format: 'Parquet', compression: 'zstd' }, want: `${interval}.parquet.zst` },
      { name: 'Parquet, lz4', given: { format: 'Parquet', compression: 'lz4', fileNumber: 0 }, want: `${interval}-0.parquet.lz4` },
      { name: 'Parquet, gzip', given: { format: 'Parquet', compression: 'gzip' }, want: `${interval}.parquet.gz` },
      { name: 'Parquet, brotli', given: { format: 'Parquet', compression: 'brotli' }, want: `${interval}.parquet.br` },
      { name: 'an earliest backfill has no start', given: { start: null }, want: 'None-2026-01-01T01:00:00+00:00.jsonl' },
    ];
    for (const { name, given, want } of cases) {
      it(`${name}: ${want}`, () => expect(s3Key({ ...base, ...given })).to.equal(want));
    }

    it('names the manifest after the interval, under the prefix', () => {
      expect(manifestKey({ ...base, prefix: '/exports/{year}' })).to.equal(`exports/2026/${interval}_manifest.json`);
    });

    const refused: Array<[string, string]> = [
      ['{nope}', "The S3 prefix '{nope}' uses {nope}; its variables are {year}, {month}, {day}, {hour}, {minute}, {second}, {data_interval_start}, {data_interval_end}, {table}"],
      ['a{year', "The S3 prefix 'a{year' uses an unclosed {; its variables are {year}, {month}, {day}, {hour}, {minute}, {second}, {data_interval_start}, {data_interval_end}, {table}"],
      ['a}b', "The S3 prefix 'a}b' has a single '}': write '}}' for a brace"],
    ];
    for (const [prefix, message] of refused) {
      it(`refuses the prefix ${prefix}`, () => {
        expect(() => s3Key({ ...base, prefix }))
          .to.throw(NonRetryableExportError)
          .with.property('message', message);
      });
    }
  });
});
