/**
 * The rules an S3 destination's settings follow that both the API's write (handlers/batch-exports/validation.ts)
 * and a run (s3-config.ts) apply; kept apart from s3.ts so that the HTTP worker reads them without loading the AWS SDK.
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
