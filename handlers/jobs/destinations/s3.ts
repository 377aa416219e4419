/**
 * The S3 destinations (`S3`, its successors `AwsS3` and `S3Compatible`): a run's records as files under keys
 * named as PostHog names them (s3-keys.ts), each uploaded as a multipart upload while it is written
 * (s3-upload.ts), from the settings s3-config.ts reads.
 *
 * Exactly once: the keys depend only on the export's settings and the run's interval, so a retry after any point
 * of a previous attempt overwrites the same objects; an upload that fails is aborted, so no half file becomes
 * visible.
 */
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { exportJsonLinesQuery } from '../../../db/queries/batch-exports/event-records.js';
import { readExportRecords, readJsonLines } from '../../../db/queries/batch-exports/records.js';
import type { RecordsQuery, RecordsRequest } from '../../../db/queries/batch-exports/records-query.js';
import { RollingFileWriter } from './files.js';
import { DESTINATION_REQUEST_DEADLINE_MS, guardedAgents } from './egress.js';
import { JsonLinesBatcher, type JsonLinesBatch } from './json-text.js';
import { readS3Config } from './s3-config.js';
import { manifestKey, s3Key } from './s3-keys.js';
import { classifyS3Error, createS3Client, MIN_PART_BYTES, MultipartUpload, sendWithin } from './s3-upload.js';
import type { Destination, ExportOutcome, ExportRecord, ExportRun } from './types.js';

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

const MIB = 1024 * 1024;

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
