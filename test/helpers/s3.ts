/**
 * An S3-compatible server for tests: s3rver in this process, on port 0, keeping its objects in a temporary
 * directory that is removed when it stops. It accepts only the key pair S3RVER / S3RVER.
 */
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

export const S3RVER_CREDENTIALS = { aws_access_key_id: 'S3RVER', aws_secret_access_key: 'S3RVER' } as const;

export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** A destination_config for this server and bucket, plus `overrides`. */
  config(overrides?: Record<string, unknown>): Record<string, unknown>;
  /** Every key in the bucket under `prefix`, sorted. */
  keys(prefix?: string): Promise<string[]>;
  object(key: string): Promise<Buffer>;
  close(): Promise<void>;
}

export async function startTestS3(bucket = 'exports'): Promise<TestS3> {
  const directory = await mkdtemp(join(tmpdir(), 'hedgerow-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: S3RVER_CREDENTIALS.aws_access_key_id, secretAccessKey: S3RVER_CREDENTIALS.aws_secret_access_key },
  });
  return {
    endpoint,
    bucket,
    config: (overrides = {}) => ({
      bucket_name: bucket,
      region: 'us-east-1',
      prefix: '',
      endpoint_url: endpoint,
      ...S3RVER_CREDENTIALS,
      ...overrides,
    }),
    async keys(prefix = '') {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
        for (const object of page.Contents ?? []) keys.push(object.Key!);
        token = page.NextContinuationToken;
      } while (token);
      return keys.sort();
    },
    async object(key) {
      const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return Buffer.from(await answer.Body!.transformToByteArray());
    },
    async close() {
      client.destroy();
      server.httpServer?.closeAllConnections();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
