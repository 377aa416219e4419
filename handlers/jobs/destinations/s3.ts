/**
 * The S3 destinations (`S3`, its successors `AwsS3` and `S3Compatible`): a run's records as files under keys
 * named as PostHog names them, each uploaded as a multipart upload while it is written.
 *
 * Exactly once: the keys depend only on the export's settings and the run's interval, so a retry after any point
 * of a previous attempt overwrites the same objects; an upload that fails is aborted, so no half file becomes
 * visible.
 */
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  type ServerSideEncryption,
} from '@aws-sdk/client-s3';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { exportJsonLinesQuery, readExportRecords, readJsonLines, type RecordsQuery, type RecordsRequest } from '../../../db/queries/batch-exports/records.js';
import type { BatchExportModel } from '../../../db/queries/batch-exports/rows.js';
import { checkFileSpec, fileExtension, formatDatetime, RollingFileWriter, type FileCompression, type FileFormat } from './files.js';
import {
  addressRefusalIn,
  DESTINATION_REQUEST_DEADLINE_MS,
  excerpt,
  guardedAgents,
  isConnectionFailure,
  requestDeadline,
  UNREACHABLE_MESSAGE,
  type GuardedAgents,
} from './egress.js';
import { JsonLinesBatcher, type JsonLinesBatch } from './json-text.js';
import { S3_KEYS_REQUIRED_MESSAGE } from './s3-rules.js';
import { NonRetryableExportError, type Destination, type ExportOutcome, type ExportRecord, type ExportRun } from './types.js';

/** The events columns of PostHog's S3 files, in its order (team_id, set and set_once are left out). */
export const S3_EVENT_COLUMNS = [
  'uuid',
  'timestamp',
  '_inserted_at',
  'created_at',
  'event',
  'properties',
  'distinct_id',
  'elements_chain',
  'person_properties',
  'person_id',
] as const;

/** S3 refuses parts below 5 MiB except the last one. */
export const MIN_PART_BYTES = 5 * 1024 * 1024;
const MIB = 1024 * 1024;

export interface S3Config {
  bucketName: string;
  region: string;
  prefix: string;
  accessKeyId: string;
  secretAccessKey: string;
  format: FileFormat;
  compression: FileCompression | null;
  encryption: string | null;
  kmsKeyId: string | null;
  endpointUrl: string | null;
  maxFileSizeMb: number | null;
  useVirtualStyleAddressing: boolean;
}

function optionalString(config: Record<string, unknown>, key: string): string | null {
  const value = config[key];
  if (value === null || value === undefined || value === '') return null;
  if (typeof value !== 'string') throw new NonRetryableExportError(`The S3 setting '${key}' must be a string`);
  return value;
}

function requiredString(config: Record<string, unknown>, key: string): string {
  const value = config[key];
  if (typeof value !== 'string') throw new NonRetryableExportError(`The S3 setting '${key}' is missing`);
  return value;
}

/** The export's stored destination settings, checked; what cannot work is refused before anything is read. */
export function readS3Config(config: Record<string, unknown>): S3Config {
  const bucketName = requiredString(config, 'bucket_name');
  if (bucketName === '') throw new NonRetryableExportError("The S3 setting 'bucket_name' is empty");
  const { format, compression } = checkFileSpec(config.file_format ?? 'JSONLines', config.compression ?? null);
  const maxFileSize = config.max_file_size_mb;
  let maxFileSizeMb: number | null = null;
  if (maxFileSize !== null && maxFileSize !== undefined) {
    const parsed = typeof maxFileSize === 'string' ? Number(maxFileSize) : maxFileSize;
    if (typeof parsed !== 'number' || !Number.isInteger(parsed) || parsed <= 0) {
      throw new NonRetryableExportError(`The S3 setting 'max_file_size_mb' must be a positive integer, not ${JSON.stringify(maxFileSize)}`);
    }
    maxFileSizeMb = parsed;
  }
  const endpointUrl = optionalString(config, 'endpoint_url');
  if (endpointUrl !== null) checkEndpoint(endpointUrl);
  const accessKeyId = optionalString(config, 'aws_access_key_id');
  const secretAccessKey = optionalString(config, 'aws_secret_access_key');
  // An export stored before keys were required: without them the SDK would sign with the server's own identity.
  if (accessKeyId === null || secretAccessKey === null) throw new NonRetryableExportError(S3_KEYS_REQUIRED_MESSAGE);
  return {
    bucketName,
    region: optionalString(config, 'region') ?? 'us-east-1',
    prefix: optionalString(config, 'prefix') ?? '',
    accessKeyId,
    secretAccessKey,
    format,
    compression,
    encryption: optionalString(config, 'encryption'),
    kmsKeyId: optionalString(config, 'kms_key_id'),
    endpointUrl,
    maxFileSizeMb,
    useVirtualStyleAddressing: config.use_virtual_style_addressing === true || config.use_virtual_style_addressing === 'true',
  };
}

