/**
 * The files the object-store destinations write: records in batches in, bytes out through a sink, one file at a
 * time. Nothing holds more than a batch (JSONLines) or a row group (Parquet) of the interval, so a run's memory
 * does not grow with its size; the sink (an S3 multipart upload) decides when bytes leave the process.
 */
import { constants as zlibConstants, createBrotliCompress, createGzip, brotliCompressSync, gzipSync, type Gzip, type BrotliCompress } from 'node:zlib';
import type * as Hyparquet from 'hyparquet-writer';
import type { ByteWriter, ParquetWriteOptions, ParquetWriter, SchemaElement } from 'hyparquet-writer';
import type { Zstd } from '@hpcc-js/wasm-zstd';
import type * as Lz4 from 'lz4-wasm-nodejs';
import {
  COMPRESSION_EXTENSIONS,
  FORMAT_EXTENSIONS,
  type FileCompression,
  type FileFormat,
} from '../../../db/queries/batch-exports/rows.js';
import { epochMicros, microsOfSecond } from '../../../db/pg/precise-time.js';
import { checkFileFormat } from './s3-rules.js';
import { NonRetryableExportError, type ExportRecord } from './types.js';

export type { FileCompression, FileFormat };

/** Columns PostHog serialises as JSON objects (JSONLines) or JSON text (Parquet). */
export const JSON_COLUMNS: ReadonlySet<string> = new Set(['properties', 'person_properties', 'set', 'set_once']);

export interface FileSpec {
  format: FileFormat;
  compression: FileCompression | null;
  /** The columns in the order they are written; null writes each record's own keys in its own order. */
  columns: readonly string[] | null;
}

/** Where a file's bytes go; awaited, so a slow destination slows the writer instead of filling memory. */
export type ByteSink = (chunk: Uint8Array) => Promise<void>;

export interface RecordFileWriter {
  write(records: readonly ExportRecord[]): Promise<void>;
  /**
   * `count` lines already in the file's text (JSONLines only), each ending in a newline: the same bytes as
   * write() makes of the records they show, compressed and flushed the same way.
   */
  writeLines(lines: Uint8Array, count: number): Promise<void>;
  /** Ends the file: what the compressor or the Parquet footer still holds goes to the sink. */
  finish(): Promise<void>;
  /** Bytes handed to the sink so far: after format and compression, what a size limit is measured against. */
  readonly bytesWritten: number;
  readonly recordsWritten: number;
}

/** Throws NonRetryableExportError, in the words the API refuses it with, for a format or compression this server cannot write. */
export function checkFileSpec(format: unknown, compression: unknown): { format: FileFormat; compression: FileCompression | null } {
  const checked = checkFileFormat(format, compression);
  if (checked.refusal !== null) throw new NonRetryableExportError(checked.refusal);
  return checked;
}

export function createRecordFileWriter(spec: FileSpec, sink: ByteSink): RecordFileWriter {
  const checked = checkFileSpec(spec.format, spec.compression);
  return checked.format === 'Parquet'
    ? new ParquetFileWriter(spec.columns, checked.compression, sink)
    : new JsonLinesFileWriter(spec.columns, checked.compression, sink);
}

/** The file extension part of a key: `jsonl`, `jsonl.gz`, `parquet.sz`, … as PostHog names them. */
export function fileExtension(format: FileFormat, compression: FileCompression | null): string {
  const base = FORMAT_EXTENSIONS[format];
  return compression === null ? base : `${base}.${COMPRESSION_EXTENSIONS[compression]}`;
}

/**
 * A datetime as PostHog's files show it (orjson): RFC 3339 in UTC with `+00:00`, and a fraction of six digits
 * only when it is not zero; microseconds when the date holds them (a PreciseDate read from PostgreSQL).
 */
export function formatDatetime(date: Date): string {
  const iso = date.toISOString(); // YYYY-MM-DDTHH:MM:SS.mmmZ (or an expanded year, never for our data)
  const micros = microsOfSecond(date);
  const seconds = iso.slice(0, iso.indexOf('.'));
  return micros === 0 ? `${seconds}+00:00` : `${seconds}.${String(micros).padStart(6, '0')}+00:00`;
}

