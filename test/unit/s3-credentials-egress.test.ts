/**
 * An S3 destination signs with the keys its export carries and nothing else. Without them the AWS SDK would
 * look for credentials itself (the instance metadata service, the server's environment and ~/.aws, a
 * credential_process), over connections the address policy does not see, and write with the server's identity.
 *
 * The server's AWS setup is poisoned here: the metadata endpoint and the configured endpoint URLs point at
 * loopback listeners that count connections, and the config file names a region, an endpoint and a
 * credential_process that leaves a mark. None of it may be used.
 */
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { AddressPolicy } from '../../db/destinations/address-policy.js';
import { guardedAgents } from '../../handlers/jobs/destinations/egress.js';
import { readS3Config } from '../../handlers/jobs/destinations/s3-config.js';
import { S3_KEYS_REQUIRED_MESSAGE } from '../../handlers/jobs/destinations/s3-rules.js';
import { createS3Client } from '../../handlers/jobs/destinations/s3-upload.js';
import { NonRetryableExportError } from '../../handlers/jobs/destinations/types.js';

const KEYS = { aws_access_key_id: 'AKIATENANTKEY', aws_secret_access_key: 'tenant-secret' };

interface Listener {
  server: http.Server;
  connections: number;
  requests: http.IncomingMessage[];
  port: number;
}

async function listen(address: string, answer: (request: http.IncomingMessage, response: http.ServerResponse) => void): Promise<Listener> {
  const listener = { connections: 0, requests: [] as http.IncomingMessage[], port: 0 } as Listener;
  listener.server = http.createServer((request, response) => {
    listener.requests.push(request);
    request.resume();
    request.on('end', () => answer(request, response));
  });
  listener.server.on('connection', () => (listener.connections += 1));
  listener.server.listen(0, address);
  await once(listener.server, 'listening');
  listener.port = (listener.server.address() as AddressInfo).port;
  return listener;
}

async function close(listener: Listener | undefined): Promise<void> {
  if (!listener) return;
  listener.server.closeAllConnections();
  listener.server.close();
  await once(listener.server, 'close');
}

