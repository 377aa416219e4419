import { expect } from 'chai';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { createDb } from '../../db/pg/client.js';
import { createDatabase, databaseUrl, dropDatabase, testDb } from '../helpers/database.js';
import { newAccount } from '../helpers/fixtures.js';
import { startTestServer } from '../helpers/server.js';

describe('server behaviour', () => {
  describe('health_retrieve', () => {
    it('answers 200 while the database answers', async () => {
      const server = await startTestServer();
      try {
        const res = await server.http.get('/_health');
        expect([res.status, res.body]).to.deep.equal([200, { status: 'ok', host: server.config.hostId }]);
      } finally {
        await server.close();
      }
    });
  });

  describe('metrics_retrieve', () => {
    it('names the host first, with the name /_health gives', async () => {
      const server = await startTestServer({ config: { hostId: 'web "1"\\a' } });
      try {
        const res = await server.http.get('/_metrics');
        expect(res.text.split('\n').slice(0, 3)).to.deep.equal([
          '# HELP hedgerow_host_info The host that answered (HEDGEROW_HOST_ID), whichever of its workers did.',
          '# TYPE hedgerow_host_info gauge',
          'hedgerow_host_info{host="web \\"1\\"\\\\a"} 1',
        ]);
        expect((await server.http.get('/_health')).body).to.deep.equal({ status: 'ok', host: 'web "1"\\a' });
      } finally {
        await server.close();
      }
    });
  });

  describe('readiness_retrieve', () => {
    it('answers 200 while the database answers', async () => {
      const server = await startTestServer();
      try {
        const res = await server.http.get('/_readiness');
        expect([res.status, res.body]).to.deep.equal([200, { status: 'ok' }]);
      } finally {
        await server.close();
      }
    });

    it('readiness answers 503 while liveness stays 200 when the database is unreachable', async () => {
      const unreachable = createDb('postgres://postgres@127.0.0.1:1/nothing');
      const server = await startTestServer({ db: unreachable });
      try {
        expect((await server.http.get('/_health')).status).to.equal(200);
        const res = await server.http.get('/_readiness');
        expect(res.status).to.equal(503);
        expect(res.body).to.deep.equal({
          type: 'server_error',
          code: 'service_unavailable',
          detail: 'The database is unreachable.',
          attr: null,
        });
      } finally {
        await server.close();
        await unreachable.destroy();
      }
    });
  });

  it('logs each API request once, after its answer, with the status it was answered with', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const account = await newAccount(testDb());
    const server = await startTestServer({ logger: pino({ level: 'info' }, sink) });
    try {
      const asked: Array<[path: string, status: number]> = [
        ['/api/projects/', 200],
        [`/api/projects/${account.environment.id}/events/?limit=abc`, 400],
        ['/api/organizations/0190f1c4-0000-7000-8000-000000000000/', 404],
        ['/api/nothing/', 404],
      ];
      for (const [path, status] of asked) {
        // Straight to the server: a proxy in between could answer some of these itself.
        const response = await fetch(new URL(path, server.directUrl), { headers: { authorization: `Bearer ${account.key}` } });
        await response.arrayBuffer();
        expect(response.status, path).to.equal(status);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
      const logged = lines
        .map((line) => JSON.parse(line) as { msg: string; path?: string; status?: unknown; method?: string })
        .filter((line) => line.msg === 'request')
        .map((line) => [line.method, line.path, line.status]);
      expect(logged).to.deep.equal(asked.map(([path, status]) => ['GET', path.split('?')[0], status]));
    } finally {
      await server.close();
    }
  });

  it('answers an unexpected failure with a generic 500, logged with its cause, without a stack', async function () {
    this.timeout(30_000);
    const name = await createDatabase('hedgerow_unmigrated');
    const unmigrated = createDb(databaseUrl(name));
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const server = await startTestServer({ db: unmigrated, logger: pino({ level: 'error' }, sink) });
    try {
      const res = await server.http.get('/api/organizations/', { key: 'phx_anything' });
      expect(res.status).to.equal(500);
      expect(res.body).to.deep.equal({
        type: 'server_error',
        code: 'server_error',
        detail: 'A server error occurred.',
        attr: null,
      });
      expect(res.text).to.not.include('personal_api_keys');
      const logged = lines.map((line) => JSON.parse(line));
      expect(logged.some((entry) => entry.msg === 'unexpected error' && /personal_api_keys/.test(entry.err?.message))).to.equal(true);
    } finally {
      await server.close();
      await unmigrated.destroy();
      await dropDatabase(name);
    }
  });

  it('throttles a personal API key past its per-minute budget with 429 and Retry-After', async () => {
    const server = await startTestServer({ config: { rateLimitPerMinute: 3 } });
    try {
      const account = await newAccount(testDb());
      const other = await newAccount(testDb());
      const statuses = [];
      for (let i = 0; i < 4; i += 1) statuses.push((await server.http.withKey(account.key).get('/api/projects/')).status);
      expect(statuses).to.deep.equal([200, 200, 200, 429]);
      const res = await server.http.withKey(account.key).get('/api/organizations/');
      expect(res.status).to.equal(429);
      const wait = Number(res.headers.get('retry-after'));
      expect(wait).to.be.within(1, 60);
      expect(res.body).to.deep.equal({
        type: 'throttled_error',
        code: 'throttled',
        detail: `Request was throttled. Expected available in ${wait} seconds.`,
        attr: null,
      });
      expect((await server.http.withKey(other.key).get('/api/projects/')).status).to.equal(200);
    } finally {
      await server.close();
    }
  });

  describe('requests node:http cannot parse', () => {
    /** Sends `head` on a raw socket (fetch would refuse to) and returns the whole answer, read until close. */
    const exchange = (url: string, head: string) =>
      new Promise<string>((resolve, reject) => {
        const { port } = new URL(url);
        const socket = connect(Number(port), '127.0.0.1', () => socket.write(head));
        const chunks: Buffer[] = [];
        socket.on('data', (chunk: Buffer) => chunks.push(chunk));
        socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
        socket.on('error', reject);
      });
    const cases: Array<{ name: string; head: (key: string) => string; status: string; body: object }> = [
      {
        name: 'a request line and headers over 16 KB (a query string that long)',
        head: (key) => `GET /api/projects/?x=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer ${key}\r\n\r\n`,
        status: '431 Request Header Fields Too Large',
        body: {
          type: 'invalid_request',
          code: 'request_header_fields_too_large',
          detail: 'The request line and headers are larger than the 16384 bytes the server reads.',
          attr: null,
        },
      },
      {
        name: 'a malformed request line',
        head: () => 'GET /api/projects/ HTTP/1.1 extra\r\nHost: h\r\n\r\n',
        status: '400 Bad Request',
        body: { type: 'invalid_request', code: 'malformed_request', detail: 'The request is not valid HTTP/1.1.', attr: null },
      },
      {
        name: 'a header name with a space',
        head: () => 'GET /_health HTTP/1.1\r\nHost: h\r\nBad Header: 1\r\n\r\n',
        status: '400 Bad Request',
        body: { type: 'invalid_request', code: 'malformed_request', detail: 'The request is not valid HTTP/1.1.', attr: null },
      },
    ];
    for (const { name, head, status, body } of cases) {
      it(`answers ${name} with ${status} in the error format`, async () => {
        const account = await newAccount(testDb());
        const server = await startTestServer();
        try {
          const answer = await exchange(server.directUrl, head(account.key));
          const [statusLine, ...rest] = answer.split('\r\n');
          expect(statusLine).to.equal(`HTTP/1.1 ${status}`);
          const [headers, text] = [rest.slice(0, rest.indexOf('')), rest.slice(rest.indexOf('') + 1).join('\r\n')];
          expect(headers).to.include('Content-Type: application/json');
          expect(headers).to.include('Connection: close');
          expect(JSON.parse(text)).to.deep.equal(body);
          // The server is still there for the next caller.
          expect((await server.http.get('/_health')).status).to.equal(200);
        } finally {
          await server.close();
        }
      });
    }
  });
});
