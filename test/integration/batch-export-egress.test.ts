/**
 * What a batch export destination may reach. When an export is written, the API refuses destinations that name
 * loopback, private, link-local and other special addresses in any spelling (a 400 whose attr is
 * `destination`), unless HEDGEROW_DESTINATION_ALLOWLIST admits them. When a run connects, every connection is
 * checked again on the address it resolved to, before it connects: a resolver the test controls answers public
 * looking names with loopback or private addresses, and local listeners count the connections that reached them
 * (none may). Connection failures of every kind read alike. And the server's own database is never a
 * destination, through any alias, allowlist or not: finding 1's attack fails and leaves nothing behind.
 */
import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import net from 'node:net';
import pg from 'pg';
import pino from 'pino';
import { AddressPolicy } from '../../db/destinations/address-policy.js';
import type { BatchExportRow } from '../../db/queries/batch-exports/rows.js';
import { ManualClock } from '../../handlers/jobs/clock.js';
import { UNREACHABLE_MESSAGE } from '../../handlers/jobs/destinations/egress.js';
import { httpDestination } from '../../handlers/jobs/destinations/http.js';
import { postgresDestination } from '../../handlers/jobs/destinations/postgres.js';
import { s3Destination } from '../../handlers/jobs/destinations/s3.js';
import { NonRetryableExportError, type Destination, type ExportRun } from '../../handlers/jobs/destinations/types.js';
import { Engine } from '../../handlers/jobs/engine.js';
import { latestErrorOf, LATEST_ERROR_CHARS } from '../../handlers/jobs/latest-error.js';
import { exportRow, runRow } from '../helpers/batch-exports.js';
import { ADMIN_PORT, ADMIN_URL, createDatabase, databaseUrl, dropDatabase, testDb } from '../helpers/database.js';
import { DESTINATION_ROLE, destinationRoleUrl, handToDestinationRole } from '../helpers/destination-role.js';
import { fakeResolver, LOOPBACK_ALLOWLIST } from '../helpers/destination-addresses.js';
import { failureOf } from '../helpers/failure.js';
import { newAccount, unique, type Account } from '../helpers/fixtures.js';
import { insertEvents } from '../helpers/seed-events.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const SUFFIX = " Destinations may reach public addresses only, unless the server's operator allows others.";
const refusal = (host: string, verb: 'is' | 'resolves to', what: string) => `The destination address is not allowed: ${host} ${verb} ${what}.${SUFFIX}`;
const invalid = (detail: string) => ({ type: 'validation_error', code: 'invalid_input', detail, attr: 'destination' });
const OWN_DATABASE = "The destination is this server's own database, which a batch export may never write to.";
const SOCKET_OR_LIST =
  'The destination address is not allowed: a Postgres host must be one host name or address, not a socket path or a list of hosts.';

/** Names the test's resolver answers: public-looking names with addresses a destination may not reach. */
const ANSWERS: Record<string, string[]> = {
  'warehouse.example.com': ['127.0.0.1'],
  'internal.example.com': ['10.1.2.3'],
  'metadata.example.com': ['169.254.169.254'],
  'exports.s3.example.com': ['127.0.0.1'],
  's3.eu-west-1.amazonaws.com': ['169.254.169.254'],
  'public.example.com': ['93.184.215.14'],
  'warehouse.internal': ['10.9.9.9'],
  'other.internal': ['10.9.9.9'],
  localhost: ['127.0.0.1'],
};

/**
 * A host as written, how a URL spells it once parsed (WHATWG normalises IPv4 forms and IPv6), whether it is an
 * address or a name, and its class.
 */