/** The columns of `record` in the file's order; a column a record lacks is written as null. */
function pickColumns(record: ExportRecord, columns: readonly string[] | null): Array<[string, unknown]> {
  if (columns === null) return Object.entries(record);
  return columns.map((column) => [column, record[column] ?? null]);
}

/** A top-level value, or an element of a top-level array (pg parses timestamptz[] into Dates), as JSON shows it. */
function plainValue(value: unknown): unknown {
  if (value instanceof Date) return formatDatetime(value);
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value) && value.some((item) => item instanceof Date || typeof item === 'bigint')) return value.map(plainValue);
  return value;
}

function jsonLine(record: ExportRecord, columns: readonly string[] | null): string {
  // Dates and bigints come from pg's parsers, at the top level of a record or in its arrays, never in parsed
  // JSON: converting them here spares JSON.stringify a replacer, which it would call for every nested key too.
  const ordered: Record<string, unknown> = {};
  for (const [column, value] of pickColumns(record, columns)) ordered[column] = plainValue(value);
  return JSON.stringify(ordered) + '\n';
}

/** A zlib stream used as a sequence of flushes: each push returns the compressed bytes of what it was given. */
class FlushingCompressor {
  private readonly output: Buffer[] = [];
  private failure: Error | null = null;
  private readonly ended: Promise<void>;

  constructor(
    private readonly stream: Gzip | BrotliCompress,
    private readonly flushKind: number,
  ) {
    stream.on('data', (chunk: Buffer) => this.output.push(chunk));
    this.ended = new Promise((resolve, reject) => {
      stream.once('end', resolve);
      stream.once('error', (error: Error) => {
        this.failure = error;
        reject(error);
      });
    });
    this.ended.catch(() => undefined);
  }

  /**
   * Flushing after every batch costs a little ratio but makes the bytes written so far exact, which is what a
   * maximum file size is measured against.
   */
  async push(data: string | Uint8Array): Promise<Buffer[]> {
    if (this.failure) throw this.failure;
    this.stream.write(data);
    await new Promise<void>((resolve) => this.stream.flush(this.flushKind, () => resolve()));
    // The flush's output is emitted on the next ticks; setImmediate runs after them.
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (this.failure) throw this.failure;
    return this.output.splice(0);
  }

  async end(): Promise<Buffer[]> {
    this.stream.end();
    await this.ended;
    return this.output.splice(0);
  }
}

class JsonLinesFileWriter implements RecordFileWriter {
  bytesWritten = 0;
  recordsWritten = 0;
  private readonly compressor: FlushingCompressor | null;

  constructor(
    private readonly columns: readonly string[] | null,
    compression: FileCompression | null,
    private readonly sink: ByteSink,
  ) {
    if (compression === 'gzip') {
      // Output in pieces of 256 KiB rather than zlib's 16 KiB: each piece is a trip to the thread pool and an
      // event, and at 16 KiB those trips were a large share of an export's work.
      this.compressor = new FlushingCompressor(createGzip({ chunkSize: 256 * 1024 }), zlibConstants.Z_SYNC_FLUSH);
    } else if (compression === 'brotli') {
      // Quality 5, as PostHog's files: most of the ratio of the default 11 at a fraction of the time.
      const params = { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 };
      this.compressor = new FlushingCompressor(createBrotliCompress({ params }), zlibConstants.BROTLI_OPERATION_FLUSH);
    } else {
      this.compressor = null;
    }
  }

  async write(records: readonly ExportRecord[]): Promise<void> {
    if (records.length === 0) return;
    let text = '';
    for (const record of records) text += jsonLine(record, this.columns);
    await this.writeLines(Buffer.from(text, 'utf8'), records.length);
  }

  async writeLines(lines: Uint8Array, count: number): Promise<void> {
    if (count === 0) return;
    this.recordsWritten += count;
    if (this.compressor === null) {
      await this.emit(lines);
      return;
    }
    for (const chunk of await this.compressor.push(lines)) await this.emit(chunk);
  }

