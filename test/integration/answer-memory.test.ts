/**
 * Answers held to budgets: the event listing's page to the answer budget of the query endpoint (a 400 past it,
 * however it is made large: many events, many selected columns, CSV), and the answers a process holds at once to
 * a per-process budget with a share per user (handlers/server/answer-memory.ts), however many organizations the
 * user's key reaches: past the share a 429 with Retry-After while another user is answered; an answer whose
 * client reads nothing is cut off after the write timeout and its share given back.
 */
import net from 'node:net';
import { expect } from 'chai';
import { testDb } from '../helpers/database.js';
import { newAccount, type Account } from '../helpers/fixtures.js';
import type { HttpClient } from '../helpers/http.js';
import { insertEvents } from '../helpers/seed-events.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { waitFor } from '../helpers/wait.js';

const MIB = 1024 * 1024;

/** `count` events of `fillerBytes` of properties each, a second apart. */
async function seedBig(teamId: number, count: number, fillerBytes: number): Promise<void> {
  const filler = 'x'.repeat(fillerBytes);
  await insertEvents(
    testDb(),
    teamId,
    Array.from({ length: count }, (_, index) => ({
      event: 'big',
      distinct_id: `d${index}`,
      timestamp: new Date(Date.UTC(2024, 0, 1, 0, 0, index)),
      properties: { filler, index },
    })),
  );
}

describe('answers: the listing held to the answer budget', function () {
  this.timeout(60_000);
  let server: TestServer;
  let client: HttpClient;
  let path: string;
  const PAGE_TOO_LARGE = {
    type: 'validation_error',
    code: 'invalid_input',
    detail: 'The page of events is larger than 1 MB, the most one answer may hold. Lower `limit` or select fewer columns.',
    attr: null,
  };
  const list = (params: Record<string, string>) => client.get(`${path}?${new URLSearchParams({ after: '2023-12-31', ...params })}`);
  const selectOf = (count: number) => JSON.stringify(Array.from({ length: count }, () => 'properties'));

  before(async () => {
    server = await startTestServer({ config: { queryResultMaxBytes: MIB } });
    const account = await newAccount(testDb(), { scopes: ['query:read'] });
    client = server.http.withKey(account.key);
    path = `/api/projects/${account.environment.id}/events/`;
    // 150 events of 10 kB: 1.5 MB together, the budget being 1 MB.
    await seedBig(account.environment.id, 150, 10_000);
  });

  after(async () => {
    await server.close();
  });

  it('a page within the budget is answered whole', async () => {
    const response = await list({ limit: '50' });
    expect(response.status).to.equal(200);
    expect(response.body.results).to.have.length(50);
  });

  it('400 for a page of many events past the budget, as JSON and as CSV', async () => {
    const json = await list({ limit: '1000' });
    expect([json.status, json.body]).to.deep.equal([400, PAGE_TOO_LARGE]);
    const csv = await list({ limit: '1000', format: 'csv' });
    expect([csv.status, csv.body]).to.deep.equal([400, PAGE_TOO_LARGE]);
  });

  it('400 for a select of many properties past the budget, never a 500', async () => {
    for (const count of [4, 12, 40]) {
      const response = await list({ limit: '100', select: selectOf(count) });
      expect([count, response.status, response.body]).to.deep.equal([count, 400, PAGE_TOO_LARGE]);
    }
    const csv = await list({ limit: '100', select: selectOf(12), format: 'csv' });
    expect([csv.status, csv.body]).to.deep.equal([400, PAGE_TOO_LARGE]);
  });

  it('a select within the budget still answers its rows', async () => {
    const response = await list({ limit: '20', select: selectOf(2) });
    expect(response.status).to.equal(200);
    expect(response.body.results).to.have.length(20);
    expect(response.body.results[0][0].filler).to.have.length(10_000);
  });
});