function checkEndpoint(endpointUrl: string): void {
  let url: URL;
  try {
    url = new URL(endpointUrl);
  } catch {
    throw new NonRetryableExportError(`Invalid S3 endpoint URL '${endpointUrl}': it is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new NonRetryableExportError(`Invalid S3 endpoint URL '${endpointUrl}': the scheme must be http or https`);
  }
}

/** How the interval's bounds appear in keys: ISO with `+00:00`, and `None` for the open start of an earliest backfill. */
export function intervalText(date: Date | null): string {
  return date === null ? 'None' : formatDatetime(date);
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/**
 * The prefix with its variables filled as Python's str.format fills them in PostHog: `{{` and `}}` are braces,
 * `{name}` one of the variables below (the date parts come from the interval's end); anything else is refused.
 */
export function renderPrefix(prefix: string, interval: { start: Date | null; end: Date }, model: BatchExportModel): string {
  const { end } = interval;
  const variables: Record<string, string> = {
    year: pad(end.getUTCFullYear(), 4),
    month: pad(end.getUTCMonth() + 1),
    day: pad(end.getUTCDate()),
    hour: pad(end.getUTCHours()),
    minute: pad(end.getUTCMinutes()),
    second: pad(end.getUTCSeconds()),
    data_interval_start: intervalText(interval.start),
    data_interval_end: intervalText(end),
    table: model,
  };
  let rendered = '';
  for (let index = 0; index < prefix.length; index++) {
    const char = prefix[index]!;
    const next = prefix[index + 1];
    if ((char === '{' && next === '{') || (char === '}' && next === '}')) {
      rendered += char;
      index++;
    } else if (char === '{') {
      const close = prefix.indexOf('}', index);
      const name = close === -1 ? null : prefix.slice(index + 1, close);
      if (name === null || !(name in variables)) {
        throw new NonRetryableExportError(
          `The S3 prefix '${prefix}' uses ${name === null ? 'an unclosed {' : `{${name}}`}; its variables are ${Object.keys(variables)
            .map((variable) => `{${variable}}`)
            .join(', ')}`,
        );
      }
      rendered += variables[name];
      index = close;
    } else if (char === '}') {
      throw new NonRetryableExportError(`The S3 prefix '${prefix}' has a single '}': write '}}' for a brace`);
    } else {
      rendered += char;
    }
  }
  return rendered;
}

/**
 * Python's posixpath.join(prefix, name), and then, for a key that came out absolute, its path relative to `/`
 * (normalised: no empty or `.` segments, `..` resolved): S3 keys never start with a slash.
 */
export function joinKey(prefix: string, name: string): string {
  const joined = prefix === '' || prefix.endsWith('/') ? prefix + name : `${prefix}/${name}`;
  if (!joined.startsWith('/')) return joined;
  const segments: string[] = [];
  for (const segment of joined.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return segments.join('/');
}

export interface KeyRequest {
  prefix: string;
  start: Date | null;
  end: Date;
  model: BatchExportModel;
  format: FileFormat;
  compression: FileCompression | null;
  /** Only when the export has a maximum file size: every file is numbered, from 0. */
  fileNumber: number | null;
}

export function s3Key(request: KeyRequest): string {
  const interval = { start: request.start, end: request.end };
  const number = request.fileNumber === null ? '' : `-${request.fileNumber}`;
  const name = `${intervalText(request.start)}-${intervalText(request.end)}${number}.${fileExtension(request.format, request.compression)}`;
  return joinKey(renderPrefix(request.prefix, interval, request.model), name);
}

export function manifestKey(request: Pick<KeyRequest, 'prefix' | 'start' | 'end' | 'model'>): string {
  const interval = { start: request.start, end: request.end };
  return joinKey(renderPrefix(request.prefix, interval, request.model), `${intervalText(request.start)}-${intervalText(request.end)}_manifest.json`);
}

/** Stands in for the SDK's default credential chain, which a client given static keys never needs. */
const refuseDefaultCredentials = () => async () => {
  throw new NonRetryableExportError(S3_KEYS_REQUIRED_MESSAGE);
};

const unset = async () => undefined;

/**
 * A client whose every connection goes through the run's guarded agents: the endpoint's host, and the hosts the
 * SDK derives from the region and a virtual-hosted bucket, are all checked before a socket connects.
 *
 * Every setting the SDK would otherwise look up in the server's environment, its AWS config files or the
 * instance metadata service is given here, so that nothing of the server's own AWS setup shapes an export:
 * static credentials only (the default chain is replaced by a refusal), no configured endpoint URLs, the
 * `legacy` defaults mode (`auto` asks the metadata service for the region), and fixed retry, checksum, FIPS and
 * dual-stack settings.
 */
export function createS3Client(config: S3Config, agents: GuardedAgents): S3Client {
  return new S3Client({
    region: config.region,
    ...(config.endpointUrl !== null ? { endpoint: config.endpointUrl } : {}),
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    credentialDefaultProvider: refuseDefaultCredentials,
    ignoreConfiguredEndpointUrls: true,
    defaultsMode: 'legacy',
    maxAttempts: 3,
    retryMode: 'standard',
    useFipsEndpoint: false,
    useDualstackEndpoint: false,
    useArnRegion: false,
    disableS3ExpressSessionAuth: false,
    requestChecksumCalculation: 'WHEN_SUPPORTED',
    responseChecksumValidation: 'WHEN_SUPPORTED',
    authSchemePreference: [],
    sigv4aSigningRegionSet: unset,
    userAgentAppId: unset,
    forcePathStyle: !config.useVirtualStyleAddressing,
    // A stalled connection fails the attempt (and the run is retried) instead of holding the run forever.
    requestHandler: { connectionTimeout: 10_000, requestTimeout: 120_000, httpAgent: agents.httpAgent, httpsAgent: agents.httpsAgent },
  });
}

/** Error names of S3 that say "try again later". */
const RETRYABLE_S3_ERRORS = new Set([
  'RequestTimeout',
  'RequestTimeoutException',
  'SlowDown',
  'InternalError',
  'ServiceUnavailable',
  'Throttling',
  'ThrottlingException',
  'TimeoutError',
  'RequestTimeTooSkewed',
]);

interface SdkError {
  name?: string;
  code?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
}

/** An endpoint as messages name it: its origin, never credentials a URL may carry. */
function endpointOrigin(endpointUrl: string): string {
  try {
    return new URL(endpointUrl).origin;
  } catch {
    return 'the endpoint';
  }
}

/**
 * An SDK failure as the engine should see it: NonRetryableExportError when retrying cannot help. Connection
 * failures are all one retryable message (egress.ts says why); what S3 answered is named by its error class and
 * status, with a short excerpt of its message.
 */
export function classifyS3Error(error: unknown, config: Pick<S3Config, 'bucketName' | 'endpointUrl'>): unknown {
  if (!(error instanceof Error) || error instanceof NonRetryableExportError || error.name === 'AbortError') return error;
  const refused = addressRefusalIn(error);
  if (refused) return new NonRetryableExportError(refused.message);
  const sdk = error as Error & SdkError;
  const status = sdk.$metadata?.httpStatusCode;
  if (status === undefined && isConnectionFailure(error)) return new Error(UNREACHABLE_MESSAGE, { cause: error });
  // Not the SDK's (a failure reading the records, say): as it is.
  if (sdk.$metadata === undefined) return error;
  const where = `bucket '${config.bucketName}'${config.endpointUrl ? ` at ${endpointOrigin(config.endpointUrl)}` : ''}`;
  const what = `${error.name}${status !== undefined ? ` (status ${status})` : ''}: ${excerpt(error.message)}`;
  if (RETRYABLE_S3_ERRORS.has(error.name)) return new Error(`S3 could not take the upload to ${where} now: ${what}`, { cause: error });
  if (status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429) {
    return new NonRetryableExportError(`S3 refused the upload to ${where}: ${what}`);
  }
  return new Error(`The upload to ${where} failed: ${what}`, { cause: error });
}

/**
 * One request (with the SDK's retries of it) within its deadline: past it the request is aborted and fails with
 * the one message of connection failures, which the run retries. `signal` null: a request made after the run
 * ended (an abort's clean-up), bounded by the deadline only.
 */
export async function sendWithin<Output>(
  request: (abortSignal: AbortSignal) => Promise<Output>,
  signal: AbortSignal | null,
  deadlineMs: number,
): Promise<Output> {
  const deadline = requestDeadline(signal, deadlineMs);
  try {
    return await request(deadline.signal);
  } catch (error) {
    if (deadline.expired()) throw new Error(UNREACHABLE_MESSAGE, { cause: error });
    throw error;
  }
}

export interface UploadTarget {
  client: S3Client;
  bucket: string;
  key: string;
  encryption: string | null;
  kmsKeyId: string | null;
  partSizeBytes: number;
  signal: AbortSignal;
  /** The longest one request may take (DESTINATION_REQUEST_DEADLINE_MS unless a test says). */
  requestDeadlineMs?: number;
}

/**
 * One object as a multipart upload fed chunk by chunk: the chunks are copied into a part of exactly the part
 * size, which leaves when full and is sent while the next one fills, so the file's writing and its upload
 * overlap. At most one part is in flight and one filling: two parts are all the memory it holds. Every file
 * goes this way, even small ones, as PostHog's do.
 */
export class MultipartUpload {
  private uploadId: string | null = null;
  private part: Buffer | null = null;
  private partBytes = 0;
  private readonly parts: Array<{ ETag: string; PartNumber: number }> = [];
  private inFlight: Promise<void> | null = null;

  private constructor(private readonly target: UploadTarget) {}

  private get deadlineMs(): number {
    return this.target.requestDeadlineMs ?? DESTINATION_REQUEST_DEADLINE_MS;
  }

  static async start(target: UploadTarget): Promise<MultipartUpload> {
    const upload = new MultipartUpload(target);
    const command = new CreateMultipartUploadCommand({
      Bucket: target.bucket,
      Key: target.key,
      ...(target.encryption !== null ? { ServerSideEncryption: target.encryption as ServerSideEncryption } : {}),
      ...(target.kmsKeyId !== null ? { SSEKMSKeyId: target.kmsKeyId } : {}),
    });
    const created = await sendWithin(
      (abortSignal) => target.client.send(command, { abortSignal }),
      target.signal,
      upload.deadlineMs,
    );
    if (!created.UploadId) throw new Error(`S3 started no multipart upload for ${target.key}`);
    upload.uploadId = created.UploadId;
    return upload;
  }

  get partsUploaded(): number {
    return this.parts.length;
  }

  async write(chunk: Uint8Array): Promise<void> {
    const size = this.target.partSizeBytes;
    for (let offset = 0; offset < chunk.length; ) {
      this.part ??= Buffer.allocUnsafe(size);
      const taken = Math.min(chunk.length - offset, size - this.partBytes);
      this.part.set(chunk.subarray(offset, offset + taken), this.partBytes);
      this.partBytes += taken;
      offset += taken;
      if (this.partBytes < size) continue;
      await this.settlePart();
      const sending = this.uploadPart();
      // Awaited by the next part, complete() or abort(); until then its failure must not go unhandled.
      sending.catch(() => undefined);
      this.inFlight = sending;
    }
  }

  private async settlePart(): Promise<void> {
    const sending = this.inFlight;
    this.inFlight = null;
    if (sending !== null) await sending;
  }

  async complete(): Promise<void> {
    await this.settlePart();
    if (this.partBytes > 0 || this.parts.length === 0) await this.uploadPart();
    const command = new CompleteMultipartUploadCommand({
      Bucket: this.target.bucket,
      Key: this.target.key,
      UploadId: this.uploadId!,
      MultipartUpload: { Parts: this.parts },
    });
    await sendWithin(
      (abortSignal) => this.target.client.send(command, { abortSignal }),
      this.target.signal,
      this.deadlineMs,
    );
  }

  /** Best effort: the failure that led here is what the run reports, not a failed abort. */
  async abort(): Promise<void> {
    await this.settlePart().catch(() => undefined);
    const uploadId = this.uploadId;
    if (uploadId === null) return;
    const command = new AbortMultipartUploadCommand({ Bucket: this.target.bucket, Key: this.target.key, UploadId: uploadId });
    try {
      // After the run's end (its signal may be aborted already): bounded by the deadline alone.
      await sendWithin((abortSignal) => this.target.client.send(command, { abortSignal }), null, this.deadlineMs);
    } catch {
      // An upload left behind is invisible and expires by the bucket's lifecycle rules.
    }
  }

  private async uploadPart(): Promise<void> {
    const body = this.part === null ? Buffer.alloc(0) : this.part.subarray(0, this.partBytes);
    this.part = null;
    this.partBytes = 0;
    const partNumber = this.parts.length + 1;
    const command = new UploadPartCommand({ Bucket: this.target.bucket, Key: this.target.key, UploadId: this.uploadId!, PartNumber: partNumber, Body: body });
    const answer = await sendWithin((abortSignal) => this.target.client.send(command, { abortSignal }), this.target.signal, this.deadlineMs);
    if (!answer.ETag) throw new Error(`S3 answered part ${partNumber} of ${this.target.key} without an ETag`);
    this.parts.push({ ETag: answer.ETag, PartNumber: partNumber });
  }
}

export interface S3DestinationOptions {
  /** Records read per batch; a file may roll to the next one after each batch. */
  batchSize?: number;
  /** At least MIN_PART_BYTES. */
  partSizeBytes?: number;
  /**
   * Where the record path's records come from; the run's own window of Hedgerow's events unless a test gives
   * another. Lines PostgreSQL writes (below) do not come from here.
   */
  records?: (exportRun: ExportRun, batchSize: number) => AsyncIterable<ExportRecord[]>;
  /**
   * `postgres` (the default): JSONLines of the default events columns are written by PostgreSQL and streamed
   * with COPY; `records`: always read records and write them here (the same bytes, more slowly).
   */
  jsonLines?: 'postgres' | 'records';
  /** The longest one S3 request may take (DESTINATION_REQUEST_DEADLINE_MS unless a test says). */
  requestDeadlineMs?: number;
}

/**
 * A batch is what the writer holds at once, a few times over (one being read, one compressed, one queued), so it
 * is most of a run's memory: 2,000 events of about a kilobyte keep it to a few megabytes. A file rolls, and
 * progress is recorded, after a batch.
 */
const DEFAULT_BATCH_SIZE = 2_000;
const DEFAULT_PART_BYTES = 8 * MIB;

function recordsRequest(exportRun: ExportRun): RecordsRequest {
  return {
    batchExport: exportRun.batchExport,
    start: exportRun.run.data_interval_start,
    end: exportRun.run.data_interval_end,
    selectBy: exportRun.selectBy,
  };
}

function runRecords(exportRun: ExportRun, batchSize: number): AsyncIterable<ExportRecord[]> {
  return readExportRecords(exportRun.db, recordsRequest(exportRun), { batchSize, signal: exportRun.signal });
}

/** Reads a run's records in batches and writes them, reporting progress after each batch. */
async function writeRecords(
  exportRun: ExportRun,
  records: AsyncIterable<ExportRecord[]>,
  files: RollingFileWriter,
): Promise<void> {
  for await (const batch of records) {
    exportRun.signal.throwIfAborted();
    await files.write(batch);
    await exportRun.progress({ recordsCompleted: files.recordsWritten, bytesExported: files.bytesWritten });
  }
}

/**
 * The lines PostgreSQL wrote, streamed with COPY, compacted into the record path's bytes, and written in the
 * record path's batches. Reading, compacting and compressing (zlib works off the main thread) and uploading all
 * run at once, each held back by the next one's backpressure: a batch being written, one waiting, the socket's
 * and the streams' buffers.
 */
async function writeJsonLines(exportRun: ExportRun, query: RecordsQuery, batchSize: number, files: RollingFileWriter): Promise<void> {
  const copy = await readJsonLines(exportRun.db, query);
  try {
    await pipeline(
      copy.lines,
      new JsonLinesBatcher(batchSize),
      new Writable({
        objectMode: true,
        highWaterMark: 1,
        write(batch: JsonLinesBatch, _encoding, callback) {
          files
            .writeLines(batch.lines, batch.count)
            .then(() => exportRun.progress({ recordsCompleted: files.recordsWritten, bytesExported: files.bytesWritten }))
            .then(() => callback(), callback);
        },
      }),
      { signal: exportRun.signal },
    );
  } finally {
    await copy.close();
  }
}

/** Events in PostHog's S3 columns; other models, and exports with their own columns, as the records give them. */
function fileColumns(exportRun: ExportRun): readonly string[] | null {
  const { batchExport } = exportRun;
  return batchExport.model === 'events' && !batchExport.hogql_query && !batchExport.schema ? S3_EVENT_COLUMNS : null;
}

export function createS3Destination(options: S3DestinationOptions = {}): Destination {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const partSizeBytes = Math.max(MIN_PART_BYTES, options.partSizeBytes ?? DEFAULT_PART_BYTES);
  const records = options.records ?? runRecords;
  const deadlineMs = options.requestDeadlineMs ?? DESTINATION_REQUEST_DEADLINE_MS;

  return {
    async run(exportRun: ExportRun): Promise<ExportOutcome> {
      const config = readS3Config(exportRun.batchExport.destination_config);
      const { run, batchExport, signal } = exportRun;
      const keyRequest = {
        prefix: config.prefix,
        start: run.data_interval_start,
        end: run.data_interval_end,
        model: batchExport.model,
        format: config.format,
        compression: config.compression,
      };
      // Rendered before any work, so a bad prefix fails the run before anything is read.
      manifestKey(keyRequest);
      const maxFileBytes = config.maxFileSizeMb === null ? null : config.maxFileSizeMb * MIB;
      const agents = guardedAgents(exportRun.addresses);
      const client = createS3Client(config, agents);
      const keys: string[] = [];
      const files = new RollingFileWriter(
        { format: config.format, compression: config.compression, columns: fileColumns(exportRun) },
        maxFileBytes,
        async (fileNumber) => {
          const key = s3Key({ ...keyRequest, fileNumber: maxFileBytes === null ? null : fileNumber });
          const upload = await MultipartUpload.start({
            client,
            bucket: config.bucketName,
            key,
            encryption: config.encryption,
            kmsKeyId: config.kmsKeyId,
            partSizeBytes,
            signal,
            requestDeadlineMs: deadlineMs,
          });
          return {
            write: (chunk) => upload.write(chunk),
            complete: async () => {
              await upload.complete();
              keys.push(key);
            },
            abort: () => upload.abort(),
          };
        },
      );

      try {
        const columns = fileColumns(exportRun);
        const linesQuery =
          options.jsonLines !== 'records' && config.format === 'JSONLines' && columns !== null
            ? exportJsonLinesQuery(recordsRequest(exportRun), columns)
            : null;
        if (linesQuery !== null) await writeJsonLines(exportRun, linesQuery, batchSize, files);
        else await writeRecords(exportRun, records(exportRun, batchSize), files);
        signal.throwIfAborted();
        await files.finish();
        if (maxFileBytes !== null && keys.length > 0) {
          const manifest = new PutObjectCommand({
            Bucket: config.bucketName,
            Key: manifestKey(keyRequest),
            Body: JSON.stringify({ files: keys }),
            ContentType: 'application/json',
          });
          await sendWithin((abortSignal) => client.send(manifest, { abortSignal }), signal, deadlineMs);
        }
        const outcome = { recordsCompleted: files.recordsWritten, bytesExported: files.bytesWritten };
        await exportRun.progress(outcome);
        return outcome;
      } catch (error) {
        await files.abort();
        // A pipeline stopped by the signal rejects with its own AbortError; the run reports the signal's reason.
        if (signal.aborted) throw signal.reason ?? error;
        throw classifyS3Error(error, config);
      } finally {
        client.destroy();
        agents.destroy();
      }
    },
  };
}

/** `S3`, `AwsS3` and `S3Compatible` are one destination: they differ only in the settings they carry. */
export const s3Destination: Destination = createS3Destination();