  async finish(): Promise<void> {
    if (this.compressor === null) return;
    for (const chunk of await this.compressor.end()) await this.emit(chunk);
  }

  private async emit(chunk: Uint8Array): Promise<void> {
    if (chunk.length === 0) return;
    this.bytesWritten += chunk.length;
    await this.sink(chunk);
  }
}

type ParquetColumnKind = 'timestamp' | 'string' | 'json' | 'boolean' | 'int64' | 'double';

/** The Parquet kinds of the events columns, known whatever values the first batch happens to hold. */
const KNOWN_COLUMN_KINDS: Record<string, ParquetColumnKind> = {
  uuid: 'string',
  team_id: 'int64',
  timestamp: 'timestamp',
  _inserted_at: 'timestamp',
  created_at: 'timestamp',
  event: 'string',
  properties: 'json',
  person_properties: 'json',
  set: 'json',
  set_once: 'json',
  distinct_id: 'string',
  elements_chain: 'string',
  person_id: 'string',
};

function inferKind(column: string, values: unknown[]): ParquetColumnKind {
  const known = KNOWN_COLUMN_KINDS[column];
  if (known) return known;
  const present = values.filter((value) => value !== null && value !== undefined);
  if (present.length === 0) return 'string';
  if (present.every((value) => value instanceof Date)) return 'timestamp';
  if (present.every((value) => typeof value === 'boolean')) return 'boolean';
  if (present.every((value) => typeof value === 'bigint' || (typeof value === 'number' && Number.isInteger(value)))) return 'int64';
  if (present.every((value) => typeof value === 'number')) return 'double';
  if (present.every((value) => typeof value === 'string')) return 'string';
  return 'json';
}

function schemaElement(name: string, kind: ParquetColumnKind): SchemaElement {
  const optional = { name, repetition_type: 'OPTIONAL' } as const;
  switch (kind) {
    case 'timestamp':
      // Time-zone aware microseconds, as pyarrow writes PostHog's timestamps.
      return { ...optional, type: 'INT64', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' } };
    case 'boolean':
      return { ...optional, type: 'BOOLEAN' };
    case 'int64':
      return { ...optional, type: 'INT64' };
    case 'double':
      return { ...optional, type: 'DOUBLE' };
    case 'string':
    case 'json':
      // JSON as UTF8 text: a column declared JSON would have the writer encode our text a second time.
      return { ...optional, type: 'BYTE_ARRAY', converted_type: 'UTF8' };
  }
}

function parquetValue(column: string, kind: ParquetColumnKind, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case 'timestamp': {
      const date = value instanceof Date ? value : new Date(String(value));
      if (Number.isNaN(date.getTime())) throw new NonRetryableExportError(`Column ${column} holds ${JSON.stringify(value)}, which is not a datetime`);
      // Microseconds since the epoch, the column's unit, exactly: the writer would make them of a Date's millis.
      return epochMicros(date);
    }
    case 'boolean':
      return Boolean(value);
    case 'int64':
      if (typeof value === 'bigint') return value;
      if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
      if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
      throw new NonRetryableExportError(`Column ${column} holds ${JSON.stringify(value)}, which is not an integer`);
    case 'double':
      return Number(value);
    case 'string':
      return typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
    case 'json':
      return typeof value === 'string' ? value : JSON.stringify(value);
  }
}

/**
 * hyparquet-writer, loaded by the first Parquet file a process writes: a process that writes none (every HTTP
 * destination, every JSON Lines file) never holds it. The zstd and lz4 encoders (WebAssembly) likewise wait
 * for the first file that uses them.
 */
let parquetModule: Promise<typeof Hyparquet> | null = null;
const loadParquetModule = () => (parquetModule ??= import('hyparquet-writer'));
let zstdModule: Promise<Zstd> | null = null;
const loadZstd = () => (zstdModule ??= import('@hpcc-js/wasm-zstd').then(({ Zstd }) => Zstd.load()));
let lz4Module: Promise<typeof Lz4> | null = null;
const loadLz4 = () => (lz4Module ??= import('lz4-wasm-nodejs'));