/** A query's answer read no further than its status line: the socket, and the status. */
function unreadAnswer(baseUrl: string, key: string, environmentId: number, query: string): Promise<UnreadAnswer> {
  const body = JSON.stringify({ query: { kind: 'HogQLQuery', query } });
  return unreadRequest(
    baseUrl,
    `POST /api/environments/${environmentId}/query/ HTTP/1.1\r\nauthorization: Bearer ${key}\r\n` +
      `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/** A GET whose answer this test reads no further than its status line. */
function unreadGet(baseUrl: string, key: string, path: string): Promise<UnreadAnswer> {
  return unreadRequest(baseUrl, `GET ${path} HTTP/1.1\r\nauthorization: Bearer ${key}\r\n\r\n`);
}

function unreadRequest(baseUrl: string, request: string): Promise<UnreadAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    // A bare socket: a client that reads one chunk and then stops, so that its receive buffer stays small.
    const [requestLine, ...rest] = request.split('\r\n');
    const socket = net.connect(Number(port), hostname, () => socket.write([requestLine, `host: ${hostname}`, ...rest].join('\r\n')));
    socket.on('error', () => undefined);
    socket.once('data', (chunk: Buffer) => {
      socket.pause();
      const head = chunk.toString('latin1');
      const length = /\r\ncontent-length: (\d+)/i.exec(head);
      resolve({ socket, status: Number(head.slice(9, 12)), length: length ? Number(length[1]) : 0, received: chunk.length - head.indexOf('\r\n\r\n') - 4 });
    });
    socket.once('close', () => reject(new Error('closed before answering')));
  });
}

interface UnreadAnswer {
  socket: net.Socket;
  status: number;
  /** The body's length, and how much of it came with the status line. */
  length: number;
  received: number;
}

/** Reads the rest of an answer: the bytes of its body that came before the connection ended. */
function bytesUntilClosed(answer: UnreadAnswer): Promise<number> {
  return new Promise((resolve) => {
    let bytes = answer.received;
    answer.socket.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    answer.socket.once('close', () => resolve(bytes));
    answer.socket.resume();
  });
}

/** 150 events of 100 kB each: an answer of about 15 MB, within the 16 MB answer budget. */
const LARGE_QUERY = 'select properties from events order by timestamp limit 150';
const ANSWER_BUDGET = 16 * MIB;
const TRIVIAL = 'select count() from events';

describe('answers: the memory of answers in flight, shared between users', function () {
  this.timeout(120_000);
  const held: UnreadAnswer[] = [];
  let server: TestServer;
  let user: Account;
  let other: Account;
  let secondEnvironment: number;
  const USER_SHARE_FULL = {
    type: 'throttled_error',
    code: 'throttled',
    detail: 'Too many answers of this user are being built or sent at once. Read the answers in flight first, or try again later.',
    attr: null,
  };

  before(async () => {
    // A user may hold two answers; the process five.
    server = await startTestServer({
      config: { queryResultMaxBytes: ANSWER_BUDGET, answerMemoryBytes: 80 * MIB, answerMemoryPerUserBytes: 32 * MIB, answerWriteTimeoutMs: 0 },
    });
    user = await newAccount(testDb());
    other = await newAccount(testDb());
    // The user's second organization, made as an attacker would: through the API.
    const created = await server.http.withKey(user.key).post('/api/organizations/', { name: 'second' });
    expect(created.status).to.equal(201);
    secondEnvironment = created.body.teams[0].id;
    await seedBig(user.environment.id, 150, 100_000);
    await seedBig(secondEnvironment, 150, 100_000);
  });

  after(async () => {
    for (const answer of held) answer.socket.destroy();
    await server.close();
  });

  it("past a user's share (across its organizations) a 429 with Retry-After; another user is answered", async () => {
    for (const environment of [user.environment.id, secondEnvironment]) {
      const answer = await unreadAnswer(server.directUrl, user.key, environment, LARGE_QUERY);
      held.push(answer);
      expect(answer.status).to.equal(200);
    }
    // Its next answer, in either organization, would take the user past its share.
    const client = server.http.withKey(user.key);
    for (const environment of [user.environment.id, secondEnvironment]) {
      const refused = await client.post(`/api/environments/${environment}/query/`, { query: { kind: 'HogQLQuery', query: LARGE_QUERY } });
      expect([refused.status, refused.body, refused.headers.get('retry-after')]).to.deep.equal([429, USER_SHARE_FULL, '5']);
    }
    const otherAnswer = await server.http
      .withKey(other.key)
      .post(`/api/environments/${other.environment.id}/query/`, { query: { kind: 'HogQLQuery', query: TRIVIAL } });
    expect([otherAnswer.status, otherAnswer.body.results]).to.deep.equal([200, [[0]]]);

    // Once the user's unread answers are gone (their connections closed), the user is answered again.
    for (const answer of held.splice(0)) answer.socket.destroy();
    const answered = await waitFor('the user answered again', async () => {
      const response = await client.post(`/api/environments/${user.environment.id}/query/`, { query: { kind: 'HogQLQuery', query: LARGE_QUERY } });
      return response.status === 200 ? response : null;
    });
    expect(answered.body.results).to.have.length(150);
  });
  it("a stored status's reads reserve its stored size: past the user's share a 429 with Retry-After", async () => {
    // A complete status holding a 15 MB answer, as a run would have stored it.
    const client = server.http.withKey(user.key);
    const computed = await client.post(`/api/environments/${user.environment.id}/query/`, { query: { kind: 'HogQLQuery', query: LARGE_QUERY } });
    expect(computed.status).to.equal(200);
    const results: Record<string, unknown> = { ...computed.body };
    delete results.query_status;
    await testDb()('query_statuses').insert({
      team_id: user.environment.id,
      id: 'stored-large',
      query: JSON.stringify({ kind: 'HogQLQuery', query: LARGE_QUERY }),
      complete: true,
      results: JSON.stringify(results),
      start_time: new Date(),
      end_time: new Date(),
      expiration_time: new Date(Date.now() + 20 * 60_000),
    });
    const statusPath = `/api/environments/${user.environment.id}/query/stored-large/`;
    for (let index = 0; index < 2; index++) {
      const answer = await unreadGet(server.directUrl, user.key, statusPath);
      held.push(answer);
      expect(answer.status).to.equal(200);
    }
    const refused = await client.get(statusPath);
    expect([refused.status, refused.body, refused.headers.get('retry-after')]).to.deep.equal([429, USER_SHARE_FULL, '5']);

    for (const answer of held.splice(0)) answer.socket.destroy();
    const answered = await waitFor('the status read again', async () => {
      const response = await client.get(statusPath);
      return response.status === 200 ? response : null;
    });
    expect(answered.body.query_status.results.results).to.have.length(150);
  });
});

describe('answers: a client that reads nothing is cut off', function () {
  this.timeout(120_000);
  const held: UnreadAnswer[] = [];
  let server: TestServer;
  let user: Account;

  before(async () => {
    server = await startTestServer({
      // One unread answer fills the user's share.
      config: { queryResultMaxBytes: ANSWER_BUDGET, answerMemoryBytes: 80 * MIB, answerMemoryPerUserBytes: 24 * MIB, answerWriteTimeoutMs: 10_000 },
    });
    user = await newAccount(testDb());
    await seedBig(user.environment.id, 150, 100_000);
  });

  after(async () => {
    for (const answer of held) answer.socket.destroy();
    await server.close();
  });

  it('its connection is closed after the write timeout and its share given back', async () => {
    const answer = await unreadAnswer(server.directUrl, user.key, user.environment.id, LARGE_QUERY);
    held.push(answer);
    expect(answer.status).to.equal(200);
    const client = server.http.withKey(user.key);
    const refused = await client.post(`/api/environments/${user.environment.id}/query/`, { query: { kind: 'HogQLQuery', query: LARGE_QUERY } });
    expect([refused.status, refused.headers.get('retry-after')]).to.deep.equal([429, '5']);
    // Though the client keeps its connection open, reading nothing, the user is soon answered again.
    const answered = await waitFor('the user answered again', async () => {
      const response = await client.post(`/api/environments/${user.environment.id}/query/`, { query: { kind: 'HogQLQuery', query: LARGE_QUERY } });
      return response.status === 200 ? response : null;
    }, 40_000);
    expect(answered.body.results).to.have.length(150);
    // Because the server cut the answer off: read now, it ends short of its length.
    expect(await bytesUntilClosed(answer)).to.be.below(answer.length);
  });
});

