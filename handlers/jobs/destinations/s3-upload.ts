/**
 * Talking to S3 for a run: a client that connects only through the run's guarded agents and uses only the
 * export's own keys, each request within its deadline, S3's failures sorted into those a retry can fix and those
 * it cannot, and the multipart upload every file goes through (aborted on failure, so no half file becomes
 * visible).
 */
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  S3Client,
  UploadPartCommand,
  type ServerSideEncryption,
} from '@aws-sdk/client-s3';
import {
  addressRefusalIn,
  DESTINATION_REQUEST_DEADLINE_MS,
  excerpt,
  isConnectionFailure,
  requestDeadline,
  UNREACHABLE_MESSAGE,
  type GuardedAgents,
} from './egress.js';
import type { S3Config } from './s3-config.js';
import { S3_KEYS_REQUIRED_MESSAGE } from './s3-rules.js';
import { NonRetryableExportError } from './types.js';

/** S3 refuses parts below 5 MiB except the last one. */
export const MIN_PART_BYTES = 5 * 1024 * 1024;

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