describe('S3 destinations and the server’s own AWS credentials', () => {
  const saved = { ...process.env };
  let metadata: Listener;
  let configuredEndpoint: Listener;
  let bucket: Listener;
  let directory: string;
  let processMark: string;

  before(async () => {
    metadata = await listen('127.0.0.1', (_request, response) => response.writeHead(404).end());
    // Allowed by the policies below: were the SDK to take the configured endpoint, it would get through.
    configuredEndpoint = await listen('127.0.0.3', (_request, response) => response.writeHead(200, { etag: '"x"' }).end());
    bucket = await listen('127.0.0.2', (_request, response) => response.writeHead(200, { etag: '"x"' }).end());
    directory = await mkdtemp(join(tmpdir(), 'hedgerow-aws-'));
    processMark = join(directory, 'credential-process-ran');
    const configFile = join(directory, 'config');
    await writeFile(
      configFile,
      [
        '[default]',
        'region = eu-north-1',
        `endpoint_url = http://127.0.0.3:${configuredEndpoint.port}`,
        `credential_process = /bin/sh -c 'touch ${processMark}; echo {}'`,
        'use_fips_endpoint = true',
        'defaults_mode = auto',
        '',
      ].join('\n'),
    );
    for (const name of Object.keys(process.env)) if (name.startsWith('AWS_')) delete process.env[name];
    Object.assign(process.env, {
      AWS_EC2_METADATA_SERVICE_ENDPOINT: `http://127.0.0.1:${metadata.port}`,
      AWS_CONTAINER_CREDENTIALS_FULL_URI: `http://127.0.0.1:${metadata.port}/credentials`,
      AWS_ENDPOINT_URL: `http://127.0.0.3:${configuredEndpoint.port}`,
      AWS_ENDPOINT_URL_S3: `http://127.0.0.3:${configuredEndpoint.port}`,
      AWS_DEFAULTS_MODE: 'auto',
      AWS_USE_DUALSTACK_ENDPOINT: 'true',
      AWS_CONFIG_FILE: configFile,
      AWS_SHARED_CREDENTIALS_FILE: configFile,
    });
  });

  after(async () => {
    process.env = saved;
    await Promise.all([close(metadata), close(configuredEndpoint), close(bucket)]);
    await rm(directory, { recursive: true, force: true });
  });

  afterEach(() => {
    expect(metadata.connections, 'connections to the metadata service').to.equal(0);
    expect(configuredEndpoint.connections, "connections to the server's configured endpoint").to.equal(0);
    expect(existsSync(processMark), 'the credential_process ran').to.equal(false);
  });

  describe('a run refuses an export without both keys, before anything else', () => {
    const base = { bucket_name: 'exports', region: 'us-east-1', prefix: 'x', endpoint_url: 'http://127.0.0.2:9' };
    const cases: [string, Record<string, unknown>][] = [
      ['no keys', base],
      ['no secret key', { ...base, aws_access_key_id: KEYS.aws_access_key_id }],
      ['no access key', { ...base, aws_secret_access_key: KEYS.aws_secret_access_key }],
      ['empty keys', { ...base, aws_access_key_id: '', aws_secret_access_key: '' }],
      ['null keys', { ...base, aws_access_key_id: null, aws_secret_access_key: null }],
    ];
    for (const [what, config] of cases) {
      it(what, () => {
        expect(() => readS3Config(config))
          .to.throw(NonRetryableExportError)
          .with.property('message', S3_KEYS_REQUIRED_MESSAGE);
      });
    }
  });

  /** Sends one PutObject with the destination's client; the request the SDK built is kept before it leaves. */
  async function put(config: Record<string, unknown>, policy: AddressPolicy): Promise<{ client: S3Client; signed: { hostname: string; authorization: string } | null; error: unknown }> {
    const agents = guardedAgents(policy, { keepAlive: false });
    const client = createS3Client(readS3Config(config), agents);
    let signed: { hostname: string; authorization: string } | null = null;
    client.middlewareStack.add(
      (next) => async (args) => {
        const request = args.request as { hostname: string; headers: Record<string, string> };
        signed = { hostname: request.hostname, authorization: request.headers.authorization ?? '' };
        return next(args);
      },
      { step: 'deserialize', name: 'keepSignedRequest' },
    );
    let error: unknown = null;
    try {
      await client.send(new PutObjectCommand({ Bucket: 'exports', Key: 'k', Body: 'x' }));
    } catch (caught) {
      error = caught;
    } finally {
      client.destroy();
      agents.destroy();
    }
    return { client, signed, error };
  }

  it("signs with the export's keys at the export's endpoint, whatever the server's AWS setup says", async () => {
    const policy = new AddressPolicy({ allowlist: ['127.0.0.2', '127.0.0.3'] });
    const { signed, error } = await put(
      { bucket_name: 'exports', region: 'us-east-1', prefix: 'x', endpoint_url: `http://127.0.0.2:${bucket.port}`, ...KEYS },
      policy,
    );
    expect(error).to.equal(null);
    expect(bucket.requests.map((request) => [request.method, request.url?.split('?')[0]])).to.deep.equal([['PUT', '/exports/k']]);
    expect(bucket.requests[0]!.headers.authorization).to.match(/^AWS4-HMAC-SHA256 Credential=AKIATENANTKEY\/\d{8}\/us-east-1\/s3\/aws4_request,/);
    expect(signed!.hostname).to.equal('127.0.0.2');
  });

  it("goes to AWS's own endpoint of the export's region when it names none, not to a configured one", async () => {
    // Every name resolves to an allowed loopback address with nothing listening on 443: the request is built and
    // signed, and then fails to connect.
    const policy = new AddressPolicy({ allowlist: ['127.0.0.2', '127.0.0.3'], resolve: async () => ['127.0.0.2'] });
    const { signed, error } = await put({ bucket_name: 'exports', region: 'us-west-2', prefix: 'x', ...KEYS }, policy);
    expect(error).to.be.instanceOf(Error);
    expect(signed!.hostname).to.equal('s3.us-west-2.amazonaws.com');
    expect(signed!.authorization).to.match(/^AWS4-HMAC-SHA256 Credential=AKIATENANTKEY\/\d{8}\/us-west-2\/s3\/aws4_request,/);
  });

  it('never contacts the metadata service at a refused address (keys given, the AWS settings of the server poisoned)', async () => {
    // Only 127.0.0.2 is allowed: the "bucket" endpoint, closed; the metadata listener on 127.0.0.1 is refused.
    const policy = new AddressPolicy({ allowlist: ['127.0.0.2'] });
    const { error } = await put({ bucket_name: 'exports', region: 'us-east-1', prefix: 'x', endpoint_url: 'http://127.0.0.2:9', ...KEYS }, policy);
    expect(error).to.be.instanceOf(Error);
  });
});