/**
 * The levels PostHog's Parquet files are written at: it leaves them to pyarrow, whose defaults these are (brotli
 * at 8, not the library's 11, which costs many times the work for a smaller gain).
 */
const PARQUET_LEVELS = { gzip: 9, brotli: 8, zstd: 1 } as const;

/**
 * An LZ4 block as Parquet's LZ4_RAW codec holds it. pyarrow writes that codec for PostHog's `lz4` (the older
 * LZ4 codec, with Hadoop's framing, is deprecated and read differently by each reader). The encoder puts the
 * input's length before the block, little-endian in four bytes: checked, then left out.
 */
function lz4RawBlock(compress: (input: Uint8Array) => Uint8Array, input: Uint8Array): Uint8Array {
  const sized = compress(input);
  const length = sized.length >= 4 ? new DataView(sized.buffer, sized.byteOffset, 4).getUint32(0, true) : -1;
  if (length !== input.length) throw new Error(`The lz4 encoder answered a block for ${length} bytes, given ${input.length}`);
  return sized.subarray(4);
}

/**
 * The Parquet codec of a compression and the encoder it needs. No compression writes the pages as they are, as
 * PostHog does (its writer asks pyarrow for "none").
 */
async function parquetCodec(compression: FileCompression | null): Promise<Required<Pick<ParquetWriteOptions, 'codec' | 'compressors'>>> {
  switch (compression) {
    case null:
      return { codec: 'UNCOMPRESSED', compressors: {} };
    case 'snappy':
      // hyparquet-writer has snappy built in.
      return { codec: 'SNAPPY', compressors: {} };
    case 'gzip':
      return { codec: 'GZIP', compressors: { GZIP: (input) => gzipSync(input, { level: PARQUET_LEVELS.gzip }) } };
    case 'brotli': {
      const params = { [zlibConstants.BROTLI_PARAM_QUALITY]: PARQUET_LEVELS.brotli };
      return { codec: 'BROTLI', compressors: { BROTLI: (input) => brotliCompressSync(input, { params }) } };
    }
    case 'zstd': {
      const zstd = await loadZstd();
      return { codec: 'ZSTD', compressors: { ZSTD: (input) => zstd.compress(input, PARQUET_LEVELS.zstd) } };
    }
    case 'lz4': {
      const { compress } = await loadLz4();
      return { codec: 'LZ4_RAW', compressors: { LZ4_RAW: (input) => lz4RawBlock(compress, input) } };
    }
  }
}

/** Bytes of the file go to the sink after every row group (hyparquet-writer calls flush there) and at the end. */
async function sinkByteWriter(drain: (chunk: Uint8Array) => Promise<void>): Promise<ByteWriter> {
  const { ByteWriter } = await loadParquetModule();
  class SinkByteWriter extends ByteWriter {
    constructor() {
      super(1 << 20);
    }

    flush(): Promise<void> {
      // The buffer is reused from index 0 on: hand out a copy.
      const chunk = new Uint8Array(this.buffer.slice(0, this.index));
      this.index = 0;
      return drain(chunk);
    }

    override finish(): Promise<void> {
      return this.flush();
    }
  }
  return new SinkByteWriter();
}

class ParquetFileWriter implements RecordFileWriter {
  bytesWritten = 0;
  recordsWritten = 0;
  private parquet: ParquetWriter | null = null;
  private layout: Array<{ name: string; kind: ParquetColumnKind }> = [];

  constructor(
    private readonly columns: readonly string[] | null,
    private readonly compression: FileCompression | null,
    private readonly sink: ByteSink,
  ) {}

