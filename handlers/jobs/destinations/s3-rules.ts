/**
 * The rules an S3 destination's settings follow that both the API's write (handlers/batch-exports/validation.ts)
 * and a run (s3.ts) apply; kept apart from s3.ts so that the HTTP worker reads them without loading the AWS SDK.
 */

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