const REFUSED_HOSTS: ReadonlyArray<{ host: string; inUrl: string; verb: 'is' | 'resolves to'; what: string }> = [
  { host: '127.0.0.1', inUrl: '127.0.0.1', verb: 'is', what: 'a loopback address' },
  { host: '0x7f000001', inUrl: '127.0.0.1', verb: 'is', what: 'a loopback address' },
  { host: '2130706433', inUrl: '127.0.0.1', verb: 'is', what: 'a loopback address' },
  { host: '0177.0.0.1', inUrl: '127.0.0.1', verb: 'is', what: 'a loopback address' },
  { host: '127.1', inUrl: '127.0.0.1', verb: 'is', what: 'a loopback address' },
  { host: '[::1]', inUrl: '[::1]', verb: 'is', what: 'a loopback address' },
  { host: '[::ffff:127.0.0.1]', inUrl: '[::ffff:7f00:1]', verb: 'is', what: 'a loopback address' },
  { host: 'localhost', inUrl: 'localhost', verb: 'resolves to', what: 'a loopback address' },
  { host: 'warehouse.example.com', inUrl: 'warehouse.example.com', verb: 'resolves to', what: 'a loopback address' },
  { host: '10.1.2.3', inUrl: '10.1.2.3', verb: 'is', what: 'a private address' },
  { host: '172.16.5.4', inUrl: '172.16.5.4', verb: 'is', what: 'a private address' },
  { host: '192.168.1.1', inUrl: '192.168.1.1', verb: 'is', what: 'a private address' },
  { host: '[fd00::1]', inUrl: '[fd00::1]', verb: 'is', what: 'a private address' },
  { host: '[64:ff9b::a01:203]', inUrl: '[64:ff9b::a01:203]', verb: 'is', what: 'a private address' },
  { host: '[2002:a01:203::1]', inUrl: '[2002:a01:203::1]', verb: 'is', what: 'a private address' },
  { host: 'internal.example.com', inUrl: 'internal.example.com', verb: 'resolves to', what: 'a private address' },
  { host: '169.254.169.254', inUrl: '169.254.169.254', verb: 'is', what: 'a link-local address' },
  { host: '[fe80::1]', inUrl: '[fe80::1]', verb: 'is', what: 'a link-local address' },
  { host: 'metadata.example.com', inUrl: 'metadata.example.com', verb: 'resolves to', what: 'a link-local address' },
  { host: '100.64.0.1', inUrl: '100.64.0.1', verb: 'is', what: 'a carrier-grade NAT address' },
  { host: '0.0.0.0', inUrl: '0.0.0.0', verb: 'is', what: 'an unspecified address' },
  { host: '[::]', inUrl: '[::]', verb: 'is', what: 'an unspecified address' },
  { host: '224.0.0.1', inUrl: '224.0.0.1', verb: 'is', what: 'a multicast address' },
  { host: '255.255.255.255', inUrl: '255.255.255.255', verb: 'is', what: 'a broadcast address' },
  { host: '240.0.0.1', inUrl: '240.0.0.1', verb: 'is', what: 'a reserved address' },
  { host: '192.0.2.1', inUrl: '192.0.2.1', verb: 'is', what: 'a documentation address' },
  { host: '198.18.0.1', inUrl: '198.18.0.1', verb: 'is', what: 'a benchmarking address' },
];

/** The destination fields that name a host, each with the destination that carries `host` there. */
const FIELDS: ReadonlyArray<{ name: string; urlSpelled: boolean; destination: (host: string) => Record<string, unknown> }> = [
  { name: 'HTTP url', urlSpelled: true, destination: (host) => ({ type: 'HTTP', config: { url: `http://${host}:8000/batch/`, token: 'phc_x' } }) },
  {
    name: 'S3Compatible endpoint_url',
    urlSpelled: true,
    destination: (host) => ({ type: 'S3Compatible', config: { bucket_name: 'b', region: 'us-east-1', prefix: '', aws_access_key_id: 'AKIAEXAMPLE', aws_secret_access_key: 'secret-key', endpoint_url: `http://${host}:9000` } }),
  },
  {
    name: 'AwsS3 endpoint_url',
    urlSpelled: true,
    destination: (host) => ({ type: 'AwsS3', config: { bucket_name: 'b', region: 'us-east-1', prefix: '', aws_access_key_id: 'AKIAEXAMPLE', aws_secret_access_key: 'secret-key', endpoint_url: `https://${host}` } }),
  },
  {
    name: 'Postgres host',
    urlSpelled: false,
    destination: (host) => ({ type: 'Postgres', config: { user: 'u', password: 'p', host, database: 'd', port: 5432 } }),
  },
];

const exportBody = (destination: Record<string, unknown>) => ({ name: unique('egress'), model: 'events', interval: 'hour', paused: true, destination });
const envPath = (account: Account) => `/api/environments/${account.environment.id}/batch_exports/`;

const WINDOW = { start: new Date('2026-01-01T10:00:00Z'), end: new Date('2026-01-01T11:00:00Z') };

