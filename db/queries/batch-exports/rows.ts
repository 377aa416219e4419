/**
 * The rows of the batch export tables (db/migrations/20261126100000_create_batch_exports.ts) and the values their
 * text columns take. What the API shows is built from these by db/queries/batch-exports/; the engine
 * (handlers/jobs/) schedules and runs from the same rows, so the tables are the whole contract between the two.
 */
export const BATCH_EXPORT_MODELS = ['events', 'persons', 'sessions'] as const;
export type BatchExportModel = (typeof BATCH_EXPORT_MODELS)[number];

export const BATCH_EXPORT_INTERVALS = ['hour', 'day', 'week', 'every 5 minutes', 'every 15 minutes'] as const;
export type BatchExportInterval = (typeof BATCH_EXPORT_INTERVALS)[number];

/** The length of each interval, in seconds. */
export const INTERVAL_SECONDS: Readonly<Record<BatchExportInterval, number>> = {
  hour: 3600,
  day: 86400,
  week: 604800,
  'every 5 minutes': 300,
  'every 15 minutes': 900,
};

/** The variables an S3 prefix may name, as `{name}` (filled from the run's interval and the model). */
export const S3_PREFIX_VARIABLES = ['year', 'month', 'day', 'hour', 'minute', 'second', 'data_interval_start', 'data_interval_end', 'table'] as const;

/**
 * The files of the S3 destinations: the formats, the compressions each takes and the extensions a key ends in,
 * as PostHog's S3 destination lists them (in its order, which its messages show). The API checks a config
 * against these and the engine writes by them.
 */
export const FILE_FORMATS = ['Parquet', 'JSONLines'] as const;
export type FileFormat = (typeof FILE_FORMATS)[number];

export const FORMAT_EXTENSIONS: Readonly<Record<FileFormat, string>> = { Parquet: 'parquet', JSONLines: 'jsonl' };

export const COMPRESSION_EXTENSIONS = { gzip: 'gz', snappy: 'sz', brotli: 'br', zstd: 'zst', lz4: 'lz4' } as const;
export type FileCompression = keyof typeof COMPRESSION_EXTENSIONS;

export const SUPPORTED_COMPRESSIONS: Readonly<Record<FileFormat, readonly FileCompression[]>> = {
  Parquet: ['zstd', 'lz4', 'snappy', 'gzip', 'brotli'],
  JSONLines: ['gzip', 'brotli'],
};

export const isFileFormat = (format: unknown): format is FileFormat => (FILE_FORMATS as readonly unknown[]).includes(format);

export const isCompressionOf = (format: FileFormat, compression: unknown): compression is FileCompression =>
  (SUPPORTED_COMPRESSIONS[format] as readonly unknown[]).includes(compression);

/** Destination types this server runs; any other PostHog type is refused when an export is written. */
export const DESTINATION_TYPES = ['S3', 'AwsS3', 'S3Compatible', 'Postgres', 'HTTP', 'NoOp'] as const;
export type DestinationType = (typeof DESTINATION_TYPES)[number];

export const RUN_STATUSES = [
  'Cancelled',
  'Completed',
  'ContinuedAsNew',
  'Failed',
  'FailedRetryable',
  'FailedBilling',
  'Terminated',
  'TimedOut',
  'Running',
  'Starting',
] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** A run or backfill in one of these is over: nothing will change it but a retry. */
export const FINAL_STATUSES: readonly RunStatus[] = [
  'Cancelled',
  'Completed',
  'Failed',
  'FailedRetryable',
  'FailedBilling',
  'Terminated',
  'TimedOut',
];

/**
 * One exported row, as the records source (db/queries/batch-exports/records.ts) reads it: column name to value
 * (Date for timestamps, plain objects for JSON columns). Each destination picks the columns it writes.
 */
export type ExportRecord = Record<string, unknown>;

export interface BatchExportRow {
  id: string;
  team_id: number;
  name: string;
  model: BatchExportModel;
  destination_type: DestinationType;
  /** Every setting of the destination, secrets included: never answered as it is. */
  destination_config: Record<string, unknown>;
  interval: BatchExportInterval;
  /** Seconds after the interval's natural start: offset_day * 86400 + offset_hour * 3600. */
  interval_offset: number;
  timezone: string;
  paused: boolean;
  deleted: boolean;
  created_at: Date;
  last_updated_at: Date;
  last_paused_at: Date | null;
  /** When its schedule last started again (an unpause, a new interval, timezone or offset); null: never. */
  schedule_from: Date | null;
  start_at: Date | null;
  end_at: Date | null;
  hogql_query: string | null;
  schema: unknown;
  filters: unknown;
  created_by: number | null;
}

export interface BatchExportBackfillRow {
  id: string;
  batch_export_id: string;
  team_id: number;
  start_at: Date | null;
  end_at: Date | null;
  adjusted_start_at: Date | null;
  /** The end of the last window of this backfill that is over: the windows up to it are done. */
  finished_through: Date | null;
  status: RunStatus;
  /** bigint columns arrive as strings from pg. */
  total_records_count: string | null;
  created_at: Date;
  finished_at: Date | null;
  last_updated_at: Date;
}

export interface BatchExportRunRow {
  id: string;
  team_id: number;
  batch_export_id: string;
  backfill_id: string | null;
  status: RunStatus;
  data_interval_start: Date | null;
  data_interval_end: Date;
  records_completed: string | null;
  records_failed: string | null;
  records_total_count: string | null;
  bytes_exported: string | null;
  latest_error: string | null;
  cursor: string | null;
  attempts: number;
  job_id: string | null;
  created_at: Date;
  finished_at: Date | null;
  last_updated_at: Date;
}
