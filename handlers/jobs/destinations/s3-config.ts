/**
 * An S3 destination's stored settings, read and checked before a run reads anything: what cannot work (a missing
 * bucket or keys, a bad endpoint, an unknown format) fails the run for good.
 */
import { S3_KEYS_REQUIRED_MESSAGE, s3EmptySettingsRefusal, s3EndpointHost, s3EndpointRefusal, s3MaxFileSizeRefusal } from './s3-rules.js';
import { checkFileSpec, type FileCompression, type FileFormat } from './files.js';
import { NonRetryableExportError } from './types.js';

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

function readMaxFileSizeMb(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  const parsed = typeof value === 'string' ? Number(value) : value;
  if (typeof parsed !== 'number' || !Number.isSafeInteger(parsed)) {
    throw new NonRetryableExportError(`The S3 setting 'max_file_size_mb' must be an integer, not ${JSON.stringify(value)}`);
  }
  const refusal = s3MaxFileSizeRefusal(parsed);
  if (refusal !== null) throw new NonRetryableExportError(refusal);
  return parsed;
}

/** The export's stored destination settings, checked; what cannot work is refused before anything is read. */
export function readS3Config(config: Record<string, unknown>): S3Config {
  const bucketName = requiredString(config, 'bucket_name');
  const empty = s3EmptySettingsRefusal(config);
  if (empty !== null) throw new NonRetryableExportError(empty);
  const { format, compression } = checkFileSpec(config.file_format ?? 'JSONLines', config.compression ?? null);
  const maxFileSizeMb = readMaxFileSizeMb(config.max_file_size_mb);
  const endpointUrl = optionalString(config, 'endpoint_url');
  if (endpointUrl !== null && s3EndpointHost(endpointUrl) === null) throw new NonRetryableExportError(s3EndpointRefusal(endpointUrl));
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