/** A TCP listener on loopback that counts the connections it gets, and does to each what `serve` says. */
async function listener(serve: (socket: net.Socket) => void = (socket) => socket.destroy()) {
  let connections = 0;
  const server = net.createServer((socket) => {
    connections += 1;
    socket.on('error', () => undefined);
    // Read (and drop) what the client sends, so that its closing is seen and the socket ends.
    socket.resume();
    serve(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('batch export destinations: what they may reach', () => {
  let account: Account;

  before(async () => {
    account = await newAccount(testDb());
    await insertEvents(testDb(), account.environment.id, [
      { event: '$pageview', distinct_id: 'ada', timestamp: new Date('2026-01-01T10:15:00Z'), properties: { n: 1 } },
    ]);
  });

  function exportRun(type: BatchExportRow['destination_type'], config: Record<string, unknown>, addresses: AddressPolicy): ExportRun {
    const batchExport = exportRow(account.environment.id, { destination_type: type, destination_config: config });
    return {
      batchExport,
      run: runRow(batchExport, WINDOW),
      selectBy: 'timestamp',
      db: testDb(),
      addresses,
      signal: new AbortController().signal,
      progress: async () => undefined,
    };
  }

  describe('when an export is written', () => {
    let server: TestServer;
    let allowing: TestServer;

    before(async () => {
      const destinationResolver = fakeResolver(ANSWERS);
      [server, allowing] = await Promise.all([
        startTestServer({ config: { destinationAllowlist: [] }, destinationResolver }),
        startTestServer({ config: { destinationAllowlist: ['10.1.2.3', '192.168.0.0/16', 'warehouse.internal'] }, destinationResolver }),
      ]);
    });
    after(() => Promise.all([server?.close(), allowing?.close()]));

    for (const field of FIELDS) {
      for (const { host, inUrl, verb, what } of REFUSED_HOSTS) {
        it(`refuses ${host} as the ${field.name}: 400, attr destination`, async () => {
          const res = await server.http.withKey(account.key).post(envPath(account), exportBody(field.destination(host)));
          expect([res.status, res.body]).to.deep.equal([400, invalid(refusal(field.urlSpelled ? inUrl : host, verb, what))]);
        });
      }
    }

    it('refuses a Postgres host that is a socket path or a list of hosts, whatever the allowlist says', async () => {
      for (const host of ['/var/run/postgresql', '/tmp', '10.1.2.3,93.184.215.14']) {
        const res = await allowing.http.withKey(account.key).post(envPath(account), exportBody(FIELDS[3]!.destination(host)));
        expect([res.status, res.body], host).to.deep.equal([400, invalid(SOCKET_OR_LIST)]);
      }
    });

    it('refuses a Postgres host that is no host name or address (a port, a zone, empty labels, control characters), whatever the allowlist says', async () => {
      const notAHost =
        "The destination address is not allowed: a Postgres host must be a host name or an address, without a port, a zone or other characters (the port goes in 'port').";
      for (const host of ['127.0.0.1%lo', '127.0.0.1:5433', '[::1]:5432', 'localhost..', 'localhost\u0000', 'db\\example']) {
        const res = await allowing.http.withKey(account.key).post(envPath(account), exportBody(FIELDS[3]!.destination(host)));
        expect([res.status, res.body], JSON.stringify(host)).to.deep.equal([400, invalid(notAHost)]);
      }
    });

    it('refuses an S3 endpoint that is not an http(s) URL', async () => {
      const destination = { type: 'S3Compatible', config: { bucket_name: 'b', region: 'us-east-1', prefix: '', aws_access_key_id: 'AKIAEXAMPLE', aws_secret_access_key: 'secret-key', endpoint_url: 'file:///etc/passwd' } };
      const res = await server.http.withKey(account.key).post(envPath(account), exportBody(destination));
      expect([res.status, res.body]).to.deep.equal([400, invalid("Invalid S3 endpoint URL 'file:///etc/passwd': it must be an http or https URL")]);
    });

    it('accepts public addresses and names, and a name that does not resolve now (each run checks again)', async () => {
      for (const host of ['93.184.215.14', 'public.example.com', 'unknown.example.com']) {
        for (const field of FIELDS) {
          const res = await server.http.withKey(account.key).post(envPath(account), exportBody(field.destination(host)));
          expect(res.status, `${field.name} ${host}: ${res.text}`).to.equal(201);
        }
      }
    });

    it('refuses a PATCH that points an export at a refused address, and keeps the stored destination', async () => {
      const client = server.http.withKey(account.key);
      const created = await client.post<{ id: string }>(envPath(account), exportBody(FIELDS[0]!.destination('public.example.com')));
      expect(created.status).to.equal(201);
      const res = await client.patch(`${envPath(account)}${created.body.id}/`, { destination: { type: 'HTTP', config: { url: 'http://169.254.169.254/latest/' } } });
      expect([res.status, res.body]).to.deep.equal([400, invalid(refusal('169.254.169.254', 'is', 'a link-local address'))]);
      const row = await testDb()('batch_exports').where({ id: created.body.id }).first();
      expect(row.destination_config.url).to.equal('http://public.example.com:8000/batch/');
    });

    const allowlistCases: ReadonlyArray<readonly [string, number, ReturnType<typeof invalid> | null]> = [
      ['10.1.2.3', 201, null],
      ['192.168.4.5', 201, null],
      ['warehouse.internal', 201, null],
      ['10.1.2.4', 400, invalid(refusal('10.1.2.4', 'is', 'a private address'))],
      ['other.internal', 400, invalid(refusal('other.internal', 'resolves to', 'a private address'))],
      ['127.0.0.1', 400, invalid(refusal('127.0.0.1', 'is', 'a loopback address'))],
      ['172.16.0.1', 400, invalid(refusal('172.16.0.1', 'is', 'a private address'))],
    ];
    for (const [host, status, body] of allowlistCases) {
      it(`with an allowlist, ${status === 201 ? 'admits' : 'refuses'} ${host}`, async () => {
        for (const field of FIELDS) {
          const res = await allowing.http.withKey(account.key).post(envPath(account), exportBody(field.destination(host)));
          expect(res.status, `${field.name}: ${res.text}`).to.equal(status);
          if (body) expect(res.body).to.deep.equal(body);
        }
      });
    }
  });

  describe('when a run connects', () => {
    const strict = () => new AddressPolicy({ resolve: fakeResolver(ANSWERS) });

    type Case = { name: string; destination: Destination; type: BatchExportRow['destination_type']; config: (port: number) => Record<string, unknown>; message: string };
    const s3 = (port: number, overrides: Record<string, unknown>) => ({
      bucket_name: 'exports',
      region: 'us-east-1',
      prefix: '',
      aws_access_key_id: 'AKIAEXAMPLE',
      aws_secret_access_key: 'secret-key',
      endpoint_url: `http://warehouse.example.com:${port}`,
      ...overrides,
    });
    const postgres = (port: number, host: string) => ({ user: 'postgres', password: '', host, port, database: 'postgres' });
    const cases: Case[] = [
      { name: 'HTTP to a name resolving to loopback', destination: httpDestination, type: 'HTTP', config: (port) => ({ url: `http://warehouse.example.com:${port}/batch/`, token: 't' }), message: refusal('warehouse.example.com', 'resolves to', 'a loopback address') },
      { name: 'HTTP to a name resolving to a private address', destination: httpDestination, type: 'HTTP', config: (port) => ({ url: `http://internal.example.com:${port}/`, token: 't' }), message: refusal('internal.example.com', 'resolves to', 'a private address') },
      { name: 'HTTP to 0x7f000001', destination: httpDestination, type: 'HTTP', config: (port) => ({ url: `http://0x7f000001:${port}/`, token: 't' }), message: refusal('127.0.0.1', 'is', 'a loopback address') },
      { name: 'HTTP to [::ffff:127.0.0.1]', destination: httpDestination, type: 'HTTP', config: (port) => ({ url: `http://[::ffff:127.0.0.1]:${port}/`, token: 't' }), message: refusal('::ffff:7f00:1', 'is', 'a loopback address') },
      { name: 'HTTPS to a name resolving to loopback', destination: httpDestination, type: 'HTTP', config: (port) => ({ url: `https://warehouse.example.com:${port}/`, token: 't' }), message: refusal('warehouse.example.com', 'resolves to', 'a loopback address') },
      { name: 'S3 to an endpoint resolving to loopback', destination: s3Destination, type: 'S3Compatible', config: (port) => s3(port, {}), message: refusal('warehouse.example.com', 'resolves to', 'a loopback address') },
      { name: 'S3 to a loopback endpoint', destination: s3Destination, type: 'S3Compatible', config: (port) => s3(port, { endpoint_url: `http://127.0.0.1:${port}` }), message: refusal('127.0.0.1', 'is', 'a loopback address') },
      {
        name: 'S3 with a virtual-hosted bucket whose host resolves to loopback',
        destination: s3Destination,
        type: 'S3Compatible',
        config: (port) => s3(port, { endpoint_url: `http://s3.example.com:${port}`, use_virtual_style_addressing: true }),
        message: refusal('exports.s3.example.com', 'resolves to', 'a loopback address'),
      },
      {
        name: 'S3 on AWS, whose regional host resolves to the metadata address',
        destination: s3Destination,
        type: 'AwsS3',
        config: (port) => s3(port, { endpoint_url: null, region: 'eu-west-1' }),
        message: refusal('s3.eu-west-1.amazonaws.com', 'resolves to', 'a link-local address'),
      },
      { name: 'Postgres to a name resolving to loopback', destination: postgresDestination, type: 'Postgres', config: (port) => postgres(port, 'warehouse.example.com'), message: refusal('warehouse.example.com', 'resolves to', 'a loopback address') },
      { name: 'Postgres to 2130706433', destination: postgresDestination, type: 'Postgres', config: (port) => postgres(port, '2130706433'), message: refusal('2130706433', 'is', 'a loopback address') },
      { name: 'Postgres to localhost', destination: postgresDestination, type: 'Postgres', config: (port) => postgres(port, 'localhost'), message: refusal('localhost', 'resolves to', 'a loopback address') },
      { name: 'Postgres to a socket directory', destination: postgresDestination, type: 'Postgres', config: (port) => postgres(port, '/var/run/postgresql'), message: SOCKET_OR_LIST },
    ];
    for (const { name, destination, type, config, message } of cases) {
      it(`refuses ${name}, for good and before connecting`, async () => {
        const local = await listener();
        try {
          const failure = await failureOf(destination.run(exportRun(type, config(local.port), strict())));
          expect(failure).to.be.instanceOf(NonRetryableExportError);
          expect(failure.message).to.equal(message);
          expect(local.connections()).to.equal(0);
        } finally {
          await local.close();
        }
      });
    }

    // Every spelling of loopback, through each destination: the listener on 127.0.0.1 must see no connection.
    const LOOPBACK_SPELLINGS: ReadonlyArray<readonly [string, string, 'is' | 'resolves to']> = [
      ['0x7f000001', '127.0.0.1', 'is'],
      ['2130706433', '127.0.0.1', 'is'],
      ['0177.0.0.1', '127.0.0.1', 'is'],
      ['127.1', '127.0.0.1', 'is'],
      ['[::1]', '::1', 'is'],
      ['[::ffff:127.0.0.1]', '::ffff:7f00:1', 'is'],
      ['localhost', 'localhost', 'resolves to'],
    ];
    const spelledIn: ReadonlyArray<readonly [string, Destination, BatchExportRow['destination_type'], boolean, (host: string, port: number) => Record<string, unknown>]> = [
      ['HTTP url', httpDestination, 'HTTP', true, (host, port) => ({ url: `http://${host}:${port}/batch/`, token: 't' })],
      ['S3 endpoint_url', s3Destination, 'S3Compatible', true, (host, port) => s3(port, { endpoint_url: `http://${host}:${port}` })],
      ['Postgres host', postgresDestination, 'Postgres', false, (host, port) => postgres(port, host)],
    ];
    for (const [field, destination, type, urlSpelled, config] of spelledIn) {
      for (const [spelling, connected, verb] of LOOPBACK_SPELLINGS) {
        it(`refuses ${spelling} as the ${field}, for good and before connecting`, async () => {
          const local = await listener();
          try {
            const failure = await failureOf(destination.run(exportRun(type, config(spelling, local.port), strict())));
            expect(failure).to.be.instanceOf(NonRetryableExportError);
            expect(failure.message).to.equal(refusal(urlSpelled ? connected : spelling, verb, 'a loopback address'));
            expect(local.connections()).to.equal(0);
          } finally {
            await local.close();
          }
        });
      }
    }

    it('admits a name the allowlist names, whatever it resolves to, and only that name', async () => {
      const received: string[] = [];
      const receiver: HttpServer = createHttpServer((request, response) => {
        received.push(request.url ?? '');
        request.resume();
        request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":1}'));
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      const port = (receiver.address() as net.AddressInfo).port;
      try {
        const policy = new AddressPolicy({ allowlist: ['warehouse.example.com'], resolve: fakeResolver({ ...ANSWERS, 'other.example.com': ['127.0.0.1'] }) });
        const outcome = await httpDestination.run(exportRun('HTTP', { url: `http://warehouse.example.com:${port}/batch/`, token: 't' }, policy));
        expect(outcome.recordsCompleted).to.equal(1);
        expect(received).to.deep.equal(['/batch/']);
        const other = await failureOf(httpDestination.run(exportRun('HTTP', { url: `http://other.example.com:${port}/batch/`, token: 't' }, policy)));
        expect(other.message).to.equal(refusal('other.example.com', 'resolves to', 'a loopback address'));
        expect(received).to.have.length(1);
      } finally {
        receiver.closeAllConnections();
        await new Promise((resolve) => receiver.close(resolve));
      }
    });

    it('follows no redirect: a 3xx ends the run, and its target is never contacted', async () => {
      const target = await listener();
      const redirecting: HttpServer = createHttpServer((request, response) => {
        request.resume();
        request.on('end', () => response.writeHead(307, { location: `http://127.0.0.1:${target.port}/batch/` }).end('moved'));
      });
      await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
      try {
        const port = (redirecting.address() as net.AddressInfo).port;
        const policy = new AddressPolicy({ allowlist: LOOPBACK_ALLOWLIST, resolve: fakeResolver(ANSWERS) });
        const failure = await failureOf(httpDestination.run(exportRun('HTTP', { url: `http://127.0.0.1:${port}/batch/`, token: 't' }, policy)));
        expect(failure).to.be.instanceOf(NonRetryableExportError);
        expect(failure.message).to.equal('NonRetryableResponseError (status: 307): moved');
        expect(target.connections()).to.equal(0);
      } finally {
        redirecting.closeAllConnections();
        await new Promise((resolve) => redirecting.close(resolve));
        await target.close();
      }
    });

    describe('connection failures all read alike, and are retried', () => {
      const allowed = () => new AddressPolicy({ allowlist: LOOPBACK_ALLOWLIST, resolve: fakeResolver(ANSWERS) });
      const behaviours: ReadonlyArray<readonly [string, ((socket: net.Socket) => void) | 'closed']> = [
        ['a closed port', 'closed'],
        ['a port that resets the connection', (socket) => socket.resetAndDestroy()],
        ['a port that closes the connection at once', (socket) => socket.end()],
        ['a port that speaks another protocol', (socket) => socket.end('SSH-2.0-OpenSSH_9.2\r\n')],
      ];
      const destinations: ReadonlyArray<readonly [string, Destination, BatchExportRow['destination_type'], (port: number) => Record<string, unknown>]> = [
        ['HTTP', httpDestination, 'HTTP', (port) => ({ url: `http://127.0.0.1:${port}/batch/`, token: 't' })],
        ['HTTPS', httpDestination, 'HTTP', (port) => ({ url: `https://127.0.0.1:${port}/batch/`, token: 't' })],
        ['S3', s3Destination, 'S3Compatible', (port) => s3(port, { endpoint_url: `http://127.0.0.1:${port}` })],
        ['Postgres', postgresDestination, 'Postgres', (port) => postgres(port, '127.0.0.1')],
      ];
      for (const [destinationName, destination, type, config] of destinations) {
        for (const [behaviourName, behaviour] of behaviours) {
          it(`${destinationName}: ${behaviourName}`, async () => {
            const local = await listener(behaviour === 'closed' ? undefined : behaviour);
            const port = local.port;
            if (behaviour === 'closed') await local.close();
            try {
              const failure = await failureOf(destination.run(exportRun(type, config(port), allowed())));
              expect(failure).to.not.be.instanceOf(NonRetryableExportError);
              expect(failure.message).to.equal(UNREACHABLE_MESSAGE);
            } finally {
              if (behaviour !== 'closed') await local.close();
            }
          });
        }
      }
    });
  });

  describe("the server's own database", () => {
    let ownName: string;
    let otherName: string;

    before(async () => {
      ownName = (await testDb().raw('select current_database() as name')).rows[0].name;
      otherName = await createDatabase('hedgerow_egress_other', { local: true });
      await handToDestinationRole(ADMIN_URL, otherName);
    });
    after(async () => {
      if (otherName) await dropDatabase(otherName);
    });

    const tableExists = async (name: string) =>
      (await testDb().raw("select count(*)::int as n from pg_catalog.pg_tables where schemaname = 'public' and tablename = ?", [name])).rows[0].n > 0;

    // 127.0.0.2 is loopback too, but this PostgreSQL listens on 127.0.0.1 only; these are the aliases that reach it.
    for (const host of ['127.0.0.1', 'localhost', '[::ffff:127.0.0.1]', '::ffff:127.0.0.1', '2130706433', '0x7f.1']) {
      it(`refuses it through ${host}, with loopback allowed, creating and writing nothing there`, async () => {
        const table = `own_${randomUUID().slice(0, 8)}`;
        const config = { user: 'postgres', password: '', host, port: ADMIN_PORT, database: ownName, table_name: table };
        const policy = new AddressPolicy({ allowlist: LOOPBACK_ALLOWLIST, resolve: fakeResolver(ANSWERS) });
        const failure = await failureOf(postgresDestination.run(exportRun('Postgres', config, policy)));
        expect(failure).to.be.instanceOf(NonRetryableExportError);
        expect(failure.message).to.equal(OWN_DATABASE);
        expect(await tableExists(table)).to.equal(false);
        expect(await tableExists('hedgerow_batch_export_runs')).to.equal(false);
      });
    }

    it('still loads into another database of the same cluster, as an ordinary role', async () => {
      const table = `other_${randomUUID().slice(0, 8)}`;
      const config = { user: DESTINATION_ROLE, password: '', host: 'localhost', port: ADMIN_PORT, database: otherName, table_name: table };
      const outcome = await postgresDestination.run(exportRun('Postgres', config, new AddressPolicy({ allowlist: LOOPBACK_ALLOWLIST, resolve: fakeResolver(ANSWERS) })));
      expect(outcome.recordsCompleted).to.equal(1);
    });

    it('refuses a superuser of the same cluster in another database, creating and writing nothing there', async () => {
      const other = new pg.Client({ connectionString: destinationRoleUrl(databaseUrl(otherName)) });
      const admin = new pg.Client({ connectionString: ADMIN_URL });
      await Promise.all([other.connect(), admin.connect()]);
      const tablesOf = async () =>
        (await other.query<{ name: string }>("select tablename as name from pg_catalog.pg_tables where schemaname = 'public' order by 1")).rows.map((row) => row.name);
      try {
        const before = await tablesOf();
        const table = `superuser_${randomUUID().slice(0, 8)}`;
        for (const database of [otherName, 'postgres']) {
          const config = { user: 'postgres', password: '', host: '127.0.0.1', port: ADMIN_PORT, database, table_name: table };
          const failure = await failureOf(postgresDestination.run(exportRun('Postgres', config, new AddressPolicy({ allowlist: LOOPBACK_ALLOWLIST }))));
          expect(failure).to.be.instanceOf(NonRetryableExportError);
          expect(failure.message, database).to.equal(
            "The destination signs in as a superuser of the cluster that holds this server's own database, which a batch export may never do: use a role of its own.",
          );
        }
        expect(await tablesOf()).to.deep.equal(before);
        const inPostgres = await admin.query("select count(*)::int as n from pg_catalog.pg_tables where tablename = $1", [table]);
        expect(inPostgres.rows[0].n).to.equal(0);
      } finally {
        await other.end();
        await admin.end();
      }
    });

    describe('the attack of one organization on another through it', () => {
      let server: TestServer;
      let attacker: Account;
      let victim: Account;

      before(async () => {
        // Loopback allowed, as a test or an operator with an internal warehouse on the same host would.
        server = await startTestServer();
        attacker = await newAccount(testDb(), { scopes: ['batch_export:write', 'batch_export:read'] });
        victim = await newAccount(testDb());
        await insertEvents(testDb(), attacker.environment.id, [
          { event: 'seed', distinct_id: 'mallory', timestamp: new Date('2026-01-01T10:30:00Z') },
          { event: 'seed', distinct_id: 'mallory', timestamp: new Date('2026-01-01T10:31:00Z') },
        ]);
      });
      after(() => server?.close());

      async function attack(tableName: string, hogqlQuery: string): Promise<Error> {
        const destination = { type: 'Postgres', config: { user: 'postgres', password: 'ignored', host: '127.0.0.1', port: ADMIN_PORT, database: ownName, schema: 'public', table_name: tableName } };
        const created = await server.http.withKey(attacker.key).post<{ id: string }>(envPath(attacker), { ...exportBody(destination), hogql_query: hogqlQuery });
        expect(created.status, created.text).to.equal(201);
        const row = (await testDb()('batch_exports').where({ id: created.body.id }).first()) as BatchExportRow;
        const run: ExportRun = {
          batchExport: row,
          run: runRow(row, WINDOW),
          selectBy: 'timestamp',
          db: testDb(),
          addresses: new AddressPolicy({ allowlist: LOOPBACK_ALLOWLIST, resolve: fakeResolver(ANSWERS) }),
          signal: new AbortController().signal,
          progress: async () => undefined,
        };
        return failureOf(postgresDestination.run(run));
      }

      it("cannot write events into another organization's environment", async () => {
        const failure = await attack(
          'events',
          `SELECT uuid, ${victim.environment.id} AS team_id, 'INJECTED' AS event, properties, distinct_id, timestamp FROM events`,
        );
        expect(failure).to.be.instanceOf(NonRetryableExportError);
        expect(failure.message).to.equal(OWN_DATABASE);
        expect((await testDb()('events').where({ team_id: victim.environment.id }).count({ n: '*' }))[0]!.n).to.equal('0');
        expect((await testDb()('events').where({ event: 'INJECTED' }).count({ n: '*' }))[0]!.n).to.equal('0');
        expect(await tableExists('hedgerow_batch_export_runs')).to.equal(false);
      });

      it('cannot mint a personal API key of every scope', async () => {
        const before = await testDb()('personal_api_keys').count({ n: '*' });
        const failure = await attack('personal_api_keys', `SELECT uuid AS secure_value, '{*}' AS scopes, distinct_id AS label FROM events`);
        expect(failure).to.be.instanceOf(NonRetryableExportError);
        expect(failure.message).to.equal(OWN_DATABASE);
        expect(await testDb()('personal_api_keys').count({ n: '*' })).to.deep.equal(before);
        expect(await testDb()('personal_api_keys').whereRaw("scopes::text like '%*%'").andWhere('label', 'mallory')).to.deep.equal([]);
      });

      it('is refused when written, without an allowlist', async () => {
        const strictServer = await startTestServer({ config: { destinationAllowlist: [] } });
        try {
          const destination = { type: 'Postgres', config: { user: 'postgres', password: 'x', host: '127.0.0.1', port: ADMIN_PORT, database: ownName, table_name: 'events' } };
          const res = await strictServer.http.withKey(attacker.key).post(envPath(attacker), exportBody(destination));
          expect([res.status, res.body]).to.deep.equal([400, invalid(refusal('127.0.0.1', 'is', 'a loopback address'))]);
        } finally {
          await strictServer.close();
        }
      });
    });
  });

  describe('a run of the engine', () => {
    const schema = `pgboss_egress_${randomBytes(4).toString('hex')}`;
    let engine: Engine | null = null;
    let exportId: string | null = null;

    after(async () => {
      await engine?.stop();
      if (exportId) await testDb()('batch_exports').where({ id: exportId }).update({ deleted: true });
      await testDb().raw(`drop schema if exists ${schema} cascade`);
    });

    it('fails for good on a name resolving to a refused address, says so in latest_error, and connects nowhere', async function () {
      this.timeout(30_000);
      const local = await listener();
      try {
        exportId = randomUUID();
        await testDb()('batch_exports').insert({
          id: exportId,
          team_id: account.environment.id,
          name: 'to a name that resolves inside',
          destination_type: 'Postgres',
          destination_config: { user: 'postgres', password: 'hunter2-password', host: 'warehouse.example.com', port: local.port, database: 'warehouse' },
          interval: 'hour',
          created_at: new Date('2024-03-01T10:30:00Z'),
        });
        engine = new Engine({
          db: testDb(),
          logger: pino({ level: 'silent' }),
          clock: new ManualClock(new Date('2024-03-01T11:10:00Z')),
          destinations: { Postgres: postgresDestination },
          addresses: new AddressPolicy({ resolve: fakeResolver(ANSWERS) }),
          schema,
          cron: false,
          pollingIntervalSeconds: 0.5,
          retry: { limit: 2, delaySeconds: 0, backoff: false },
          straddlePollMs: 20,
        });
        await engine.start();
        await engine.tick();
        let run: { status: string; latest_error: string | null; attempts: number } | undefined;
        for (let waited = 0; waited < 20_000; waited += 100) {
          run = await testDb()('batch_export_runs').where({ batch_export_id: exportId }).first('status', 'latest_error', 'attempts');
          if (run && run.status !== 'Starting' && run.status !== 'Running') break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect(run).to.deep.equal({ status: 'Failed', latest_error: refusal('warehouse.example.com', 'resolves to', 'a loopback address'), attempts: 1 });
        expect(local.connections()).to.equal(0);
      } finally {
        await local.close();
      }
    });
  });

  describe('latest_error', () => {
    it('is bounded and carries none of the destination’s secrets', () => {
      const config = { password: 'hunter2-password', token: 'phc_secret_token', aws_secret_access_key: 'wJalrXUtnFEMI', aws_access_key_id: 'AKIAIOSFODNN7' };
      const message = `failed with hunter2-password, phc_secret_token, wJalrXUtnFEMI and AKIAIOSFODNN7 ${'x'.repeat(2000)}`;
      const latest = latestErrorOf(new Error(message), config);
      expect(latest).to.equal(`failed with ***, ***, *** and *** ${'x'.repeat(LATEST_ERROR_CHARS - 'failed with ***, ***, *** and *** '.length)}…`);
      expect(latestErrorOf('not an error', {})).to.equal('An unexpected error has occurred');
    });
  });
});
