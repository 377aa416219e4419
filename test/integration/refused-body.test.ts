/**
 * A body over the limit is answered 413 while the client is still sending it, and a client that sends its whole
 * body before it reads (as simple clients do) gets to read that answer: the server keeps reading (and throwing
 * away) the rest of the body before it closes the connection. Closing it under the client instead makes the
 * client's next writes fail with a reset, and the answer is never read.
 */
import { expect } from 'chai';
import { connect } from 'node:net';
import { testDb } from '../helpers/database.js';
import { contractViolations } from '../helpers/contract.js';
import { newAccount, type Account } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { REFUSED_BODY_DRAIN_BYTES } from '../../handlers/server/body.js';

/** Past the capture lane's 20 MB limit and far past the API's 1 MB. */
const BODY_BYTES = 28 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 'a');

interface Answer {
  status: number;
  connection: string | undefined;
  body: unknown;
}

/**
 * POSTs BODY_BYTES to `path` over a connection of its own, writing all of it whatever the server answers
 * meanwhile (a failed write rejects), then reads the answer.
 */
function sendOversizedBody(baseUrl: string, path: string, headers: Record<string, string>, chunked: boolean): Promise<Answer> {
  const url = new URL(path, baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('error', reject);
    const framing = chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(BODY_BYTES) };
    const head = Object.entries({ host: url.host, 'content-type': 'application/json', ...framing, ...headers })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    const write = (data: Buffer | string): Promise<void> =>
      new Promise((done, failed) => {
        if (socket.write(data, (error) => (error ? failed(error) : undefined))) done();
        else socket.once('drain', done);
      });
    const send = async (): Promise<void> => {
      await write(`POST ${url.pathname} HTTP/1.1\r\n${head}\r\n`);
      for (let sent = 0; sent < BODY_BYTES; sent += CHUNK.length) {
        await write(chunked ? Buffer.concat([Buffer.from(`${CHUNK.length.toString(16)}\r\n`), CHUNK, Buffer.from('\r\n')]) : CHUNK);
      }
      if (chunked) await write('0\r\n\r\n');
      // Sent whole: the answer is read from here on (the server closes the connection after it).
      await new Promise<void>((done) => (socket.readableEnded ? done() : socket.once('end', () => done())));
    };
    send().then(() => {
      const text = Buffer.concat(received).toString('utf8');
      const [statusLine, ...headerLines] = text.slice(0, text.indexOf('\r\n\r\n')).split('\r\n');
      const answerHeaders = Object.fromEntries(headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      const bodyText = text.slice(text.indexOf('\r\n\r\n') + 4);
      const status = Number(statusLine!.split(' ')[1]);
      const body: unknown = JSON.parse(bodyText);
      const contentType = answerHeaders['content-type'] ?? null;
      return contractViolations({ method: 'POST', path, status, contentType, body, text: bodyText }).then((violations) => {
        if (violations.length > 0) throw new Error(`Response breaks the contract:\n${violations.join('\n')}`);
        socket.destroy();
        resolve({ status, connection: answerHeaders.connection, body });
      });
    }, reject).catch(reject);
  });
}

describe('a body over the limit: the 413 reaches a client still sending', function () {
  this.timeout(60_000);
  let server: TestServer;
  let account: Account;

  before(async () => {
    account = await newAccount(testDb());
    server = await startTestServer();
  });

  after(async () => {
    await server?.close();
  });

  const cases = [
    { lane: 'capture', path: '/i/v0/e/', auth: false, limit: 20 * 1024 * 1024 - 1 },
    { lane: 'API', path: '/api/organizations/', auth: true, limit: 1024 * 1024 },
  ];
  for (const { lane, path, auth, limit } of cases) {
    for (const framing of ['Content-Length', 'chunked'] as const) {
      it(`${lane} (${path}), ${framing === 'chunked' ? 'a chunked body' : 'its length announced'}: 413 in the error format, Connection: close`, async () => {
        const headers: Record<string, string> = auth ? { authorization: `Bearer ${account.key}` } : {};
        const answer = await sendOversizedBody(server.directUrl, path, headers, framing === 'chunked');
        expect(answer).to.deep.equal({
          status: 413,
          connection: 'close',
          body: {
            type: 'invalid_request',
            code: 'request_too_large',
            detail: `The request body is larger than the ${limit} bytes this endpoint accepts.`,
            attr: null,
          },
        });
      });
    }
  }

  it('a client that never stops sending: the 413 first, then the connection closes once the drain bound is passed', async () => {
    const url = new URL('/i/v0/e/', server.directUrl);
    const socket = connect(Number(url.port), url.hostname);
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    const giveUpAt = 4 * REFUSED_BODY_DRAIN_BYTES;
    let sent = 0;
    const closed = await new Promise<boolean>((resolve) => {
      socket.once('error', () => resolve(true));
      socket.once('close', () => resolve(true));
      const writeMore = (): void => {
        while (sent < giveUpAt) {
          sent += CHUNK.length;
          if (!socket.write(CHUNK)) {
            socket.once('drain', writeMore);
            return;
          }
        }
        resolve(false);
      };
      socket.write(`POST ${url.pathname} HTTP/1.1\r\nhost: ${url.host}\r\ncontent-type: application/json\r\ncontent-length: ${2 * giveUpAt}\r\n\r\n`);
      writeMore();
    });
    socket.destroy();

    expect(closed, `the server still reads after ${sent} bytes`).to.equal(true);
    expect(sent).to.be.above(REFUSED_BODY_DRAIN_BYTES);
    expect(Buffer.concat(received).toString('utf8')).to.match(/^HTTP\/1\.1 413 .*\r\n[^]*"code":"request_too_large"/);
  });
});
