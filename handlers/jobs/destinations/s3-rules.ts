/**
 * The rules an S3 destination's settings follow that both the API's write (handlers/batch-exports/validation.ts)
 * and a run (s3-config.ts, files.ts) apply; kept apart from s3.ts so that the HTTP worker reads them without loading
 * the AWS SDK. Each rule answers its refusal in PostHog's words, or null: the write answers it as a 400 and a run
 * fails for good with it, so an export stored before a rule held fails with the words a write would have shown.
 */
import {
  FILE_FORMATS,
  isCompressionOf,
  isFileFormat,
  SUPPORTED_COMPRESSIONS,
  type FileCompression,
  type FileFormat,
} from '../../../db/queries/batch-exports/rows.js';

/** Python's list repr, as PostHog's messages print lists. */
const pythonList = (items: readonly string[]): string => `[${items.map((item) => `'${item}'`).join(', ')}]`;

/** The settings PostHog refuses as empty strings (absent ones are the required-field check's). */
const NON_EMPTY_SETTINGS = ['bucket_name', 'region'] as const;

export function s3EmptySettingsRefusal(config: Record<string, unknown>): string | null {
  const empty = NON_EMPTY_SETTINGS.filter((name) => config[name] === '');
  return empty.length === 0 ? null : `The following inputs are empty: ${pythonList(empty)}`;
}

/** A file size limit of no megabytes would roll to a new file after every batch. */
export function s3MaxFileSizeRefusal(maxFileSizeMb: number): string | null {
  return maxFileSizeMb < 1 ? "Configuration has invalid value: 'max_file_size_mb' must be at least 1" : null;
}

export type FileSpecCheck =
  | { format: FileFormat; compression: FileCompression | null; refusal: null }
  | { refusal: string };

/** A file format and compression checked against the table of db/queries/batch-exports/rows.ts. */
export function checkFileFormat(format: unknown, compression: unknown): FileSpecCheck {
  if (!isFileFormat(format)) {
    return { refusal: `File format ${String(format)} is not supported. Supported file formats are ${pythonList(FILE_FORMATS)}` };
  }
  if (compression === null || compression === undefined) return { format, compression: null, refusal: null };
  if (!isCompressionOf(format, compression)) {
    return {
      refusal: `Compression ${String(compression)} is not supported for file format ${format}. Supported compressions are ${pythonList(SUPPORTED_COMPRESSIONS[format])}`,
    };
  }
  return { format, compression, refusal: null };
}

/**
 * Why an S3 destination must carry its own keys: without them the AWS SDK looks for credentials itself (the
 * instance metadata service, the container's credentials endpoint, the server's environment and ~/.aws), over
 * connections the address policy does not see, and the export would write with the server's own identity. PostHog
 * lets an S3 destination leave its keys out and signs with its workers' credentials; here that would let every
 * tenant write wherever the server may. So the keys are required, on every write of every S3 type (the write's
 * refusal, handlers/batch-exports/validation.ts, says the same words) and again when a run starts.
 */
export const S3_KEYS_REQUIRED_MESSAGE =
  "S3 destinations need 'aws_access_key_id' and 'aws_secret_access_key': this server never lends its own AWS credentials to an export";

/**
 * An S3 endpoint's host, or null when the endpoint is no http(s) URL, which the SDK could not use either; the
 * write refuses such an endpoint with `s3EndpointRefusal`, and a run of an export stored before does too.
 */
export function s3EndpointHost(endpointUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(endpointUrl);
  } catch {
    return null;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.hostname : null;
}

export function s3EndpointRefusal(endpointUrl: string): string {
  return `Invalid S3 endpoint URL '${endpointUrl}': it must be an http or https URL`;
}