  /** The schema is fixed by the first batch (and the known events columns); every row group follows it. */
  private async open(records: readonly ExportRecord[]): Promise<ParquetWriter> {
    const { ParquetWriter } = await loadParquetModule();
    const writer = await sinkByteWriter(async (chunk) => {
      if (chunk.length === 0) return;
      this.bytesWritten += chunk.length;
      await this.sink(chunk);
    });
    const names = this.columns ?? Object.keys(records[0] ?? {});
    this.layout = names.map((name) => ({ name, kind: inferKind(name, records.map((record) => record[name])) }));
    const schema: SchemaElement[] = [
      { name: 'root', num_children: this.layout.length },
      ...this.layout.map(({ name, kind }) => schemaElement(name, kind)),
    ];
    const { codec, compressors } = await parquetCodec(this.compression);
    return new ParquetWriter({ writer, schema, codec, compressors, createdBy: 'hedgerow' });
  }

  async write(records: readonly ExportRecord[]): Promise<void> {
    if (records.length === 0) return;
    this.parquet ??= await this.open(records);
    const columnData = this.layout.map(({ name, kind }) => ({
      name,
      data: records.map((record) => parquetValue(name, kind, record[name])),
    }));
    // One row group per batch, so the flush after it hands the whole batch to the sink.
    await this.parquet.write({ columnData: columnData as never, rowGroupSize: records.length });
    this.recordsWritten += records.length;
  }

  writeLines(): Promise<void> {
    return Promise.reject(new Error('Parquet files are written from records, not lines'));
  }

  async finish(): Promise<void> {
    // A file is only opened for records, so an unopened writer has nothing to finish.
    if (this.parquet === null) return;
    await this.parquet.finish();
  }
}

/** Where one file of a run goes (an S3 multipart upload, or memory in tests). */
export interface FileTarget {
  write(chunk: Uint8Array): Promise<void>;
  /** The file is whole: make it visible. */
  complete(): Promise<void>;
  /** The file will not be finished: drop what was written. */
  abort(): Promise<void>;
}

/**
 * A run's records as a sequence of files: the first opened at the first record (an interval without records
 * makes no file), the next one after a batch that brought the current file to `maxFileBytes` or beyond.
 * Files are numbered from 0 in the order they are opened.
 */
export class RollingFileWriter {
  private current: { writer: RecordFileWriter; target: FileTarget } | null = null;
  private bytesOfCompletedFiles = 0;
  filesCompleted = 0;
  recordsWritten = 0;

  constructor(
    private readonly spec: FileSpec,
    private readonly maxFileBytes: number | null,
    private readonly openTarget: (fileNumber: number) => Promise<FileTarget>,
  ) {}

  /** Bytes written after format and compression, over every file so far. */
  get bytesWritten(): number {
    return this.bytesOfCompletedFiles + (this.current?.writer.bytesWritten ?? 0);
  }

  async write(records: readonly ExportRecord[]): Promise<void> {
    if (records.length === 0) return;
    await this.writeTo(records.length, (writer) => writer.write(records));
  }

  /** `count` JSON lines, as RecordFileWriter.writeLines takes them; files roll after them as after records. */
  async writeLines(lines: Uint8Array, count: number): Promise<void> {
    if (count === 0) return;
    await this.writeTo(count, (writer) => writer.writeLines(lines, count));
  }

  private async writeTo(count: number, write: (writer: RecordFileWriter) => Promise<void>): Promise<void> {
    if (this.current === null) {
      const target = await this.openTarget(this.filesCompleted);
      this.current = { target, writer: createRecordFileWriter(this.spec, (chunk) => target.write(chunk)) };
    }
    await write(this.current.writer);
    this.recordsWritten += count;
    if (this.maxFileBytes !== null && this.current.writer.bytesWritten >= this.maxFileBytes) await this.closeCurrent();
  }

  /** Completes the open file, if any. */
  async finish(): Promise<void> {
    await this.closeCurrent();
  }

  /** Aborts the open file, if any; completed files stay. */
  async abort(): Promise<void> {
    const open = this.current;
    this.current = null;
    if (open !== null) await open.target.abort();
  }

  private async closeCurrent(): Promise<void> {
    const open = this.current;
    if (open === null) return;
    try {
      await open.writer.finish();
      await open.target.complete();
    } catch (error) {
      await this.abort();
      throw error;
    }
    this.current = null;
    this.bytesOfCompletedFiles += open.writer.bytesWritten;
    this.filesCompleted++;
  }
}
